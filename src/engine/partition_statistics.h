#pragma once

// Partition statistics, as the portal shows them: per physical partition its EPK
// range, items, bytes, RU consumed and 429s, and its largest logical partitions; per
// container the number of logical partitions. Built from the logical partition sizes
// (container_sizes.cc) and the throughput ledger.

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

Result<ContainerStatistics> StatisticsOf(const Container& container, size_t largest_per_partition);

}  // namespace orrery::engine
