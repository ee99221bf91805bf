#pragma once

// Whether and how a composite index serves a query (query-language.md §9.4; the
// service's "Composite indexes" rules):
//   - ORDER BY k1, ..., kn served by components s .. s+n-1 of a composite whose first s
//     components WHERE fixes by equality, in the declared directions or all reversed:
//     the items stream in ORDER BY order from the composite's entries;
//   - equality (or IN) filters on leading components, optionally followed by a range filter or
//     a STARTSWITH on the next one (`c.a = 1 AND c.b > 5`, `c.a = 1 AND STARTSWITH(c.b,
//     "x")` with (a, b)): the matching items are exactly the entries of one key range,
//     without reading those of the other values (one key range per combination of IN
//     values, up to kMaxCompositeRanges).

#include <cstdint>
#include <optional>
#include <vector>

#include "index/indexing_policy.h"
#include "json/value.h"
#include "query/access_path.h"

namespace orrery::engine {

struct CompositeUse {
  uint32_t number = 0;  // position in the policy's composite indexes: the entries' key
  const index::CompositeIndex* index = nullptr;
  // The values the leading components are fixed to by WHERE equalities: one each, or
  // (only when the composite filters without serving an ORDER BY) the list of an IN.
  std::vector<std::vector<json::Value>> equal_values;
  // A WHERE range or STARTSWITH prefix on the component after them, if any.
  const query::PathPredicate* range = nullptr;
  // ORDER BY: read backward (the ORDER BY is the declaration fully reversed).
  bool reverse = false;
  // ORDER BY: the components up to the last ORDER BY key; rows tied on them are tied in
  // ORDER BY. 0 when the composite only filters.
  size_t order_components = 0;
};

inline constexpr size_t kMaxCompositeRanges = 100;

// The best composite index for `shape`, if one helps: one serving the ORDER BY before
// one that only filters; among those, the one fixing more components.
std::optional<CompositeUse> ChooseComposite(const index::IndexingPolicy& policy,
                                            const query::AccessShape& shape);

}  // namespace orrery::engine
