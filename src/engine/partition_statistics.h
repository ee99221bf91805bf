#pragma once

// Partition statistics, as the portal shows them: per physical partition its EPK
// range, items, bytes, RU consumed and 429s, and its largest logical partitions; per
// container the number of logical partitions. Built from the logical partition sizes
// (container_sizes.cc) and the throughput ledger.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "engine/container.h"

namespace orrery::engine {

struct PhysicalPartitionStatistics {
  PhysicalPartition partition;
  int64_t items = 0;
  int64_t bytes = 0;
  int64_t logical_partitions = 0;
  // The largest first, at most the number asked for.
  std::vector<Container::LogicalPartitionSize> largest;
  double ru_per_second = 0;
  double request_charge = 0;
  int64_t throttled_requests = 0;
};

struct ContainerStatistics {
  int64_t items = 0;
  int64_t bytes = 0;
  int64_t logical_partitions = 0;
  std::vector<PhysicalPartitionStatistics> partitions;
};

// Reading every logical partition's size is kept and served again when it was slow
// (container.h, KeptStatistics); the request units and 429s are always current.
Result<ContainerStatistics> StatisticsOf(const Container& container, size_t largest_per_partition);

// When statistics are kept: read in at least `worth_keeping`, for `reuse_factor` times as
// long as the reading took. The defaults: 50 ms, 20 times. For tests.
struct StatisticsKeeping {
  std::chrono::nanoseconds worth_keeping;
  int reuse_factor;
};
void SetStatisticsKeeping(StatisticsKeeping keeping);
StatisticsKeeping DefaultStatisticsKeeping();

}  // namespace orrery::engine
