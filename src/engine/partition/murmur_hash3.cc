#include "engine/partition/murmur_hash3.h"

#include <cstddef>

namespace orrery::partition {

namespace {

uint32_t Rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
uint64_t Rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

uint32_t Fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bU;
  h ^= h >> 13;
  h *= 0xc2b2ae35U;
  h ^= h >> 16;
  return h;
}

uint64_t Fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

// Reads n <= 8 bytes little-endian, independent of host byte order.
uint64_t LoadLittleEndian(const unsigned char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    v |= static_cast<uint64_t>(p[i]) << (8 * i);
  }
  return v;
}

}  // namespace

uint32_t MurmurHash3X86_32(std::string_view data, uint32_t seed) {
  constexpr uint32_t kC1 = 0xcc9e2d51U;
  constexpr uint32_t kC2 = 0x1b873593U;
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  const size_t len = data.size();
  const size_t blocks = len / 4;

  uint32_t h1 = seed;
  for (size_t i = 0; i < blocks; ++i) {
    auto k1 = static_cast<uint32_t>(LoadLittleEndian(bytes + i * 4, 4));
    k1 *= kC1;
    k1 = Rotl32(k1, 15);
    k1 *= kC2;
    h1 ^= k1;
    h1 = Rotl32(h1, 13);
    h1 = h1 * 5 + 0xe6546b64U;
  }

  const size_t tail = len & 3;
  if (tail != 0) {
    auto k1 = static_cast<uint32_t>(LoadLittleEndian(bytes + blocks * 4, tail));
    k1 *= kC1;
    k1 = Rotl32(k1, 15);
    k1 *= kC2;
    h1 ^= k1;
  }

  h1 ^= static_cast<uint32_t>(len);
  return Fmix32(h1);
}

Hash128 MurmurHash3X64_128(std::string_view data, uint64_t seed) {
  constexpr uint64_t kC1 = 0x87c37b91114253d5ULL;
  constexpr uint64_t kC2 = 0x4cf5ad432745937fULL;
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  const size_t len = data.size();
  const size_t blocks = len / 16;

  uint64_t h1 = seed;
  uint64_t h2 = seed;
  for (size_t i = 0; i < blocks; ++i) {
    uint64_t k1 = LoadLittleEndian(bytes + i * 16, 8);
    uint64_t k2 = LoadLittleEndian(bytes + i * 16 + 8, 8);

    k1 *= kC1;
    k1 = Rotl64(k1, 31);
    k1 *= kC2;
    h1 ^= k1;
    h1 = Rotl64(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;

    k2 *= kC2;
    k2 = Rotl64(k2, 33);
    k2 *= kC1;
    h2 ^= k2;
    h2 = Rotl64(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
  }

  const unsigned char* tail = bytes + blocks * 16;
  const size_t tail_len = len & 15;
  if (tail_len > 8) {
    uint64_t k2 = LoadLittleEndian(tail + 8, tail_len - 8);
    k2 *= kC2;
    k2 = Rotl64(k2, 33);
    k2 *= kC1;
    h2 ^= k2;
  }
  if (tail_len > 0) {
    uint64_t k1 = LoadLittleEndian(tail, tail_len < 8 ? tail_len : 8);
    k1 *= kC1;
    k1 = Rotl64(k1, 31);
    k1 *= kC2;
    h1 ^= k1;
  }

  h1 ^= static_cast<uint64_t>(len);
  h2 ^= static_cast<uint64_t>(len);
  h1 += h2;
  h2 += h1;
  h1 = Fmix64(h1);
  h2 = Fmix64(h2);
  h1 += h2;
  h2 += h1;
  return {h1, h2};
}

}  // namespace orrery::partition
