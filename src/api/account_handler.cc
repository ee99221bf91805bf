#include "api/data_plane.h"
#include "api/handlers.h"
#include "api/headers.h"
#include "api/response.h"
#include "engine/throughput/cost_model.h"
#include "json/json.h"

namespace orrery::api {
namespace {

// The query limits the service advertises; the JS SDK ignores them, .NET/Java/Python
// parse this JSON-in-a-string (wire-protocol.md §2).
constexpr const char* kQueryEngineConfiguration =
    R"({"maxSqlQueryInputLength":262144,"maxJoinsPerSqlQuery":5,"maxLogicalAndPerSqlQuery":2000,)"
    R"("maxLogicalOrPerSqlQuery":2000,"maxUdfRefPerSqlQuery":10,"maxInExpressionItemsCount":16000,)"
    R"("queryMaxInMemorySortDocumentCount":500,"maxQueryRequestTimeoutFraction":0.9,)"
    R"("sqlAllowNonFiniteNumbers":false,"sqlAllowAggregateFunctions":true,"sqlAllowSubQuery":true,)"
    R"("sqlAllowScalarSubQuery":true,"allowNewKeywords":true,"sqlAllowLike":true,)"
    R"("sqlAllowGroupByClause":true,"maxSpatialQueryCells":12,"spatialMaxGeometryPointCount":256,)"
    R"("sqlDisableOptimizationFlags":0,"sqlAllowTop":true,"enableSpatialIndexing":true})";

json::Value Location(const std::string& url) {
  return json::Value::MakeObject({
      {"name", json::Value::String("South Central US")},
      {"databaseAccountEndpoint", json::Value::String(url)},
  });
}

}  // namespace

HandlerResult HandleAccountRead(const RequestContext& ctx) {
  using json::Value;
  Value body = Value::MakeObject({
      {"_self", Value::String("")},
      // Never "localhost": the SDK would then re-read the account before every call.
      {"id", Value::String("orrery")},
      {"_rid", Value::String("orrery.documents.azure.com")},
      {"media", Value::String("//media/")},
      {"addresses", Value::String("//addresses/")},
      {"_dbs", Value::String("//dbs/")},
      {"writableLocations", Value::MakeArray({Location(ctx.advertised_url)})},
      {"readableLocations", Value::MakeArray({Location(ctx.advertised_url)})},
      {"enableMultipleWriteLocations", Value::Bool(false)},
      {"userReplicationPolicy", Value::MakeObject({{"asyncReplication", Value::Bool(false)},
                                                   {"minReplicaSetSize", Value::Int(1)},
                                                   {"maxReplicasetSize", Value::Int(4)}})},
      {"userConsistencyPolicy",
       Value::MakeObject(
           {{"defaultConsistencyLevel", Value::String(ConsistencyName(ctx.account_consistency))}})},
      {"systemReplicationPolicy", Value::MakeObject({{"minReplicaSetSize", Value::Int(1)},
                                                     {"maxReplicasetSize", Value::Int(4)}})},
      {"readPolicy", Value::MakeObject({{"primaryReadCoefficient", Value::Int(1)},
                                        {"secondaryReadCoefficient", Value::Int(1)}})},
      {"queryEngineConfiguration", Value::String(kQueryEngineConfiguration)},
  });
  ResponseBuilder builder(200, ctx.activity_id);
  builder.Charge(0)
      .Header(headers::kMaxMediaStorageUsageMb, "10240")
      .Header(headers::kMediaStorageUsageMb, "0")
      .JsonBody(json::Write(body));
  return std::move(builder).Build();
}

}  // namespace orrery::api
