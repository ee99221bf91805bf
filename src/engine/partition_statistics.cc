#include "engine/partition_statistics.h"

#include <algorithm>

namespace orrery::engine {

Result<ContainerStatistics> StatisticsOf(const Container& container, size_t largest_per_partition) {
  ContainerStatistics out;
  const PartitionMap& map = container.settings().partitions;
  for (const PhysicalPartition& p : map.partitions()) {
    out.partitions.push_back(PhysicalPartitionStatistics{.partition = p});
  }
  const auto index_of = [&](uint32_t number) -> PhysicalPartitionStatistics* {
    for (auto& s : out.partitions) {
      if (s.partition.number == number) return &s;
    }
    return nullptr;
  };
  ORRERY_ASSIGN_OR_RETURN(std::vector<Container::LogicalPartitionSize> sizes,
                          container.LogicalPartitionSizes());
  for (Container::LogicalPartitionSize& size : sizes) {
    PhysicalPartitionStatistics* s = index_of(map.Owner(size.epk).number);
    if (s == nullptr) continue;
    s->items += size.items;
    s->bytes += size.bytes;
    ++s->logical_partitions;
    s->largest.push_back(std::move(size));
  }
  for (PhysicalPartitionStatistics& s : out.partitions) {
    const size_t keep = std::min(largest_per_partition, s.largest.size());
    std::partial_sort(s.largest.begin(), s.largest.begin() + static_cast<std::ptrdiff_t>(keep),
                      s.largest.end(),
                      [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
    s.largest.resize(keep);
    out.items += s.items;
    out.bytes += s.bytes;
    out.logical_partitions += s.logical_partitions;
  }
  for (const throughput::PartitionUsage& u : container.throughput_ledger().Usage()) {
    if (PhysicalPartitionStatistics* s = index_of(u.partition)) {
      s->ru_per_second = u.ru_per_second;
      s->request_charge = u.charged;
      s->throttled_requests = u.throttled;
    }
  }
  return out;
}

}  // namespace orrery::engine
