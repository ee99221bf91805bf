#pragma once

// The workload played at production rate through the engine's own throttling
// (throughput/throughput_ledger.h) on a simulated clock: requests evenly spaced, each an
// operation drawn by share and one of its measured runs; a run over several partitions
// is one request per partition, as an SDK sends them, each admitted or throttled by its
// partition's budget (provisioned RU/s divided among the partitions). No retries: what
// is counted is the share of requests the service would answer 429.

#include <cstdint>
#include <map>
#include <vector>

#include "advise/operation_samples.h"

namespace orrery::advise {

struct ReplayCount {
  int64_t requests = 0;
  int64_t throttled = 0;
  double request_units = 0;  // of the requests admitted
};

struct ReplayResult {
  double requests_per_second = 0;
  double seconds = 0;
  int64_t requests = 0;   // workload requests (a fan-out query is one)
  int64_t throttled = 0;  // of them, those with at least one partition request throttled
  std::map<uint32_t, ReplayCount> partitions;
};

// The default offered load: what spends 80% of `ru_per_second` on average, so that an
// evenly spread key is not throttled and a skewed one is.
double DefaultRequestsPerSecond(const std::vector<SampledOperation>& operations,
                                double ru_per_second);

ReplayResult ReplayTraffic(const std::vector<SampledOperation>& operations,
                           const std::vector<uint32_t>& partitions, double ru_per_second,
                           double requests_per_second, uint64_t seed);

}  // namespace orrery::advise
