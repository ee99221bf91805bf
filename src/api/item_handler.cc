#include <chrono>
#include <thread>

#include "api/batch.h"
#include "api/change_feed.h"
#include "api/data_plane.h"
#include "api/feed.h"
#include "api/handlers.h"
#include "api/headers.h"
#include "api/index_metrics.h"
#include "api/item_scope.h"
#include "api/query_metrics.h"
#include "api/query_plan.h"
#include "api/response.h"
#include "common/encoding.h"
#include "engine/query_work.h"
#include "engine/script_execution.h"
#include "engine/throughput/cost_model.h"
#include "json/json.h"

namespace orrery::api {
namespace {

// The data-plane headers the SDK reads: session token (captured only together with
// x-ms-content-path, wire-protocol.md §15), content paths and LSNs.
void AddDataPlaneHeaders(ResponseBuilder& builder, const engine::Container& container,
                         const std::string& session_token, uint64_t lsn) {
  const engine::ContainerSettings& s = container.settings();
  builder.Header(headers::kSessionToken, session_token)
      .Header(headers::kContentPath, s.rid)
      .Header(headers::kAltContentPath, AltContentPath(s))
      .Header(headers::kLsn, std::to_string(lsn))
      .Header(headers::kGlobalCommittedLsn, std::to_string(lsn));
}

// Takes the item by value: its JSON moves into the body instead of being copied.
http::Response ItemResponse(const RequestContext& ctx, const engine::Container& container,
                            int status, engine::ItemResult item, double charge) {
  ResponseBuilder builder(status, ctx.activity_id);
  builder.Charge(charge);
  if (!item.etag.empty()) builder.Header(headers::kEtag, std::move(item.etag));
  AddDataPlaneHeaders(builder, container, SessionToken(item.pkrange_id, item.lsn), item.lsn);
  builder.Header(headers::kItemLsn, std::to_string(item.lsn));
  // Writes with `Prefer: return=minimal` (the SDKs' content-response-on-write off) get
  // no body back.
  const std::string* prefer = ctx.Header(headers::kPrefer);
  const bool minimal = ctx.request.method != "GET" && prefer != nullptr &&
                       prefer->find("return=minimal") != std::string::npos;
  if (status != 204 && status != 304 && !minimal) {
    builder.JsonBody(std::move(item.json));
  }
  return std::move(builder).Build();
}

Result<std::shared_ptr<engine::Container>> ContainerOf(const RequestContext& ctx) {
  return OwnerContainer(ctx);
}

size_t OutputBytes(const engine::FeedPage& page) {
  size_t bytes = 0;
  for (const std::string& doc : page.documents) bytes += doc.size();
  return bytes;
}

double MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// x-ms-indexing-directive: Include (true), Exclude (false), Default (nullopt), in any
// case; the Python SDK sends its IndexingDirective numbers, 0 Default, 1 Exclude and
// 2 Include.
Result<std::optional<bool>> IndexingDirective(const RequestContext& ctx) {
  const std::string* header = ctx.Header(headers::kIndexingDirective);
  if (header == nullptr || EqualsIgnoreCase(*header, "Default") || *header == "0") {
    return std::optional<bool>();
  }
  if (EqualsIgnoreCase(*header, "Include") || *header == "2") return std::optional<bool>(true);
  if (EqualsIgnoreCase(*header, "Exclude") || *header == "1") return std::optional<bool>(false);
  return Status::BadRequest("The value '" + *header + "' of the header " +
                            headers::kIndexingDirective +
                            " is invalid: it must be Include, Exclude or Default.");
}

// The triggers a write names: at most one of each kind (the service's limit), each one
// the container has. Errors: BadRequest, NotFound.
struct NamedTriggers {
  std::optional<json::Value> pre;
  std::optional<json::Value> post;
  bool any() const { return pre || post; }
};

Result<std::optional<json::Value>> NamedTrigger(const RequestContext& ctx,
                                                const engine::Container& container,
                                                const char* header) {
  const std::string* value = ctx.Header(header);
  if (value == nullptr) return std::optional<json::Value>();
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= value->size()) {
    const size_t comma = std::min(value->find(',', start), value->size());
    std::string name = value->substr(start, comma - start);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    if (!name.empty()) names.push_back(std::move(name));
    start = comma + 1;
  }
  if (names.empty()) return std::optional<json::Value>();
  if (names.size() > 1) {
    return Status::BadRequest(std::string("At most one pre-trigger and one post-trigger can run "
                                          "with an operation; ") +
                              header + " names " + std::to_string(names.size()) + ".");
  }
  Result<json::Value> trigger = container.ReadScript(engine::ScriptType::kTrigger, names[0]);
  if (!trigger.ok() && trigger.status().IsNotFound()) {
    return Status::NotFound("The trigger '" + names[0] + "' named in " + header +
                            " does not exist in this container.");
  }
  ORRERY_RETURN_IF_ERROR(trigger.status());
  return std::optional<json::Value>(std::move(*trigger));
}

Result<NamedTriggers> NamedTriggersOf(const RequestContext& ctx,
                                      const engine::Container& container) {
  NamedTriggers out;
  ORRERY_ASSIGN_OR_RETURN(out.pre, NamedTrigger(ctx, container, headers::kPreTriggerInclude));
  ORRERY_ASSIGN_OR_RETURN(out.post, NamedTrigger(ctx, container, headers::kPostTriggerInclude));
  return out;
}

// A write or delete with its triggers: one transaction (engine/script_execution.h). The
// charge is the operation's and the triggers' runs.
HandlerResult TriggeredWrite(const RequestContext& ctx, engine::Container& container,
                             engine::TriggeredOperation operation, const NamedTriggers& triggers) {
  using Kind = engine::TriggeredOperation::Kind;
  operation.pre_trigger = triggers.pre ? &*triggers.pre : nullptr;
  operation.post_trigger = triggers.post ? &*triggers.post : nullptr;
  operation.alt_link = AltContentPath(container.settings());
  ORRERY_ASSIGN_OR_RETURN(engine::TriggeredRun run, engine::ExecuteTriggered(container, operation));
  if (run.failed) {
    container.ChargeRequest(operation.partition_key, throughput::RoundCharge(run.triggers_charge),
                            ctx.request_class);
    return engine::StatusOfFailedScript(*run.failed);
  }
  const engine::ItemResult& item = run.item;
  const bool replaced =
      operation.kind == Kind::kReplace || (operation.kind == Kind::kUpsert && !item.created);
  const double own = operation.kind == Kind::kDelete
                         ? throughput::DeleteCharge(item.bytes, item.index)
                     : replaced ? throughput::ReplaceCharge(item.bytes, item.index)
                                : throughput::CreateCharge(item.bytes, item.index);
  const double charge = throughput::RoundCharge(own + run.triggers_charge);
  container.ChargeRequest(operation.partition_key, charge, ctx.request_class);
  const int status = operation.kind == Kind::kDelete ? 204 : item.created ? 201 : 200;
  return ItemResponse(ctx, container, status, std::move(run.item), charge);
}

HandlerResult WriteItem(const RequestContext& ctx, engine::Container& container,
                        engine::WriteKind kind) {
  engine::ItemWriteRequest request;
  request.kind = kind;
  ORRERY_ASSIGN_OR_RETURN(request.indexing_directive, IndexingDirective(ctx));
  ORRERY_ASSIGN_OR_RETURN(request.partition_key, PointPartitionKey(ctx, container));
  ORRERY_RETURN_IF_ERROR(container.AdmitRequest(request.partition_key, ctx.request_class));
  request.body = ctx.request.body;
  request.if_match = ctx.OptionalHeader(headers::kIfMatch);
  if (kind == engine::WriteKind::kReplace) {
    request.url_id = ctx.path.segments[5];
  }
  ORRERY_ASSIGN_OR_RETURN(NamedTriggers triggers, NamedTriggersOf(ctx, container));
  if (triggers.any()) {
    using Kind = engine::TriggeredOperation::Kind;
    engine::TriggeredOperation operation;
    operation.kind = kind == engine::WriteKind::kCreate   ? Kind::kCreate
                     : kind == engine::WriteKind::kUpsert ? Kind::kUpsert
                                                          : Kind::kReplace;
    operation.partition_key = request.partition_key;
    operation.id = std::string(request.url_id);
    operation.body = ctx.request.body;
    operation.if_match = request.if_match;
    operation.indexing_directive = request.indexing_directive;
    return TriggeredWrite(ctx, container, std::move(operation), triggers);
  }
  ORRERY_ASSIGN_OR_RETURN(engine::ItemResult item, container.WriteItem(request));
  const bool replaced =
      kind == engine::WriteKind::kReplace || (kind == engine::WriteKind::kUpsert && !item.created);
  double charge = replaced ? throughput::ReplaceCharge(item.bytes, item.index)
                           : throughput::CreateCharge(item.bytes, item.index);
  container.ChargeRequest(request.partition_key, charge, ctx.request_class);
  const int status = item.created ? 201 : 200;
  return ItemResponse(ctx, container, status, std::move(item), charge);
}

// ORDER BY RANK with FullTextScore: the BM25 statistics of the whole container (its
// documents, words and documents holding each term), gathered by the statistics query of
// the ranking before the query runs (rank_plan.h), as the SDKs' hybrid pipeline does
// when it runs the query itself. Returns the charge of reading them.
Result<double> GatherRankStatistics(const engine::Container& container,
                                    query::CompiledQuery& query) {
  const std::string* text = query.rank_statistics_query();
  if (text == nullptr) return 0.0;
  ORRERY_ASSIGN_OR_RETURN(
      std::unique_ptr<query::CompiledQuery> statistics,
      query::Compile(*text, {}, container.computed_properties(), &container.vector_policy(),
                     &container.full_text_policy(), container.coordinate_system()));
  ORRERY_ASSIGN_OR_RETURN(engine::FeedPage page,
                          container.Query(*statistics, container.FullScope(), 1, ""));
  if (page.documents.size() != 1) {
    return Status::Internal("the full-text statistics query gave " +
                            std::to_string(page.documents.size()) + " rows");
  }
  ORRERY_ASSIGN_OR_RETURN(json::Value row, json::Parse(page.documents.front()));
  ORRERY_RETURN_IF_ERROR(query.SetRankStatistics(row));
  return engine::FeedPageCharge(page, 0);
}

HandlerResult QueryItems(const RequestContext& ctx, const engine::Container& container) {
  QueryPageTimes times;
  auto start = std::chrono::steady_clock::now();
  ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<query::CompiledQuery> query,
                          CompileQueryBody(ctx.request.body, &container));
  times.compile_ms = MillisSince(start);
  times.compile = query->compile_timings();
  const bool metrics = ctx.HeaderIsTrue(headers::kPopulateQueryMetrics);
  ORRERY_ASSIGN_OR_RETURN(ItemScope scope, ResolveItemScope(ctx, container));
  if (!scope.has_partition_key && !scope.has_range &&
      container.settings().partitions.partitions().size() > 1 &&
      !ctx.HeaderIsTrue(headers::kEnableCrossPartition)) {
    return Status::BadRequest(
        "Cross partition query is required but disabled. Please set "
        "x-ms-documentdb-query-enablecrosspartition to true, specify "
        "x-ms-documentdb-partitionkey, or revise your query to avoid this exception.");
  }
  ORRERY_ASSIGN_OR_RETURN(int max_items, MaxItemCount(ctx));
  ORRERY_RETURN_IF_ERROR(container.AdmitScope(scope.scope, ctx.request_class));
  ORRERY_ASSIGN_OR_RETURN(const double statistics_charge, GatherRankStatistics(container, *query));
  start = std::chrono::steady_clock::now();
  if (metrics) query::StartFunctionTiming();
  Result<engine::FeedPage> result =
      container.Query(*query, scope.scope, max_items, ContinuationOf(ctx));
  if (metrics) times.function_ms = query::StopFunctionTiming();
  ORRERY_ASSIGN_OR_RETURN(engine::FeedPage page, std::move(result));
  times.execution_ms = MillisSince(start);
  start = std::chrono::steady_clock::now();
  ORRERY_ASSIGN_OR_RETURN(
      const double charge,
      ReadCharge(ctx,
                 engine::FeedPageCharge(page, throughput::kQueryBaseCharge) + statistics_charge));
  container.ChargeScope(scope.scope, charge, ctx.request_class);
  http::Response response = FeedResponse(ctx, container.settings().rid, "Documents", page, charge);
  times.write_ms = MillisSince(start);
  if (metrics) {
    response.headers.push_back(
        {headers::kQueryMetrics, QueryMetricsHeader(page, times, OutputBytes(page))});
  }
  if (ctx.HeaderIsTrue(headers::kPopulateIndexMetricsV2)) {
    response.headers.push_back(
        {headers::kIndexUtilization, IndexMetricsV2(page.index_utilization)});
  } else if (ctx.HeaderIsTrue(headers::kPopulateIndexMetrics)) {
    response.headers.push_back(
        {headers::kIndexUtilization, IndexMetricsV1(page.index_utilization)});
  }
  if (ctx.HeaderIsTrue(headers::kPopulatePartitions)) {
    std::string ids;
    for (const std::string& id : page.touched_partition_ids) ids += (ids.empty() ? "" : ",") + id;
    response.headers.push_back({headers::kPartitionsTouched, ids});
  }
  response.headers.push_back(
      {headers::kSessionToken, ScopeSessionToken(ctx, container, scope.scope)});
  response.headers.push_back({headers::kContentPath, container.settings().rid});
  response.headers.push_back({headers::kAltContentPath, AltContentPath(container.settings())});
  return response;
}

