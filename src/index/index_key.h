#pragma once

// The key of a range-index entry (persisted; docs/storage-format.md):
//
//   0x11 | container (4, BE) | partition (4, BE) | path | 0x01 | value | EPK | 0x00 | id
//
// The value is encoded so that byte order is the query language's ORDER BY order
// across types (undefined < null < false < true < numbers < strings < arrays <
// objects), which lets equality, ranges, STARTSWITH and ORDER BY be key-range scans.
// Arrays and objects are type markers without content. Entries have empty values.
//
// A string longer than kIndexedStringBytes is held bounded: its first
// kIndexedStringBytes bytes and the marker 0x00 0x02 instead of the terminator 0x00
// 0x01. Such an entry sorts after the string of exactly those bytes and before every
// greater string that does not start with them, so the entries of all strings sharing
// the bytes form one group in the right place. A lookup reads the whole group and
// checks the items; an ordered read orders a group by the items' own values. Keys a
// write inserts at random places cost its memtable and WAL by their size: an entry
// holding a whole 1 KB string made a create about 13% dearer (bench/README.md).
//
// The physical partition is part of the key, so an index scan for one partition reads
// only that partition's entries, as the service's per-partition index does.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "json/value.h"

namespace orrery::index {

// Leading byte of each encoded value: the type order above.
enum class ValueTag : uint8_t {
  kUndefined = 0x05,
  kNull = 0x10,
  kFalse = 0x20,
  kTrue = 0x21,
  kNumber = 0x30,
  kString = 0x40,
  kArray = 0x50,
  kObject = 0x60,
};

// Everything up to and including the 0x01 after the path: the start of all entries
// of one path in one partition.
std::string PathPrefix(uint32_t container, uint32_t partition, std::span<const std::string> path);

// Appends the encoded value (any type; arrays and objects as their markers).
void AppendValue(std::string& key, const json::Value& value);

// Bytes of a string a range-index entry holds (longer ones are bounded, above): whole
// ids, names, e-mail addresses, GUIDs, dates and URLs of common length.
inline constexpr size_t kIndexedStringBytes = 128;
// Appends the value as a range-index entry holds it: AppendValue's encoding, bounded
// for a long string.
void AppendIndexedValue(std::string& key, const json::Value& value);
// Whether an encoded value (tag included, as EntryView::value holds it) is a bounded
// string's group.
bool IsBoundedString(std::string_view encoded);
// The group an encoded value (AppendValue's) belongs to in the range index: the
// bounded encoding of a long string, nullopt for any other value (held as encoded).
// `encoded` may be followed by other bytes (a position's key suffix).
std::optional<std::string> BoundedGroupOf(std::string_view encoded);
// The number an encoded number value (its tag included, as EntryView::value holds it)
// stands for; nullopt if it is not one.
std::optional<double> DecodeNumber(std::string_view encoded);
// Appends a string's encoding without its terminator: the prefix of every string
// that starts with `prefix`.
void AppendStringPrefix(std::string& key, std::string_view prefix);

// The key of one entry.
std::string EntryKey(std::string_view path_prefix, const json::Value& value, std::string_view epk,
                     std::string_view id);
// The same key, completed in place after a path prefix `key` already holds, with
// one allocation for the whole key.
void AppendEntry(std::string& key, const json::Value& value, std::string_view epk,
                 std::string_view id);
// The same as a range-index entry: a long string bounded (AppendIndexedValue).
void AppendIndexedEntry(std::string& key, const json::Value& value, std::string_view epk,
                        std::string_view id);

// All entries of a container (for dropping or rebuilding its index).
std::string ContainerBegin(uint32_t container);
std::string ContainerEnd(uint32_t container);
// The first entry key of one physical partition (PartitionBegin(c, p + 1) ends it), and
// the partition of an entry key.
std::string PartitionBegin(uint32_t container, uint32_t partition);
uint32_t PartitionOf(std::string_view entry_key);

// The length of an entry key's path prefix (PathPrefix's output: container, partition,
// path, 0x01) when the key is a path entry of the range index (not a composite, vector
// or malformed key); nullopt otherwise. `names_only` also refuses paths with an array
// step, whose items may have several entries each.
std::optional<size_t> PathPrefixLength(std::string_view entry_key, bool names_only = false);
// Where a path encoded as in PathPrefix that starts at `from` in `key` ends (after its
// 0x01); nullopt when none does. For keys whose path follows a marker (full-text entries).
std::optional<size_t> PathEnd(std::string_view key, size_t from, bool names_only);
// The path part of such a key or prefix (after container and partition, through the
// 0x01 that ends it): what tells one path from another within a partition.
std::optional<std::string_view> EntryPath(std::string_view entry_key, bool names_only = false);

// What follows the path prefix in an entry key.
struct EntryView {
  ValueTag tag;
  std::string_view value;  // the encoded value, tag included
  std::string_view epk;
  std::string_view id;
};
// Splits the part of an entry key after its path prefix. nullopt if malformed.
std::optional<EntryView> ParseEntry(std::string_view after_prefix);

}  // namespace orrery::index
