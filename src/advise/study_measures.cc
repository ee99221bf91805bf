#include "advise/study_measures.h"

#include <algorithm>
#include <cmath>

namespace orrery::advise {
namespace {

int64_t QuantileOf(const std::vector<int64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const auto index = static_cast<size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(index, sorted.size() - 1)];
}

}  // namespace

LogicalPartitionMeasure MeasureLogicalSizes(
    const std::vector<engine::Container::LogicalPartitionSize>& sizes,
    const StudyOptions& options) {
  LogicalPartitionMeasure measure;
  std::vector<int64_t> bytes;
  for (const auto& size : sizes) {
    if (size.items <= 0) continue;
    bytes.push_back(size.bytes);
    measure.total_bytes += size.bytes;
    if (size.bytes > measure.largest_bytes) {
      measure.largest_bytes = size.bytes;
      measure.largest_key = size.partition_key;
    }
    const int bucket =
        size.bytes <= 1 ? 0 : static_cast<int>(std::log2(static_cast<double>(size.bytes)));
    if (measure.size_histogram.size() <= static_cast<size_t>(bucket)) {
      measure.size_histogram.resize(static_cast<size_t>(bucket) + 1, 0);
    }
    ++measure.size_histogram[static_cast<size_t>(bucket)];
  }
  std::sort(bytes.begin(), bytes.end());
  measure.count = static_cast<int64_t>(bytes.size());
  measure.median_bytes = QuantileOf(bytes, 0.5);
  measure.p99_bytes = QuantileOf(bytes, 0.99);
  if (measure.total_bytes > 0) {
    measure.largest_share =
        static_cast<double>(measure.largest_bytes) / static_cast<double>(measure.total_bytes);
  }
  measure.projected_largest_bytes = static_cast<double>(measure.largest_bytes) * options.scale;
  if (measure.projected_largest_bytes > 0) {
    measure.growth_to_limit = kLogicalPartitionLimitBytes / measure.projected_largest_bytes;
    if (options.yearly_growth && *options.yearly_growth > 0) {
      measure.years_to_limit =
          measure.growth_to_limit <= 1
              ? 0
              : std::log(measure.growth_to_limit) / std::log(1 + *options.yearly_growth);
    }
  }
  return measure;
}

void AddReplay(const ReplayResult& replay, const std::map<std::string, uint32_t>& numbers,
               double ru_per_second, CandidateResult& result) {
  double total_ru = 0;
  for (const auto& [number, count] : replay.partitions) total_ru += count.request_units;
  for (PhysicalPartitionMeasure& m : result.physical) {
    m.ru_per_second_budget = ru_per_second / static_cast<double>(numbers.size());
    const auto number = numbers.find(m.id);
    if (number == numbers.end()) continue;
    if (auto it = replay.partitions.find(number->second); it != replay.partitions.end()) {
      m.requests = it->second.requests;
      m.throttled = it->second.throttled;
      m.request_units = it->second.request_units;
      m.request_share = total_ru > 0 ? m.request_units / total_ru : 0;
    }
  }
  result.requests_played = replay.requests;
  result.throttled_fraction = replay.requests > 0 ? static_cast<double>(replay.throttled) /
                                                        static_cast<double>(replay.requests)
                                                  : 0;
}

void SummarizeOperations(const std::vector<SampledOperation>& sampled, CandidateResult& result) {
  for (const SampledOperation& op : sampled) {
    result.operations.push_back(op.measure);
    result.mean_ru += op.measure.share * op.measure.ru_median;
    if (op.measure.routing == "fan-out") result.fan_out_share += op.measure.share;
    if (op.measure.routing == "single partition") result.single_partition_share += op.measure.share;
  }
}

double OfferedLoad(const Workload& workload,
                   const std::vector<std::vector<SampledOperation>>& sampled,
                   const std::vector<CandidateResult>& results, double ru_per_second) {
  if (workload.requests_per_second) return *workload.requests_per_second;
  double within_limit = 0, any = 0;
  for (size_t c = 0; c < sampled.size() && c < results.size(); ++c) {
    const double rate = DefaultRequestsPerSecond(sampled[c], ru_per_second);
    any = std::max(any, rate);
    const double growth = results[c].logical.growth_to_limit;
    if (growth == 0 || growth >= 1) within_limit = std::max(within_limit, rate);
  }
  return within_limit > 0 ? within_limit : any;
}

}  // namespace orrery::advise
