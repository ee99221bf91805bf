#include "engine/expiry_index.h"

#include <algorithm>
#include <vector>

#include "common/encoding.h"
#include "json/member_scan.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

constexpr char kOwnTtl = '\x00';
constexpr char kDefaultTtl = '\x01';
// Space byte, container, list byte, time.
constexpr size_t kPrefixSize = 1 + 4 + 1 + 8;

std::string ContainerPrefix(uint32_t container) {
  std::string key(1, storage::keys::kExpirySpace);
  AppendFixed32BE(key, container);
  return key;
}

// Times before the epoch (not written by Orrery) file at 0: expired under any setting.
uint64_t TimeBits(int64_t time) { return static_cast<uint64_t>(std::max<int64_t>(time, 0)); }

}  // namespace

std::optional<ExpiryEntry> ExpiryEntryOf(std::string_view item_json) {
  // The same reading as Container::ExpiresAt, which the purge checks each entry against.
  static const std::vector<std::string> kMembers{"_ts", "ttl"};
  std::optional<json::Value> members = json::ParseTopLevelMembers(item_json, kMembers);
  if (!members) return std::nullopt;
  const json::Value* ts = members->Find("_ts");
  if (ts == nullptr || !ts->is_number()) return std::nullopt;
  const auto write_time = static_cast<int64_t>(ts->as_double());
  const json::Value* own = members->Find("ttl");
  if (own == nullptr || !own->is_integer()) return ExpiryEntry{false, write_time};
  if (own->as_int() <= 0) return std::nullopt;  // -1: never
  return ExpiryEntry{true, write_time + own->as_int()};
}

std::string ExpiryKey(uint32_t container, const ExpiryEntry& entry, std::string_view epk,
                      std::string_view id) {
  std::string key = ContainerPrefix(container);
  key += entry.own_ttl ? kOwnTtl : kDefaultTtl;
  AppendFixed64BE(key, TimeBits(entry.time));
  key += storage::keys::ItemSuffix(epk, id);
  return key;
}

std::string ExpiryListBegin(uint32_t container, bool own_ttl) {
  std::string key = ContainerPrefix(container);
  key += own_ttl ? kOwnTtl : kDefaultTtl;
  return key;
}

std::string ExpiryListEnd(uint32_t container, bool own_ttl, int64_t time) {
  std::string key = ExpiryListBegin(container, own_ttl);
  if (time < 0) return key;  // nothing is that old
  // Past every entry of `time`: the first key of time + 1.
  AppendFixed64BE(key, TimeBits(time) + 1);
  return key;
}

std::string ExpiryContainerBegin(uint32_t container) { return ContainerPrefix(container); }

std::string ExpiryContainerEnd(uint32_t container) { return ContainerPrefix(container + 1); }

bool ParseExpiryKey(std::string_view key, std::string_view& epk, std::string_view& id) {
  if (key.size() <= kPrefixSize || key[0] != storage::keys::kExpirySpace) return false;
  const std::string_view suffix = key.substr(kPrefixSize);
  // EPKs are hex, so the first 0x00 ends the EPK.
  const size_t separator = suffix.find('\0');
  if (separator == std::string_view::npos) return false;
  epk = suffix.substr(0, separator);
  id = suffix.substr(separator + 1);
  return true;
}

}  // namespace orrery::engine
