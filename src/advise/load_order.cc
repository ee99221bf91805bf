#include "advise/load_order.h"

#include <algorithm>
#include <functional>
#include <string>
#include <tuple>

namespace orrery::advise {
namespace {

// A level of a V2 hash is 32 hex digits (engine/partition/effective_partition_key.h).
constexpr size_t kLevelDigits = 32;

// The first 16 digits of an uppercase hex string as a number (missing digits as 0).
uint64_t HexPrefix(std::string_view hex) {
  uint64_t value = 0;
  for (size_t i = 0; i < 16; ++i) {
    const char ch = i < hex.size() ? hex[i] : '0';
    uint64_t digit = 0;
    if (ch >= '0' && ch <= '9') digit = static_cast<uint64_t>(ch - '0');
    if (ch >= 'A' && ch <= 'F') digit = static_cast<uint64_t>(ch - 'A' + 10);
    value = (value << 4) | digit;
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
  std::string identity(epk);
  identity.push_back('\0');
  identity.append(id);
  slot.identity = std::hash<std::string>{}(identity);
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
