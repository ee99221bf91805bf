// Orrery's admin call for a container's throughput (README "Admin calls"): which
// budget each physical partition draws from, the RU it consumed and the 429s it
// answered, and the switch that turns enforcement on or off for this container only.
//   GET /_orrery/dbs/{db}/colls/{c}/throughput
//   PUT /_orrery/dbs/{db}/colls/{c}/throughput   {"enforced": true|false,
//       "throughputBuckets": [{"id": 1, "maxThroughputPercentage": 50}, ...]}
// and the container's partition statistics:
//   GET /_orrery/dbs/{db}/colls/{c}/stats

#include "api/handlers.h"
#include "api/resource_response.h"
#include "api/response.h"
#include "api/statistics_json.h"
#include "engine/throughput/cost_model.h"
#include "json/json.h"

namespace orrery::api {
namespace {

// /_orrery/dbs/{db}/colls/{c}/<what>
bool IsContainerCall(const std::vector<std::string>& s, std::string_view what) {
  return s.size() == 6 && s[1] == "dbs" && s[3] == "colls" && s[5] == what;
}

constexpr size_t kLargestLogicalPartitions = 10;

HandlerResult JsonResponse(const RequestContext& ctx, const json::Value& body) {
  ResponseBuilder builder(200, ctx.activity_id);
  builder.Charge(0).JsonBody(json::Write(body));
  return std::move(builder).Build();
}

HandlerResult Statistics(const RequestContext& ctx) {
  if (ctx.request.method != "GET") {
    return Status::MethodNotAllowed("The statistics admin call supports GET.");
  }
  const auto& s = ctx.path.segments;
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<engine::Container> container,
                          ctx.account.GetContainer(s[2], s[4]));
  ORRERY_ASSIGN_OR_RETURN(engine::ContainerStatistics stats,
                          engine::StatisticsOf(*container, kLargestLogicalPartitions));
  json::Value body = AdminStatisticsJson(stats);
  // What the partitions view draws the largest logical partitions against.
  body.Set(
      "logicalPartitionMaxBytes",
      json::Value::Int(static_cast<int64_t>(container->settings().logical_partition_max_bytes)));
  return JsonResponse(ctx, body);
}

// [{"id": 1, "maxThroughputPercentage": 50}, ...], as the service's control plane takes
// them (ThroughputBucketResource); the account checks the values.
Result<std::vector<throughput::ThroughputBucket>> ParseThroughputBuckets(const json::Value& list) {
  const Status malformed = Status::BadRequest(
      "throughputBuckets must be an array of {\"id\": 1 to 5, \"maxThroughputPercentage\": "
      "above 0 and at most 100}.");
  if (!list.is_array()) return malformed;
  std::vector<throughput::ThroughputBucket> out;
  for (const json::Value& entry : list.as_array()) {
    const json::Value* id = entry.is_object() ? entry.Find("id") : nullptr;
    const json::Value* share = entry.is_object() ? entry.Find("maxThroughputPercentage") : nullptr;
    if (id == nullptr || !id->is_integer() || share == nullptr || !share->is_number()) {
      return malformed;
    }
    out.push_back(throughput::ThroughputBucket{static_cast<int>(id->as_int()), share->as_double()});
  }
  return out;
}

json::Value ThroughputReport(const engine::Container& container) {
  using json::Value;
  const engine::ContainerSettings& s = container.settings();
  Value partitions = Value::MakeArray();
  const std::vector<throughput::PartitionUsage> usage = container.throughput_ledger().Usage();
  for (const engine::PhysicalPartition& p : s.partitions.partitions()) {
    Value entry = Value::MakeObject({
        {"id", Value::String(p.id)},
        {"minInclusive", Value::String(p.min_inclusive)},
        {"maxExclusive", Value::String(p.max_exclusive)},
    });
    for (const throughput::PartitionUsage& u : usage) {
      if (u.partition != p.number) continue;
      entry.Set("ruPerSecond", Value::Double(u.ru_per_second));
      entry.Set("requestCharge", Value::Double(throughput::RoundCharge(u.charged)));
      entry.Set("throttledRequests", Value::Int(u.throttled));
    }
    partitions.as_array().push_back(std::move(entry));
  }
  Value report = Value::MakeObject({
      {"enforced", Value::Bool(container.throughput_ledger().enforced())},
      {"sharedThroughput", Value::Bool(!s.manual_ru_per_second && !s.autoscale_max_ru_per_second)},
      {"partitions", std::move(partitions)},
  });
  Value buckets = Value::MakeArray();
  for (const throughput::ThroughputBucket& b : s.throughput_buckets) {
    buckets.as_array().push_back(Value::MakeObject({
        {"id", Value::Int(b.id)},
        {"maxThroughputPercentage", Value::Double(b.max_percentage)},
    }));
  }
  report.Set("throughputBuckets", std::move(buckets));
  if (s.manual_ru_per_second) report.Set("offerThroughput", Value::Int(*s.manual_ru_per_second));
  if (s.autoscale_max_ru_per_second) {
    report.Set("maxThroughput", Value::Int(*s.autoscale_max_ru_per_second));
  }
  return report;
}

}  // namespace

HandlerResult HandleAdmin(const RequestContext& ctx) {
  const auto& s = ctx.path.segments;
  if (IsContainerCall(s, "stats")) return Statistics(ctx);
  if (!IsContainerCall(s, "throughput")) {
    return Status::NotFound("The admin path '/" + ctx.path.resource_link +
                            "' is not one Orrery serves; see README, Admin calls.");
  }
  const std::string& method = ctx.request.method;
  if (method == "PUT") {
    ORRERY_ASSIGN_OR_RETURN(json::Value body, JsonBody(ctx));
    const json::Value* enforced = body.is_object() ? body.Find("enforced") : nullptr;
    const json::Value* buckets = body.is_object() ? body.Find("throughputBuckets") : nullptr;
    if ((enforced == nullptr && buckets == nullptr) || (enforced && !enforced->is_bool())) {
      return Status::BadRequest(
          "The body must be {\"enforced\": true|false} and/or {\"throughputBuckets\": "
          "[{\"id\": 1, \"maxThroughputPercentage\": 50}, ...]}.");
    }
    if (buckets != nullptr) {
      ORRERY_ASSIGN_OR_RETURN(std::vector<throughput::ThroughputBucket> parsed,
                              ParseThroughputBuckets(*buckets));
      ORRERY_RETURN_IF_ERROR(ctx.account.SetThroughputBuckets(s[2], s[4], std::move(parsed)));
    }
    if (enforced != nullptr) {
      ORRERY_RETURN_IF_ERROR(ctx.account.SetThroughputEnforcement(s[2], s[4], enforced->as_bool()));
    }
  } else if (method != "GET") {
    return Status::MethodNotAllowed("The throughput admin call supports GET and PUT.");
  }
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<engine::Container> container,
                          ctx.account.GetContainer(s[2], s[4]));
  return JsonResponse(ctx, ThroughputReport(*container));
}

}  // namespace orrery::api
