#pragma once

// The range-index entries of one item under an indexing policy: one per indexed
// scalar (array elements under the path step "[]"), one type marker per indexed
// array or object, and an "undefined" entry for each explicitly included `/path/?`
// the item lacks. Writers delete the old version's entries and put the new one's
// in the same write batch as the item, so index and item never disagree. The item's
// composite-index entries (composite_key.h) are among them, so every writer keeps
// composite indexes too.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "index/indexing_policy.h"
#include "json/value.h"

namespace orrery::index {

struct ItemLocation {
  uint32_t container = 0;
  uint32_t partition = 0;  // physical partition number
  std::string_view epk;
  std::string_view id;
};

// The entry keys of `document`, sorted and without duplicates.
std::vector<std::string> EntryKeys(const IndexingPolicy& policy, const json::Value& document,
                                   const ItemLocation& where);

// The same for an item of a container with computed properties: `computed` holds their
// values ({name: value}, from query::ComputedProperties::ValuesOf), indexed as top-level
// members where the policy names them; stored members of those names are not indexed.
std::vector<std::string> EntryKeys(const IndexingPolicy& policy, const json::Value& document,
                                   const json::Value& computed, const ItemLocation& where);

}  // namespace orrery::index
