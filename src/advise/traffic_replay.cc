#include "advise/traffic_replay.h"

#include <algorithm>
#include <chrono>

#include "advise/random.h"
#include "engine/throughput/throughput_ledger.h"

namespace orrery::advise {
namespace {

// Enough requests for the shares to show, few enough to stay well under a second.
constexpr double kMaxRequests = 200000;
constexpr double kSecondsPlayed = 30;

double MeanCharge(const std::vector<SampledOperation>& operations) {
  double mean = 0;
  for (const SampledOperation& op : operations) {
    double sum = 0;
    for (const OperationSample& sample : op.samples) sum += sample.request_units;
    if (!op.samples.empty())
      mean += op.measure.share * sum / static_cast<double>(op.samples.size());
  }
  return mean;
}

const SampledOperation& PickOperation(const std::vector<SampledOperation>& operations, double u) {
  for (const SampledOperation& op : operations) {
    if (u < op.measure.share) return op;
    u -= op.measure.share;
  }
  return operations.back();
}

}  // namespace

double DefaultRequestsPerSecond(const std::vector<SampledOperation>& operations,
                                double ru_per_second) {
  const double mean = MeanCharge(operations);
  return mean > 0 ? 0.8 * ru_per_second / mean : 0;
}

ReplayResult ReplayTraffic(const std::vector<SampledOperation>& operations,
                           const std::vector<uint32_t>& partitions, double ru_per_second,
                           double requests_per_second, uint64_t seed) {
  ReplayResult result;
  result.requests_per_second = requests_per_second;
  if (operations.empty() || requests_per_second <= 0 || partitions.empty()) return result;
  result.seconds = std::min(kSecondsPlayed, kMaxRequests / requests_per_second);
  const auto total = static_cast<int64_t>(result.seconds * requests_per_second);
  throughput::ThroughputLedger ledger;
  const throughput::ThroughputLedger::TimePoint start{};
  ledger.Provision(partitions, ru_per_second, start);
  ledger.SetEnforced(true);
  Random draw(seed);
  for (int64_t k = 0; k < total; ++k) {
    const auto now = start + std::chrono::nanoseconds(static_cast<int64_t>(
                                 1e9 * static_cast<double>(k) / requests_per_second));
    const SampledOperation& op = PickOperation(operations, draw.Unit());
    if (op.samples.empty()) continue;
    const auto which = static_cast<size_t>(draw.Unit() * static_cast<double>(op.samples.size()));
    const OperationSample& sample = op.samples[std::min(which, op.samples.size() - 1)];
    bool throttled = false;
    for (const auto& [partition, charge] : sample.partitions) {
      ReplayCount& count = result.partitions[partition];
      ++count.requests;
      if (ledger.Admit(partition, now)) {
        ++count.throttled;
        throttled = true;
        continue;
      }
      ledger.Charge(partition, charge, now);
      count.request_units += charge;
    }
    ++result.requests;
    if (throttled) ++result.throttled;
  }
  return result;
}

}  // namespace orrery::advise