HandlerResult ReadItemFeed(const RequestContext& ctx, const engine::Container& container) {
  if (ctx.Header(headers::kAIm) != nullptr) return HandleChangeFeed(ctx, container);
  ORRERY_ASSIGN_OR_RETURN(ItemScope scope, ResolveItemScope(ctx, container));
  ORRERY_ASSIGN_OR_RETURN(int max_items, MaxItemCount(ctx));
  ORRERY_RETURN_IF_ERROR(container.AdmitScope(scope.scope, ctx.request_class));
  ORRERY_ASSIGN_OR_RETURN(engine::FeedPage page,
                          container.ReadFeed(scope.scope, max_items, ContinuationOf(ctx)));
  ORRERY_ASSIGN_OR_RETURN(
      const double charge,
      ReadCharge(ctx, engine::FeedPageCharge(page, throughput::kMetadataReadCharge)));
  container.ChargeScope(scope.scope, charge, ctx.request_class);
  http::Response response = FeedResponse(ctx, container.settings().rid, "Documents", page, charge);
  response.headers.push_back(
      {headers::kSessionToken, ScopeSessionToken(ctx, container, scope.scope)});
  response.headers.push_back({headers::kContentPath, container.settings().rid});
  response.headers.push_back({headers::kAltContentPath, AltContentPath(container.settings())});
  if (const std::string* range_id = ctx.Header(headers::kPartitionKeyRangeId)) {
    response.headers.push_back({headers::kPartitionKeyRangeId, *range_id});
  }
  return response;
}

