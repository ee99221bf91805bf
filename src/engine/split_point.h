#pragma once

// Where a physical partition splits (account_split.cc, and orrery advise's splits ahead
// of loading): at the logical partition that halves its bytes, or (no data to halve: a
// split for throughput) in the middle of its range. Empty when it cannot split (one
// logical partition holds more than half of it, and nothing else). `sizes` in EPK order.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/container.h"
#include "engine/partition_map.h"

namespace orrery::engine {

std::string SplitPoint(const PhysicalPartition& p,
                       const std::vector<Container::LogicalPartitionSize>& sizes);

// Each partition with the bytes of its logical partitions, the fullest first: the order
// in which the splitter considers them.
std::vector<std::pair<int64_t, const PhysicalPartition*>> PartitionsByBytes(
    const std::vector<PhysicalPartition>& partitions,
    const std::vector<Container::LogicalPartitionSize>& sizes);

}  // namespace orrery::engine
