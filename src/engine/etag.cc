#include "engine/etag.h"

#include <atomic>
#include <chrono>

#include "common/crypto.h"

namespace orrery::engine {

std::string NewEtag() {
  static const uint64_t boot_bits = RandomU64() & 0xFFFF;
  static std::atomic<uint64_t> counter{
      static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count())};
  uint64_t n = counter.fetch_add(1, std::memory_order_relaxed) & 0xFFFFFFFFFFFFull;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"00000000-0000-0000-";
  for (int i = 3; i >= 0; --i) out += kHex[(boot_bits >> (4 * i)) & 0xF];
  out += '-';
  for (int i = 11; i >= 0; --i) out += kHex[(n >> (4 * i)) & 0xF];
  out += '"';
  return out;
}

}  // namespace orrery::engine
