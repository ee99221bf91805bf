#pragma once

// Key ranges of the range index for the lookups the planner uses
// (query-language.md §9.2): index seeks (equality, IN), precise scans (ranges,
// STARTSWITH, ORDER BY) — and the scan itself.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "index/index_key.h"
#include "json/value.h"
#include "storage/store.h"

namespace orrery::index {

struct KeyRange {
  std::string begin;  // inclusive
  std::string end;    // exclusive
};

// Entries whose value equals `value` (a scalar).
KeyRange EqualRange(std::string_view path_prefix, const json::Value& value);
// Entries whose value lies between the bounds; both bounds, when given, are numbers
// or both strings, and the range never leaves that type (the language compares only
// values of one type).
KeyRange BoundedRange(std::string_view path_prefix, const json::Value* low, bool low_inclusive,
                      const json::Value* high, bool high_inclusive);
// String entries that start with `prefix`.
KeyRange StringPrefixRange(std::string_view path_prefix, std::string_view prefix);
// The same ranges over the range index, whose entries hold long strings bounded
// (index_key.h): widened to the whole group of a bounded bound, so that they hold
// every entry whose item may match. The caller checks the items.
KeyRange IndexedEqualRange(std::string_view path_prefix, const json::Value& value);
KeyRange IndexedBoundedRange(std::string_view path_prefix, const json::Value* low,
                             bool low_inclusive, const json::Value* high, bool high_inclusive);
KeyRange IndexedStringPrefixRange(std::string_view path_prefix, std::string_view prefix);
// Every entry of the path.
KeyRange AllEntries(std::string_view path_prefix);

// Visits the entries of `range` in key order (or reversed) until `visit` returns false.
// Malformed entries are skipped.
Status ScanEntries(const storage::Store& store, const KeyRange& range, size_t prefix_size,
                   bool reverse, const std::function<bool(const EntryView&)>& visit);

}  // namespace orrery::index
