#pragma once

// The creation-order key space (docs/storage-format.md): the service returns the items
// of a query without ORDER BY in creation order (_rid) within each physical partition,
// whatever their ids, so Orrery keeps that order as two lists of entries:
//   0x15 | container (4, BE) | 0x00 | physical partition (4, BE) | number (8, BE)
//        -> EPK 0x00 id                   (the items of a physical partition)
//   0x15 | container (4, BE) | 0x01 | EPK | 0x00 | number (8, BE)
//        -> id                            (the items of a logical partition)
// `number` is the item number its _rid encodes, given when the item was created and
// kept across replaces. A physical partition's entries follow it through splits as its
// change-feed entries do.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace orrery::engine {

// Where in creation order an item is (or a page ended): its physical partition's EPK
// range and its number.
struct CreationPosition {
  std::string min;
  std::string max;
  uint64_t number = 0;
};

std::string CreationKey(uint32_t container, uint32_t partition, uint64_t number);
// A partition's entries after `after_number`: [begin, end).
std::string CreationBegin(uint32_t container, uint32_t partition, uint64_t after_number);
std::string CreationEnd(uint32_t container, uint32_t partition);

std::string LogicalCreationKey(uint32_t container, std::string_view epk, uint64_t number);
std::string LogicalCreationBegin(uint32_t container, std::string_view epk, uint64_t after_number);
std::string LogicalCreationEnd(uint32_t container, std::string_view epk);

// Every entry of a container, both lists (for dropping or rebuilding them).
std::string CreationContainerBegin(uint32_t container);
std::string CreationContainerEnd(uint32_t container);

// The number of an entry key of either list; nullopt if malformed.
std::optional<uint64_t> CreationNumberOf(std::string_view key);

// The item number an item's _rid encodes (resource_id.h); nullopt if it is not one.
std::optional<uint64_t> ItemNumberOfRid(std::string_view rid);
// The number of a stored item's JSON text, from its _rid.
std::optional<uint64_t> ItemNumberOfJson(std::string_view json);

}  // namespace orrery::engine
