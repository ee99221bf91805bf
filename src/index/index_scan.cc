#include "index/index_scan.h"

namespace orrery::index {
namespace {

// Greater than every EPK byte (uppercase hex), so `encoded value + kPastValue` bounds
// all entries of that exact value.
constexpr char kPastValue = '\xFF';

std::string WithTag(std::string_view path_prefix, uint8_t tag) {
  std::string key(path_prefix);
  key += static_cast<char>(tag);
  return key;
}

bool IsBoundedStringValue(const json::Value& value) {
  return value.is_string() && value.as_string().size() > kIndexedStringBytes;
}

}  // namespace

KeyRange EqualRange(std::string_view path_prefix, const json::Value& value) {
  KeyRange range{std::string(path_prefix), {}};
  AppendValue(range.begin, value);
  range.end = range.begin + kPastValue;
  return range;
}

KeyRange BoundedRange(std::string_view path_prefix, const json::Value* low, bool low_inclusive,
                      const json::Value* high, bool high_inclusive) {
  const json::Value* typed = low != nullptr ? low : high;
  const auto tag = static_cast<uint8_t>(typed->is_number() ? ValueTag::kNumber : ValueTag::kString);
  KeyRange range{WithTag(path_prefix, tag), WithTag(path_prefix, tag + 1)};
  if (low != nullptr) {
    range.begin.assign(path_prefix);
    AppendValue(range.begin, *low);
    if (!low_inclusive) range.begin += kPastValue;
  }
  if (high != nullptr) {
    range.end.assign(path_prefix);
    AppendValue(range.end, *high);
    if (high_inclusive) range.end += kPastValue;
  }
  return range;
}

KeyRange StringPrefixRange(std::string_view path_prefix, std::string_view prefix) {
  KeyRange range{std::string(path_prefix), {}};
  AppendStringPrefix(range.begin, prefix);
  range.end = range.begin + kPastValue;
  return range;
}

KeyRange IndexedEqualRange(std::string_view path_prefix, const json::Value& value) {
  KeyRange range{std::string(path_prefix), {}};
  AppendIndexedValue(range.begin, value);
  range.end = range.begin + kPastValue;
  return range;
}

KeyRange IndexedBoundedRange(std::string_view path_prefix, const json::Value* low,
                             bool low_inclusive, const json::Value* high, bool high_inclusive) {
  KeyRange range = BoundedRange(path_prefix, low, low_inclusive, high, high_inclusive);
  // A bound's group holds strings on both sides of it: all of it is read.
  if (low != nullptr && IsBoundedStringValue(*low)) {
    range.begin.assign(path_prefix);
    AppendIndexedValue(range.begin, *low);
  }
  if (high != nullptr && IsBoundedStringValue(*high)) {
    range.end.assign(path_prefix);
    AppendIndexedValue(range.end, *high);
    range.end += kPastValue;
  }
  return range;
}

KeyRange IndexedStringPrefixRange(std::string_view path_prefix, std::string_view prefix) {
  // Entries of longer strings hold only their first bytes, which the prefix's first
  // bytes select (with the string of exactly those bytes, which the check drops).
  return StringPrefixRange(path_prefix, prefix.substr(0, kIndexedStringBytes));
}

KeyRange AllEntries(std::string_view path_prefix) {
  std::string end(path_prefix);
  end.back() = static_cast<char>(end.back() + 1);  // the path terminator 0x01 -> 0x02
  return KeyRange{std::string(path_prefix), std::move(end)};
}

Status ScanEntries(const storage::Store& store, const KeyRange& range, size_t prefix_size,
                   bool reverse, const std::function<bool(const EntryView&)>& visit) {
  if (range.begin >= range.end) return Status::Ok();
  auto on_key = [&](std::string_view key, std::string_view) {
    std::optional<EntryView> entry = ParseEntry(key.substr(prefix_size));
    return !entry || visit(*entry);
  };
  return reverse ? store.ScanReverse(range.begin, range.end, on_key)
                 : store.Scan(range.begin, range.end, on_key);
}

}  // namespace orrery::index