// The container the account holds once it reflects the last split: a split's commit
// marks the Container objects of before it stale, then writes, then publishes the one
// it leaves (without holding the account lock across its write), so for a moment the
// account still hands out a stale object. Waits that moment out, up to a second.
Result<std::shared_ptr<engine::Container>> CurrentContainerOf(const RequestContext& ctx) {
  std::shared_ptr<engine::Container> container;
  for (int wait = 0; wait < 1000; ++wait) {
    ORRERY_ASSIGN_OR_RETURN(container, ContainerOf(ctx));
    if (container->partition_map_is_current()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return container;
}

// A split that commits while a query or a feed read runs on the Container object of
// before it drops the parent partition's index and change-feed entries that object
// reads, so its page may lack rows. Such a page is read again from the container as
// the split left it (splits are seconds apart: a few attempts always suffice).
template <typename Read>
HandlerResult ReadOnCurrentPartitions(const RequestContext& ctx,
                                      std::shared_ptr<engine::Container> container, Read read) {
  for (int attempt = 1;; ++attempt) {
    HandlerResult result = read(*container);
    if (container->partition_map_is_current() || attempt == 5) return result;
    ORRERY_ASSIGN_OR_RETURN(container, CurrentContainerOf(ctx));
  }
}

}  // namespace

HandlerResult HandleItemFeed(const RequestContext& ctx) {
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<engine::Container> container, ContainerOf(ctx));
  const std::string& method = ctx.request.method;
  // Reads (the feed, queries and their plans) honour the client's session token.
  const bool plan = ctx.HeaderIsTrue(headers::kIsQueryPlanRequest);
  if (method == "GET" || (method == "POST" && (plan || IsQueryRequest(ctx)))) {
    ORRERY_RETURN_IF_ERROR(CheckSessionToken(ctx, *container));
  }
  if (method == "GET") {
    return ReadOnCurrentPartitions(
        ctx, container, [&](const engine::Container& c) { return ReadItemFeed(ctx, c); });
  }
  if (method != "POST") {
    return Status::MethodNotAllowed("The items feed supports GET and POST.");
  }
  if (plan) {
    return HandleQueryPlan(ctx);
  }
  if (IsQueryRequest(ctx)) {
    return ReadOnCurrentPartitions(ctx, container,
                                   [&](const engine::Container& c) { return QueryItems(ctx, c); });
  }
  if (ctx.HeaderIsTrue(headers::kIsBatchRequest)) {
    return HandleBatch(ctx, *container);
  }
  return WriteItem(ctx, *container,
                   ctx.HeaderIsTrue(headers::kIsUpsert) ? engine::WriteKind::kUpsert
                                                        : engine::WriteKind::kCreate);
}

