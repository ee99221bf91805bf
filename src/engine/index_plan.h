#pragma once

// The planner's index decision for one query on one container (query-language.md
// §9.2–9.4): look items up through a WHERE predicate, stream them in ORDER BY order
// from the range index, or scan everything. Also where the service refuses a query
// because of the indexing policy: ORDER BY on several keys without a matching
// composite index, and ORDER BY on a path the policy excludes.

#include <memory>
#include <optional>
#include <vector>

#include "common/status.h"
#include "engine/composite_plan.h"
#include "index/indexing_policy.h"
#include "query/access_path.h"

namespace orrery::engine {

struct IndexPlan {
  // kComposite: items stream in ORDER BY order from a composite index (`composite`).
  enum class Kind { kFullScan, kLookup, kOrdered, kGrouped, kComposite };
  Kind kind = Kind::kFullScan;
  const query::PathPredicate* predicate = nullptr;  // kLookup
  const query::OrderKey* order = nullptr;           // kOrdered
  const query::DocumentPath* grouping = nullptr;    // kGrouped (AccessShape::grouped_by)
  bool grouping_descending = false;                 // kGrouped: values in descending order
  // kOrdered, kGrouped: items where the key is undefined have index entries (the path
  // is explicitly included), so the index order is complete in both directions.
  bool undefined_indexed = false;
  // kOrdered: a WHERE range or prefix on the ORDER BY path. Only entries within it can
  // match, and every match has the key defined, so the stream reads just those entries.
  const query::PathPredicate* order_bound = nullptr;
  // kComposite, or kLookup through a composite index (then `predicate` is unset).
  std::optional<CompositeUse> composite;
  // A Geometry spatial predicate with the cells of its index's grid filled in, which
  // `predicate` then points to.
  std::shared_ptr<const query::PathPredicate> planar_predicate;
};

// `index_ready` is false while the index is being rebuilt after a policy change;
// then only full scans give complete answers. `pinned`: paths whose value the read's
// scope already fixes (the partition key, in one logical partition): an equality on one
// of them selects the whole scope, so it is never looked up (the scope's items are
// walked instead, when no other predicate serves).
Result<IndexPlan> PlanIndexUse(const index::IndexingPolicy& policy, const query::AccessShape& shape,
                               bool index_ready,
                               const std::vector<query::DocumentPath>& pinned = {});

// For a kLookup by an equality that PlanIndexUse preferred to streaming a one-key ORDER
// BY: the kOrdered plan that streams it instead, with the WHERE evaluated on each item.
// Which costs less depends on how many items the equality matches (Container::Query
// counts them); nullopt when the plan has no such alternative.
std::optional<IndexPlan> OrderedAlternative(const index::IndexingPolicy& policy,
                                            const query::AccessShape& shape, const IndexPlan& plan);

}  // namespace orrery::engine
