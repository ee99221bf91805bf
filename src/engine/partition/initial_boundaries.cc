// Boundaries of a container's initial physical partitions (pkranges).

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/partition/partition_key.h"

namespace orrery::partition {

namespace {

// V2 EPKs (and each level of a MultiHash EPK) are 128-bit hashes with the top two
// bits cleared, so they lie in [0, 2^126) read as 32 hex digits. Boundary i of n is
// floor(i * 2^126 / n), computed bit by bit as the binary expansion of i / n so that
// no intermediate exceeds 64 bits.
std::string V2Boundary(int64_t i, int64_t n) {
  uint64_t high = 0;  // bits 127..64
  uint64_t low = 0;   // bits 63..0
  int64_t remainder = i;
  for (int bit = 125; bit >= 0; --bit) {
    remainder *= 2;
    if (remainder >= n) {
      remainder -= n;
      if (bit >= 64) {
        high |= uint64_t{1} << (bit - 64);
      } else {
        low |= uint64_t{1} << bit;
      }
    }
  }
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string hex;
  for (const uint64_t word : {high, low}) {
    for (int shift = 60; shift >= 0; shift -= 4) {
      hex.push_back(kDigits[(word >> shift) & 0xF]);
    }
  }
  return hex;
}

}  // namespace

std::vector<std::string> InitialBoundaries(const PartitionKeyDefinition& definition, int n) {
  const bool v2_space = definition.is_hierarchical() || definition.version == 2;
  const int64_t ranges = std::max(n, 1);
  std::vector<std::string> boundaries;
  boundaries.reserve(static_cast<size_t>(ranges) + 1);
  boundaries.emplace_back();
  for (int64_t i = 1; i < ranges; ++i) {
    boundaries.push_back(
        v2_space ? V2Boundary(i, ranges)
                 : V1HashPrefix(static_cast<uint32_t>(i * int64_t{0xFFFFFFFF} / ranges)));
  }
  boundaries.emplace_back("FF");
  return boundaries;
}

}  // namespace orrery::partition
