#include "api/data_plane.h"
#include "api/feed.h"
#include "api/handlers.h"
#include "api/headers.h"
#include "api/resource_response.h"
#include "api/statistics_json.h"
#include "engine/throughput/cost_model.h"

namespace orrery::api {
namespace {

// Informational quota headers the service sends on container reads and creates.
void AddQuotaHeaders(http::Response& response, const engine::ContainerStatistics* stats = nullptr) {
  response.headers.push_back({headers::kResourceQuota,
                              "functions=50;storedProcedures=100;triggers=25;documentSize=10240;"
                              "documentsSize=10485760;documentsCount=-1;collectionSize=10485760;"});
  response.headers.push_back(
      {headers::kResourceUsage,
       stats ? ResourceUsageHeader(*stats)
             : "functions=0;storedProcedures=0;triggers=0;documentSize=0;documentsSize=0;"
               "documentsCount=-1;collectionSize=0;"});
}

// The owner's name-based path, as the service sends it with a container: the Java SDK
// builds a container's altLink from it (RxDocumentServiceResponse.getResource through
// PathsHelper.generatePathForNameBased) and its change feed needs that link.
void AddOwnerHeader(http::Response& response, const std::string& database_id) {
  response.headers.push_back({headers::kAltContentPath, "dbs/" + database_id});
}

// The service lists a sample of the largest logical partitions of each partition.
constexpr size_t kStatisticsKeysPerPartition = 10;

// Before REST API version 2018-12-31 a container could be created without a partition
// key: a non-partitioned container, which clients of that version see without one and
// newer clients see as the service presents migrated containers, with the system key
// /_partitionKey (migrate-containers-partitioned-to-nonpartitioned.md).
constexpr std::string_view kFirstVersionRequiringPartitionKey = "2018-12-31";

bool SpeaksVersionBeforePartitionKeys(const RequestContext& ctx) {
  const std::string* version = ctx.Header(headers::kVersion);
  return version != nullptr && *version < kFirstVersionRequiringPartitionKey;
}

json::Value SystemKeyDefinition() {
  return json::Value::MakeObject({
      {"paths", json::Value::MakeArray({json::Value::String("/_partitionKey")})},
      {"kind", json::Value::String("Hash")},
      {"systemKey", json::Value::Bool(true)},
  });
}

// A create or replace of an older version without a partition key: the container is
// (or stays) non-partitioned, with the system key.
void AddSystemKeyForOlderVersions(const RequestContext& ctx, json::Value& body) {
  if (!body.is_object() || !SpeaksVersionBeforePartitionKeys(ctx)) return;
  const json::Value* pk = body.Find("partitionKey");
  if (pk == nullptr || pk->is_null()) body.Set("partitionKey", SystemKeyDefinition());
}

// A container as a client of the request's version sees it: one of a version before
// partition keys sees a systemKey container without its key.
json::Value AsVersionSeesIt(const RequestContext& ctx, json::Value container) {
  if (!SpeaksVersionBeforePartitionKeys(ctx)) return container;
  const json::Value* pk = container.Find("partitionKey");
  const json::Value* system_key = pk != nullptr ? pk->Find("systemKey") : nullptr;
  if (system_key != nullptr && system_key->is_bool() && system_key->as_bool()) {
    container.Remove("partitionKey");
  }
  return container;
}

}  // namespace

HandlerResult HandleContainerFeed(const RequestContext& ctx) {
  const std::string& db = ctx.path.segments[1];
  const std::string& method = ctx.request.method;
  if (IsListOrQuery(ctx)) {
    Result<std::vector<json::Value>> containers = ctx.account.ListContainers(db);
    if (!containers.ok() && containers.status().IsNotFound()) {
      // The feed's owner, the database, is what is missing.
      return Status::NotFound(containers.status().message(), kOwnerResourceNotFound);
    }
    ORRERY_RETURN_IF_ERROR(containers.status());
    for (json::Value& container : *containers)
      container = AsVersionSeesIt(ctx, std::move(container));
    ORRERY_ASSIGN_OR_RETURN(json::Value database, ctx.account.ReadDatabase(db));
    return ListOrQueryResources(ctx, *containers, database.Find("_rid")->as_string(),
                                "DocumentCollections");
  }
  if (method == "POST") {
    ORRERY_ASSIGN_OR_RETURN(json::Value body, JsonBody(ctx));
    AddSystemKeyForOlderVersions(ctx, body);
    ORRERY_ASSIGN_OR_RETURN(engine::ThroughputRequest throughput, ThroughputHeaders(ctx));
    ORRERY_ASSIGN_OR_RETURN(json::Value created,
                            ctx.account.CreateContainer(db, std::move(body), throughput));
    http::Response response = ResourceResponse(ctx, 201, AsVersionSeesIt(ctx, std::move(created)),
                                               throughput::kMetadataWriteCharge);
    AddQuotaHeaders(response);
    AddOwnerHeader(response, db);
    return response;
  }
  return Status::MethodNotAllowed("The containers feed supports GET and POST.");
}

HandlerResult HandleContainer(const RequestContext& ctx) {
  const std::string& db = ctx.path.segments[1];
  const std::string& id = ctx.path.segments[3];
  const std::string& method = ctx.request.method;
  if (method == "GET") {
    ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<engine::Container> container,
                            ctx.account.GetContainer(db, id));
    const bool quota = ctx.HeaderIsTrue(headers::kPopulateQuotaInfo);
    const bool partition_stats = ctx.HeaderIsTrue(headers::kPopulatePartitionStatistics);
    if (!quota && !partition_stats) {
      http::Response response =
          ResourceResponse(ctx, 200, AsVersionSeesIt(ctx, container->settings().resource),
                           throughput::kMetadataReadCharge);
      AddQuotaHeaders(response);
      AddOwnerHeader(response, db);
      return response;
    }
    // Usage and statistics cost a pass over the container's logical partitions: only
    // when asked for, as in the service.
    ORRERY_ASSIGN_OR_RETURN(engine::ContainerStatistics stats,
                            engine::StatisticsOf(*container, kStatisticsKeysPerPartition));
    json::Value resource = AsVersionSeesIt(ctx, container->settings().resource);
    if (partition_stats) resource.Set("statistics", ServiceStatisticsJson(stats));
    http::Response response = ResourceResponse(ctx, 200, resource, throughput::kMetadataReadCharge);
    AddQuotaHeaders(response, &stats);
    AddOwnerHeader(response, db);
    // As the service, on request (the SDKs' populateQuotaInfo): how far the re-index
    // after an indexing-policy change has got.
    if (ctx.HeaderIsTrue(headers::kPopulateQuotaInfo)) {
      response.headers.push_back({headers::kIndexTransformationProgress,
                                  std::to_string(container->IndexTransformationProgress())});
    }
    return response;
  }
  if (method == "PUT") {
    ORRERY_ASSIGN_OR_RETURN(json::Value body, JsonBody(ctx));
    AddSystemKeyForOlderVersions(ctx, body);
    ORRERY_ASSIGN_OR_RETURN(json::Value replaced,
                            ctx.account.ReplaceContainer(db, id, std::move(body),
                                                         ctx.OptionalHeader(headers::kIfMatch)));
    http::Response response = ResourceResponse(ctx, 200, AsVersionSeesIt(ctx, std::move(replaced)),
                                               throughput::kMetadataWriteCharge);
    AddOwnerHeader(response, db);
    return response;
  }
  if (method == "DELETE") {
    ORRERY_RETURN_IF_ERROR(ctx.account.DeleteContainer(db, id));
    return NoContentResponse(ctx, throughput::kMetadataWriteCharge);
  }
  return Status::MethodNotAllowed("A container supports GET, PUT and DELETE.");
}

}  // namespace orrery::api
