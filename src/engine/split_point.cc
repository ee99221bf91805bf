#include "engine/split_point.h"

#include <algorithm>

namespace orrery::engine {
namespace {

__extension__ typedef unsigned __int128 Uint128;

// V2 and MultiHash EPKs lie in [0, 2^126) read as 32 hex digits ("FF": the end).
Uint128 EpkNumber(const std::string& epk) {
  if (epk == "FF") return static_cast<Uint128>(1) << 126;
  Uint128 n = 0;
  for (size_t i = 0; i < 32; ++i) {
    const char c = i < epk.size() ? epk[i] : '0';
    n = n * 16 + static_cast<unsigned>(c <= '9' ? c - '0' : c - 'A' + 10);
  }
  return n;
}

std::string EpkOfNumber(Uint128 n) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string hex(32, '0');
  for (int i = 31; i >= 0; --i) {
    hex[static_cast<size_t>(i)] = kDigits[static_cast<unsigned>(n & 15)];
    n >>= 4;
  }
  return hex;
}

}  // namespace

std::string SplitPoint(const PhysicalPartition& p,
                       const std::vector<Container::LogicalPartitionSize>& sizes) {
  std::vector<const Container::LogicalPartitionSize*> inside;
  int64_t total = 0;
  for (const auto& s : sizes) {
    if (!p.Contains(s.epk)) continue;
    inside.push_back(&s);
    total += s.bytes;
  }
  if (inside.size() >= 2) {
    int64_t below = 0;
    for (size_t i = 0; i + 1 < inside.size(); ++i) {
      below += inside[i]->bytes;
      if (2 * below >= total) return inside[i + 1]->epk;
    }
    return inside.back()->epk;
  }
  if (!inside.empty()) return "";  // one logical partition cannot be split
  const Uint128 low = EpkNumber(p.min_inclusive);
  const Uint128 high = EpkNumber(p.max_exclusive);
  if (high - low < 2) return "";
  return EpkOfNumber(low + (high - low) / 2);
}

std::vector<std::pair<int64_t, const PhysicalPartition*>> PartitionsByBytes(
    const std::vector<PhysicalPartition>& partitions,
    const std::vector<Container::LogicalPartitionSize>& sizes) {
  std::vector<std::pair<int64_t, const PhysicalPartition*>> by_bytes;
  for (const PhysicalPartition& p : partitions) {
    int64_t bytes = 0;
    for (const auto& size : sizes) {
      if (p.Contains(size.epk)) bytes += size.bytes;
    }
    by_bytes.emplace_back(bytes, &p);
  }
  std::stable_sort(by_bytes.begin(), by_bytes.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  return by_bytes;
}

}  // namespace orrery::engine
