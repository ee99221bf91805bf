#pragma once

// The key of a composite-index entry (persisted; docs/storage-format.md), one per item
// and composite index of the policy:
//
//   0x11 | container (4, BE) | partition (4, BE) | 0x04 | composite (4, BE)
//        | value_1 ... value_n | EPK | 0x00 | id
//
// `composite` is the index's position in the policy's compositeIndexes list (a policy
// change rebuilds the whole index, so positions never outlive their policy). Each
// value_i is the range-index encoding of the item's value at path i (index_key.h;
// undefined when the item lacks it, a type marker for an array or object) with every
// byte inverted (x ^ 0xFF) when path i is `descending`. The encodings are prefix-free,
// so byte order of the concatenation is the declared order, component by component:
// one forward scan yields ORDER BY p1 d1, ..., pn dn, a backward scan the fully
// reversed order. 0x04 follows the partition where a range-index path starts with
// 0x02 or 0x03, so the two never share a key range below the partition.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "index/index_scan.h"
#include "index/index_terms.h"
#include "index/indexing_policy.h"
#include "json/value.h"

namespace orrery::index {

inline constexpr char kCompositeMarker = '\x04';

// Everything up to the first value: the start of one composite index's entries in one
// physical partition.
std::string CompositePrefix(uint32_t container, uint32_t partition, uint32_t composite);

// Appends one component: the value's encoding, inverted when `descending`.
void AppendComponent(std::string& key, const json::Value& value, bool descending);

// The entry keys of `document` for every composite index of `policy` (appended).
void AppendCompositeEntryKeys(const IndexingPolicy& policy, const json::Value& document,
                              const ItemLocation& where, std::vector<std::string>& out);

// What follows the composite prefix in an entry key.
struct CompositeEntryView {
  std::string_view values;  // value_1 ... value_n as stored (inverted ones inverted)
  std::vector<std::string_view> components;  // each value_i within `values`
  std::string_view epk;
  std::string_view id;
};
// Splits the part of an entry key after its composite prefix. nullopt if malformed.
std::optional<CompositeEntryView> ParseCompositeEntry(std::string_view after_prefix,
                                                      const CompositeIndex& composite);

// A position in a composite index (within one partition): a scan that resumes after it
// starts with the next entry in its direction.
struct CompositePosition {
  std::string values;  // CompositeEntryView::values
  std::string epk;
  std::string id;
};
// The entry key at `position` under `prefix`.
std::string CompositePositionKey(std::string_view prefix, const CompositePosition& position);

// Entries whose next component (after `prefix`, which holds the composite prefix and
// any equal components before it) lies within the bounds. Bounds as in BoundedRange:
// when both are given they are of one type, numbers or strings.
KeyRange ComponentRange(std::string_view prefix, const json::Value* low, bool low_inclusive,
                        const json::Value* high, bool high_inclusive, bool descending);
// Entries whose next component (after `prefix`) is a string starting with `text`
// (STARTSWITH, case-sensitive), in the component's direction.
KeyRange ComponentStringPrefixRange(std::string_view prefix, std::string_view text,
                                    bool descending);
// Every entry whose key starts with `prefix`, a composite prefix plus whole components.
KeyRange ComponentsPrefixRange(std::string_view prefix);

// The index spec the service reports for a composite (index metrics): "/a ASC".
std::vector<std::string> CompositeSpecs(const CompositeIndex& composite);

}  // namespace orrery::index
