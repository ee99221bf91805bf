#include "advise/load_order.h"

#include <algorithm>
#include <functional>
#include <tuple>

#include "common/encoding.h"

namespace orrery::advise {
namespace {

// A level of a V2 hash is 32 hex digits (engine/partition/effective_partition_key.h).
constexpr size_t kLevelDigits = 32;

// The first 16 digits of a hex string as a number (missing digits as 0).
uint64_t HexPrefix(std::string_view hex) {
  uint64_t value = 0;
  for (size_t i = 0; i < 16; ++i) {
    const int digit = i < hex.size() ? HexValue(hex[i]) : 0;
    value = (value << 4) | static_cast<uint64_t>(std::max(digit, 0));
  }
  return value;
}

}  // namespace

std::pair<size_t, size_t> LoadOrder::Stretch(int thread, int threads) const {
  const size_t n = items.size();
  const auto at = [&](int t) { return n * static_cast<size_t>(t) / static_cast<size_t>(threads); };
  return {at(thread), at(thread + 1)};
}

void LoadOrderBuilder::Add(std::string_view epk, std::string_view id, uint32_t item) {
  Slot slot;
  slot.first = HexPrefix(epk);
  slot.second = HexPrefix(epk.size() > kLevelDigits ? epk.substr(kLevelDigits) : "");
  slot.item = item;
  // A clash of different (EPK, id) pairs only costs those items the engine's look-up.
  const size_t epk_hash = std::hash<std::string_view>{}(epk);
  slot.identity = epk_hash ^ (std::hash<std::string_view>{}(id) + 0x9e3779b97f4a7c15ULL +
                              (epk_hash << 6) + (epk_hash >> 2));
  slots_.push_back(slot);
}

void LoadOrderBuilder::Merge(LoadOrderBuilder&& other) {
  slots_.insert(slots_.end(), other.slots_.begin(), other.slots_.end());
  std::vector<Slot>().swap(other.slots_);
}

LoadOrder LoadOrderBuilder::Build() && {
  std::sort(slots_.begin(), slots_.end(), [](const Slot& a, const Slot& b) {
    return std::tie(a.first, a.second, a.item) < std::tie(b.first, b.second, b.item);
  });
  LoadOrder order;
  order.items.reserve(slots_.size());
  order.checked.assign(slots_.size(), false);
  for (const Slot& slot : slots_) order.items.push_back(slot.item);
  // Items of one logical partition share their EPK, so they lie in one run of equal
  // prefixes: a clash of identities is looked for within each run.
  std::vector<std::pair<uint64_t, size_t>> identities;
  for (size_t begin = 0; begin < slots_.size();) {
    size_t end = begin + 1;
    while (end < slots_.size() && slots_[end].first == slots_[begin].first &&
           slots_[end].second == slots_[begin].second) {
      ++end;
    }
    identities.clear();
    for (size_t k = begin; k < end; ++k) identities.emplace_back(slots_[k].identity, k);
    std::sort(identities.begin(), identities.end());
    for (size_t k = 1; k < identities.size(); ++k) {
      if (identities[k].first == identities[k - 1].first) {
        order.checked[identities[k].second] = true;
        order.checked[identities[k - 1].second] = true;
      }
    }
    begin = end;
  }
  std::vector<Slot>().swap(slots_);
  return order;
}

}  // namespace orrery::advise
