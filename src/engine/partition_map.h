#pragma once

// The physical partitions of a container: contiguous, non-overlapping EPK ranges
// covering "" .. "FF", and the partitions that split into them (retired: their ids
// still resolve to their ranges, which their descendants now cover). Immutable once
// built; shared by readers.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.h"

namespace orrery::engine {

struct PhysicalPartition {
  std::string id;             // the pkrange id the SDK sees ("0", "1", ...)
  uint32_t number = 0;        // numeric form of id, for rids
  std::string min_inclusive;  // "" for the first
  std::string max_exclusive;  // "FF" for the last
  std::vector<std::string> parents;

  bool Contains(std::string_view epk) const {
    return min_inclusive <= epk && (max_exclusive == "FF" || epk < max_exclusive);
  }
};

// An EPK interval [min, max) used to restrict reads; max "FF" means the end.
struct EpkRange {
  std::string min = "";
  std::string max = "FF";
  bool empty() const { return max != "FF" && min >= max; }
};
EpkRange Intersect(const EpkRange& a, const EpkRange& b);

class PartitionMap {
 public:
  PartitionMap() = default;
  explicit PartitionMap(std::vector<PhysicalPartition> partitions,
                        std::vector<PhysicalPartition> retired = {});
  // n equal ranges over the given boundaries (n + 1 strings, "" .. "FF").
  static PartitionMap FromBoundaries(const std::vector<std::string>& boundaries);

  const std::vector<PhysicalPartition>& partitions() const { return partitions_; }
  // The partition owning epk. REQUIRES: the map covers the key space.
  const PhysicalPartition& Owner(std::string_view epk) const;
  // A live or a retired partition.
  const PhysicalPartition* FindById(std::string_view id) const;
  const std::vector<PhysicalPartition>& retired() const { return retired_; }
  // The number the next new partition gets: one past every number used so far.
  uint32_t NextNumber() const;
  // `number` split at `at` (strictly inside its range) into two new partitions, numbered
  // `left` (below `at`) and `right`, each with its parent's parents plus the parent;
  // the parent is retired. REQUIRES: `number` is live.
  PartitionMap Split(uint32_t number, const std::string& at, uint32_t left, uint32_t right) const;
  // How many partitions overlap the range, and their ids in EPK order.
  int CountOverlapping(const EpkRange& range) const;
  std::vector<std::string> OverlappingIds(const EpkRange& range) const;

  json::Value ToJson() const;
  static std::optional<PartitionMap> FromJson(const json::Value& value);

 private:
  std::vector<PhysicalPartition> partitions_;
  std::vector<PhysicalPartition> retired_;
};

}  // namespace orrery::engine