HandlerResult HandleItem(const RequestContext& ctx) {
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<engine::Container> container, ContainerOf(ctx));
  const std::string& method = ctx.request.method;
  const std::string& id = ctx.path.segments[5];
  if (method == "GET") {
    ORRERY_RETURN_IF_ERROR(CheckSessionToken(ctx, *container));
    ORRERY_ASSIGN_OR_RETURN(partition::PartitionKeyValue key, PointPartitionKey(ctx, *container));
    ORRERY_RETURN_IF_ERROR(container->AdmitRequest(key, ctx.request_class));
    std::optional<std::string> if_none_match = ctx.OptionalHeader(headers::kIfNoneMatch);
    ORRERY_ASSIGN_OR_RETURN(engine::Container::ReadResult read,
                            container->ReadItem(key, id, if_none_match));
    ORRERY_ASSIGN_OR_RETURN(const double charge,
                            ReadCharge(ctx, throughput::PointReadCharge(read.item.bytes)));
    container->ChargeRequest(key, charge, ctx.request_class);
    const int status = read.not_modified ? 304 : 200;
    return ItemResponse(ctx, *container, status, std::move(read.item), charge);
  }
  if (method == "PUT") {
    return WriteItem(ctx, *container, engine::WriteKind::kReplace);
  }
  if (method == "DELETE") {
    ORRERY_ASSIGN_OR_RETURN(partition::PartitionKeyValue key, PointPartitionKey(ctx, *container));
    ORRERY_RETURN_IF_ERROR(container->AdmitRequest(key, ctx.request_class));
    std::optional<std::string> if_match = ctx.OptionalHeader(headers::kIfMatch);
    ORRERY_ASSIGN_OR_RETURN(NamedTriggers triggers, NamedTriggersOf(ctx, *container));
    if (triggers.any()) {
      engine::TriggeredOperation operation;
      operation.kind = engine::TriggeredOperation::Kind::kDelete;
      operation.partition_key = key;
      operation.id = id;
      operation.if_match = if_match;
      return TriggeredWrite(ctx, *container, std::move(operation), triggers);
    }
    ORRERY_ASSIGN_OR_RETURN(engine::ItemResult deleted, container->DeleteItem(key, id, if_match));
    const double charge = throughput::DeleteCharge(deleted.bytes, deleted.index);
    container->ChargeRequest(key, charge, ctx.request_class);
    return ItemResponse(ctx, *container, 204, std::move(deleted), charge);
  }
  if (method == "PATCH") {
    ORRERY_ASSIGN_OR_RETURN(NamedTriggers triggers, NamedTriggersOf(ctx, *container));
    if (triggers.any()) {
      return Status::BadRequest(
          "Orrery runs triggers with creates, upserts, replaces and deletes, not with patch "
          "operations: the patch was not carried out.");
    }
    ORRERY_ASSIGN_OR_RETURN(partition::PartitionKeyValue key, PointPartitionKey(ctx, *container));
    // The JS SDK sends no content type on PATCH: the body is read as JSON whatever it says.
    ORRERY_ASSIGN_OR_RETURN(json::Value body, json::Parse(ctx.request.body));
    ORRERY_ASSIGN_OR_RETURN(engine::PatchRequest patch, engine::ParsePatchRequest(body));
    ORRERY_RETURN_IF_ERROR(container->AdmitRequest(key, ctx.request_class));
    ORRERY_ASSIGN_OR_RETURN(
        engine::ItemResult patched,
        container->PatchItem(key, id, patch, ctx.OptionalHeader(headers::kIfMatch)));
    // Patch is charged as a replace (ru-model.md a.2 row 22).
    const double charge = throughput::ReplaceCharge(patched.bytes, patched.index);
    container->ChargeRequest(key, charge, ctx.request_class);
    return ItemResponse(ctx, *container, 200, std::move(patched), charge);
  }
  return Status::MethodNotAllowed("An item supports GET, PUT, PATCH and DELETE.");
}

}  // namespace orrery::api
