#pragma once

// Counters kept by the store itself: a value of two signed 64-bit numbers (an item
// count and a byte count) and an optional label, to which writes add deltas without
// reading it first (a RocksDB merge operator), so concurrent writers never lose an
// update. Used for the sizes of logical partitions.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace orrery::storage {

struct Counter {
  int64_t count = 0;
  int64_t bytes = 0;
  std::string label;  // the latest non-empty label added
};

// The operand WriteBatch::AddToCounter writes, and the stored form.
std::string EncodeCounter(const Counter& counter);
// nullopt when `value` is not a counter.
std::optional<Counter> DecodeCounter(std::string_view value);

}  // namespace orrery::storage
