#include <cmath>

#include "advise/reports.h"

namespace orrery::advise {
namespace {

using json::Value;

Value Number(double d) {
  if (!std::isfinite(d)) return Value::Null();
  // Three decimals are all a reader can use, and they keep the JSON short.
  return Value::Double(std::round(d * 1000) / 1000);
}
Value Whole(int64_t n) { return Value::Int(n); }

Value Strings(const std::vector<std::string>& strings) {
  json::Array array;
  for (const std::string& s : strings) array.push_back(Value::String(s));
  return Value::MakeArray(std::move(array));
}

Value LogicalJson(const LogicalPartitionMeasure& m) {
  json::Array histogram;
  for (size_t i = 0; i < m.size_histogram.size(); ++i) {
    if (m.size_histogram[i] == 0) continue;
    histogram.push_back(Value::MakeObject({{"minBytes", Whole(int64_t{1} << i)},
                                           {"maxBytes", Whole(int64_t{1} << (i + 1))},
                                           {"count", Whole(m.size_histogram[i])}}));
  }
  Value out = Value::MakeObject({{"count", Whole(m.count)},
                                 {"totalBytes", Whole(m.total_bytes)},
                                 {"medianBytes", Whole(m.median_bytes)},
                                 {"p99Bytes", Whole(m.p99_bytes)},
                                 {"largestBytes", Whole(m.largest_bytes)},
                                 {"largestKey", Value::String(m.largest_key)},
                                 {"largestShare", Number(m.largest_share)},
                                 {"projectedLargestBytes", Number(m.projected_largest_bytes)},
                                 {"limitBytes", Number(kLogicalPartitionLimitBytes)},
                                 {"growthToLimit", Number(m.growth_to_limit)},
                                 {"sizeHistogram", Value::MakeArray(std::move(histogram))}});
  if (m.years_to_limit) out.Set("yearsToLimit", Number(*m.years_to_limit));
  return out;
}

Value PhysicalJson(const PhysicalPartitionMeasure& p) {
  return Value::MakeObject(
      {{"id", Value::String(p.id)},
       {"minEpk", Value::String(p.min_epk)},
       {"maxEpk", Value::String(p.max_epk)},
       {"items", Whole(p.items)},
       {"bytes", Whole(p.bytes)},
       {"storageShare", Number(p.storage_share)},
       {"projectedBytes", Number(p.projected_bytes)},
       {"ruPerSecond", Number(p.ru_per_second_budget)},
       {"requestUnits", Number(p.request_units)},
       {"requestShare", Number(p.request_share)},
       {"requests", Whole(p.requests)},
       {"throttled", Whole(p.throttled)},
       {"throttledFraction",
        Number(p.requests > 0 ? static_cast<double>(p.throttled) / static_cast<double>(p.requests)
                              : 0)}});
}

Value OperationJson(const OperationMeasure& op) {
  return Value::MakeObject({{"name", Value::String(op.name)},
                            {"kind", Value::String(KindName(op.kind))},
                            {"share", Number(op.share)},
                            {"routing", Value::String(op.routing)},
                            {"partitionsTouched", Number(op.partitions_touched)},
                            {"ruMedian", Number(op.ru_median)},
                            {"ruP99", Number(op.ru_p99)},
                            {"samples", Whole(op.samples)}});
}

Value CandidateJson(const CandidateResult& c, size_t rank) {
  json::Array physical, operations;
  for (const auto& p : c.physical) physical.push_back(PhysicalJson(p));
  for (const auto& op : c.operations) operations.push_back(OperationJson(op));
  const char* kind = !c.candidate.synthetic_of().empty() ? "synthetic"
                     : c.candidate.hierarchical()        ? "hierarchical"
                                                         : "single";
  Value out = Value::MakeObject({{"rank", Whole(static_cast<int64_t>(rank))},
                                 {"partitionKey", Strings(c.candidate.paths())},
                                 {"label", Value::String(c.candidate.label())},
                                 {"kind", Value::String(kind)}});
  if (!c.candidate.synthetic_of().empty())
    out.Set("syntheticOf", Strings(c.candidate.synthetic_of()));
  out.Set("score", Number(c.score));
  out.Set("exceedsLogicalPartitionLimit", Value::Bool(c.exceeds_limit));
  out.Set("reasons", Strings(c.reasons));
  out.Set("meanRequestUnits", Number(c.mean_ru));
  out.Set("fanOutShare", Number(c.fan_out_share));
  out.Set("singlePartitionShare", Number(c.single_partition_share));
  out.Set("throttledFraction", Number(c.throttled_fraction));
  out.Set("requestsPlayed", Whole(c.requests_played));
  out.Set("itemsLoaded", Whole(c.items_loaded));
  out.Set("itemsRefused", Whole(c.items_refused));
  out.Set("initialPartitions", Whole(c.initial_partitions));
  out.Set("splits", Whole(c.splits));
  out.Set("logicalPartitions", LogicalJson(c.logical));
  out.Set("physicalPartitions", Value::MakeArray(std::move(physical)));
  out.Set("operations", Value::MakeArray(std::move(operations)));
  return out;
}

}  // namespace

json::Value StudyJson(const StudyResult& study) {
  json::Array ranking;
  for (size_t i = 0; i < study.ranking.size(); ++i) {
    ranking.push_back(CandidateJson(study.ranking[i], i + 1));
  }
  return Value::MakeObject({{"study", Value::String(study.name)},
                            {"items", Whole(static_cast<int64_t>(study.items))},
                            {"scale", Number(study.scale)},
                            {"throughput", Whole(study.throughput)},
                            {"autoscale", Value::Bool(study.autoscale)},
                            {"requestsPerSecond", Number(study.requests_per_second)},
                            {"secondsPlayed", Number(study.seconds_played)},
                            {"partitionsAtScale", Value::Bool(study.partitions_at_scale)},
                            {"indexingPolicy", study.indexing_policy.value_or(Value::Null())},
                            {"ranking", Value::MakeArray(std::move(ranking))}});
}

}  // namespace orrery::advise
