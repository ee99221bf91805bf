#include "api/data_plane.h"
#include "api/handlers.h"
#include "api/headers.h"
#include "api/response.h"
#include "engine/throughput/cost_model.h"
#include "json/json.h"
#include "query/limits.h"

namespace orrery::api {
namespace {

// The query limits the service advertises; the JS SDK ignores them, .NET/Java/Python
// parse this JSON-in-a-string (wire-protocol.md §2). Each limit here is the one the
// parser enforces (query/limits.h); Orrery sets none on the number of ANDs and ORs (long
// runs evaluate as balanced trees), so it advertises none, as some real accounts do.
// UDFs are not supported at all, so "at most 10 per query" holds.
constexpr std::string_view kQueryEngineConfigurationTail =
    R"("maxUdfRefPerSqlQuery":10,"queryMaxInMemorySortDocumentCount":500,"maxQueryRequestTimeoutFraction":0.9,)"
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

std::string QueryEngineConfiguration() {
  return R"({"maxSqlQueryInputLength":)" + std::to_string(query::kMaxQueryCharacters) +
         R"(,"maxJoinsPerSqlQuery":)" + std::to_string(query::kMaxJoins) +
         R"(,"maxInExpressionItemsCount":)" + std::to_string(query::kMaxInListItems) + "," +
         std::string(kQueryEngineConfigurationTail);
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
      {"queryEngineConfiguration", Value::String(QueryEngineConfiguration())},
  });
  ResponseBuilder builder(200, ctx.activity_id);
  builder.Charge(0)
      .Header(headers::kMaxMediaStorageUsageMb, "10240")
      .Header(headers::kMediaStorageUsageMb, "0")
      .JsonBody(json::Write(body));
  return std::move(builder).Build();
}

}  // namespace orrery::api
