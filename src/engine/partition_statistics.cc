#include "engine/partition_statistics.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>

namespace orrery::engine {

namespace {

// Statistics that took at least this long to read are kept, and served again for as
// long as reading them took times kReuseFactor: 1,000,000 logical partitions (about
// 0.6 s) are reread at most every 12 s; containers with fewer than about 100,000 are
// read afresh each time.
std::atomic<int64_t> worth_keeping_ns{
    std::chrono::nanoseconds(std::chrono::milliseconds(50)).count()};
std::atomic<int> reuse_factor{20};
// Kept with this many largest logical partitions per physical partition; asked for more,
// the statistics are read afresh.
constexpr size_t kKeptLargest = 10;

PhysicalPartitionStatistics* PartitionNumbered(ContainerStatistics& statistics, uint32_t number) {
  for (PhysicalPartitionStatistics& s : statistics.partitions) {
    if (s.partition.number == number) return &s;
  }
  return nullptr;
}

// The sizes part: items, bytes and logical partitions per physical partition.
Result<ContainerStatistics> ReadSizes(const Container& container, size_t largest_per_partition) {
  ContainerStatistics out;
  const PartitionMap& map = container.settings().partitions;
  for (const PhysicalPartition& p : map.partitions()) {
    out.partitions.push_back(PhysicalPartitionStatistics{.partition = p});
  }
  ORRERY_ASSIGN_OR_RETURN(std::vector<Container::LogicalPartitionSize> sizes,
                          container.LogicalPartitionSizes());
  for (Container::LogicalPartitionSize& size : sizes) {
    PhysicalPartitionStatistics* s = PartitionNumbered(out, map.Owner(size.epk).number);
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
  return out;
}

bool SamePartitions(const ContainerStatistics& kept, const PartitionMap& map) {
  if (kept.partitions.size() != map.partitions().size()) return false;
  for (size_t i = 0; i < kept.partitions.size(); ++i) {
    if (kept.partitions[i].partition.id != map.partitions()[i].id) return false;
  }
  return true;
}

// The kept statistics, if they may still be served for this container's map.
std::shared_ptr<const ContainerStatistics> Kept(const Container& container,
                                                size_t largest_per_partition) {
  if (largest_per_partition > kKeptLargest) return nullptr;
  ContainerWriteState::KeptStatistics& kept = container.write_state()->kept_statistics;
  const std::lock_guard lock(kept.mutex);
  if (kept.statistics == nullptr ||
      std::chrono::steady_clock::now() - kept.read_at >= kept.reading_took * reuse_factor.load() ||
      !SamePartitions(*kept.statistics, container.settings().partitions)) {
    return nullptr;
  }
  return kept.statistics;
}

}  // namespace

void SetStatisticsKeeping(StatisticsKeeping keeping) {
  worth_keeping_ns.store(keeping.worth_keeping.count());
  reuse_factor.store(keeping.reuse_factor);
}

StatisticsKeeping DefaultStatisticsKeeping() { return {std::chrono::milliseconds(50), 20}; }

Result<ContainerStatistics> StatisticsOf(const Container& container, size_t largest_per_partition) {
  ContainerStatistics out;
  if (std::shared_ptr<const ContainerStatistics> kept = Kept(container, largest_per_partition)) {
    out = *kept;
  } else {
    const auto started = std::chrono::steady_clock::now();
    ORRERY_ASSIGN_OR_RETURN(out,
                            ReadSizes(container, std::max(largest_per_partition, kKeptLargest)));
    const auto took = std::chrono::steady_clock::now() - started;
    if (took >= std::chrono::nanoseconds(worth_keeping_ns.load())) {
      ContainerWriteState::KeptStatistics& keep = container.write_state()->kept_statistics;
      const std::lock_guard lock(keep.mutex);
      keep.statistics = std::make_shared<const ContainerStatistics>(out);
      keep.read_at = started + took;
      keep.reading_took = took;
    }
  }
  for (PhysicalPartitionStatistics& s : out.partitions) {
    if (s.largest.size() > largest_per_partition) s.largest.resize(largest_per_partition);
  }
  // Request units and 429s are counted in memory: always current.
  for (const throughput::PartitionUsage& u : container.throughput_ledger().Usage()) {
    if (PhysicalPartitionStatistics* s = PartitionNumbered(out, u.partition)) {
      s->ru_per_second = u.ru_per_second;
      s->request_charge = u.charged;
      s->throttled_requests = u.throttled;
    }
  }
  return out;
}

}  // namespace orrery::engine
