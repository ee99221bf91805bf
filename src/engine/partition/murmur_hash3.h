#pragma once

// MurmurHash3 (Austin Appleby, public domain), the two variants Cosmos DB uses for
// effective partition keys: x86_32 for hash V1 and x64_128 for hash V2 / MultiHash.
// Both are the standard algorithms; inputs are read little-endian as the reference
// implementation does on x86.

#include <cstdint>
#include <string_view>

namespace orrery::partition {

// MurmurHash3_x86_32.
uint32_t MurmurHash3X86_32(std::string_view data, uint32_t seed = 0);

// MurmurHash3_x64_128: h1 and h2 as the reference implementation leaves them; its
// 16-byte output is LE64(h1) ++ LE64(h2).
struct Hash128 {
  uint64_t h1 = 0;
  uint64_t h2 = 0;
};
Hash128 MurmurHash3X64_128(std::string_view data, uint64_t seed = 0);

}  // namespace orrery::partition
