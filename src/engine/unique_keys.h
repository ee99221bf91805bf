#pragma once

// A container's unique key policy: sets of paths whose values, together, must be
// unique among the items of one logical partition (the partition key is implicitly
// part of every unique key). A missing value counts as a value too, so only one item
// of a logical partition may lack a unique path.
//
// Each unique key of an item is an entry in its own key space (docs/storage-format.md)
//   0x12 | container (4, BE) | EPK | 0x00 | key number (1) | the values, encoded
// whose value is the item's id; writers check it and keep it in the item's batch.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "json/value.h"

namespace orrery::engine {

// The service's limits (ru-model.md b.1).
inline constexpr size_t kMaxUniqueKeys = 10;
inline constexpr size_t kMaxUniqueKeyPaths = 16;

class UniqueKeyPolicy {
 public:
  UniqueKeyPolicy() = default;
  // `policy` is the container's uniqueKeyPolicy member (may be null: no unique keys).
  // Errors: BadRequest naming what is wrong.
  static Result<UniqueKeyPolicy> Parse(const json::Value* policy);

  bool empty() const { return keys_.empty(); }

  // The entry keys of `item` in the logical partition `epk`.
  std::vector<std::string> EntryKeys(uint32_t container, std::string_view epk,
                                     const json::Value& item) const;

  // All entries of a container (for dropping it).
  static std::string ContainerBegin(uint32_t container);
  static std::string ContainerEnd(uint32_t container);

 private:
  // Per unique key, its paths, each as member names from the item root.
  std::vector<std::vector<std::vector<std::string>>> keys_;
};

}  // namespace orrery::engine
