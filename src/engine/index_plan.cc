#include "engine/index_plan.h"

#include <algorithm>

#include "spatial/planar_cells.h"

namespace orrery::engine {
namespace {

constexpr const char* kNoCompositeIndex =
    "The order by query does not have a corresponding composite index that it can be served "
    "from.";
constexpr const char* kOrderByPathExcluded =
    "The index path corresponding to the specified order-by item is excluded.";

// Exactly the ORDER BY paths in order, with directions all equal or all reversed
// (index-policy "Composite indexes").
bool ServesOrderBy(const index::CompositeIndex& composite,
                   const std::vector<query::OrderKey>& keys) {
  if (composite.paths.size() != keys.size()) return false;
  bool same = true;
  bool reversed = true;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (composite.paths[i].path != keys[i].path) return false;
    same = same && composite.paths[i].descending == keys[i].descending;
    reversed = reversed && composite.paths[i].descending != keys[i].descending;
  }
  return same || reversed;
}

Status CheckOrderBy(const index::IndexingPolicy& policy, const query::AccessShape& shape) {
  if (shape.order_by_keys >= 2) {
    const bool served =
        shape.order_by.size() == shape.order_by_keys &&
        std::any_of(policy.composite_indexes().begin(), policy.composite_indexes().end(),
                    [&](const auto& c) { return ServesOrderBy(c, shape.order_by); });
    if (!served) return Status::BadRequest(kNoCompositeIndex);
  } else if (shape.order_by.size() == 1 && !policy.IsIndexed(shape.order_by[0].path)) {
    return Status::BadRequest(kOrderByPathExcluded);
  }
  return Status::Ok();
}

// Seeks before precise scans: fewer index terms read (query-language.md §9.2).
int Preference(const query::PathPredicate& predicate) {
  switch (predicate.kind) {
    case query::PathPredicate::Kind::kEqual:
      return 0;
    case query::PathPredicate::Kind::kPrefix:
      return 1;
    case query::PathPredicate::Kind::kRange:
      return 2;
    case query::PathPredicate::Kind::kSpatial:
    case query::PathPredicate::Kind::kFullText:
      return 1;
  }
  return 3;
}

const query::PathPredicate* BoundOn(const std::vector<query::PathPredicate>& predicates,
                                    const query::DocumentPath& path) {
  for (const query::PathPredicate& predicate : predicates) {
    if (predicate.path == path && (predicate.kind == query::PathPredicate::Kind::kRange ||
                                   predicate.kind == query::PathPredicate::Kind::kPrefix)) {
      return &predicate;
    }
  }
  return nullptr;
}

// Then items where the path is undefined have index entries too.
bool IsExplicitlyIncluded(const index::IndexingPolicy& policy, const query::DocumentPath& path) {
  const auto& explicit_paths = policy.explicit_scalar_paths();
  return std::find(explicit_paths.begin(), explicit_paths.end(), path) != explicit_paths.end();
}

// A spatial predicate's path ends in the cell segment after the GeoJSON's own path.
std::span<const std::string> GeoJsonPath(const query::PathPredicate& predicate) {
  return std::span<const std::string>(predicate.path.data(), predicate.path.size() - 1);
}

bool IsServed(const index::IndexingPolicy& policy, const query::PathPredicate& predicate) {
  if (predicate.kind == query::PathPredicate::Kind::kFullText) {
    return policy.HasFullTextIndex(predicate.path);
  }
  if (predicate.kind != query::PathPredicate::Kind::kSpatial) {
    return policy.IsIndexed(predicate.path);
  }
  if (predicate.planar_region) return policy.GeometryIndexFor(GeoJsonPath(predicate)) != nullptr;
  return policy.HasSpatialIndex(GeoJsonPath(predicate));
}

// The planar predicate with the cells of the grid its path's entries are in.
std::shared_ptr<const query::PathPredicate> WithPlanarCells(const index::IndexingPolicy& policy,
                                                            const query::PathPredicate& predicate) {
  auto resolved = std::make_shared<query::PathPredicate>(predicate);
  const index::SpatialIndex* index = policy.GeometryIndexFor(GeoJsonPath(predicate));
  for (const spatial::CellRange& range :
       spatial::PlanarCellRanges(*predicate.planar_region, predicate.planar_margin, *index->box)) {
    resolved->cells.emplace_back(range.first, range.last);
  }
  return resolved;
}

IndexPlan OrderedPlan(const index::IndexingPolicy& policy, const query::AccessShape& shape) {
  IndexPlan plan;
  plan.kind = IndexPlan::Kind::kOrdered;
  plan.order = &shape.order_by[0];
  // Array elements are never undefined: an item without the array has no rows.
  plan.undefined_indexed =
      IsExplicitlyIncluded(policy, plan.order->path) ||
      (query::ThroughArrayElements(plan.order->path) && plan.order->path.back() == "[]");
  plan.order_bound = BoundOn(shape.predicates, plan.order->path);
  return plan;
}

}  // namespace

std::optional<IndexPlan> OrderedAlternative(const index::IndexingPolicy& policy,
                                            const query::AccessShape& shape,
                                            const IndexPlan& plan) {
  if (plan.kind != IndexPlan::Kind::kLookup || plan.composite || plan.predicate == nullptr ||
      plan.predicate->kind != query::PathPredicate::Kind::kEqual) {
    return std::nullopt;
  }
  if (!shape.order_by_streams || shape.order_by.size() != 1) return std::nullopt;
  return OrderedPlan(policy, shape);
}

Result<IndexPlan> PlanIndexUse(const index::IndexingPolicy& policy, const query::AccessShape& shape,
                               bool index_ready, const std::vector<query::DocumentPath>& pinned) {
  ORRERY_RETURN_IF_ERROR(CheckOrderBy(policy, shape));
  IndexPlan plan;
  if (!index_ready || !policy.enabled()) return plan;
  if (std::optional<CompositeUse> use = ChooseComposite(policy, shape)) {
    plan.kind = use->order_components > 0 ? IndexPlan::Kind::kComposite : IndexPlan::Kind::kLookup;
    plan.composite = std::move(use);
    return plan;
  }
  const auto selects_all = [&](const query::PathPredicate& predicate) {
    return predicate.kind == query::PathPredicate::Kind::kEqual &&
           std::find(pinned.begin(), pinned.end(), predicate.path) != pinned.end();
  };
  for (const query::PathPredicate& predicate : shape.predicates) {
    // An equality the scope holds would read the index entries of every item in it
    // (and of other logical partitions sharing the value's prefix): walking the scope's
    // own items costs less.
    if (!IsServed(policy, predicate) || selects_all(predicate)) continue;
    if (plan.predicate == nullptr || Preference(predicate) < Preference(*plan.predicate)) {
      plan.predicate = &predicate;
    }
  }
  // An equality seek beats streaming the ORDER BY path: it reads a few entries where
  // the ordered scan may read a whole partition's entries to find the matches.
  const bool seek =
      plan.predicate != nullptr && plan.predicate->kind == query::PathPredicate::Kind::kEqual;
  if (shape.order_by_streams && shape.order_by.size() == 1 && !seek) {
    return OrderedPlan(policy, shape);
  }
  if (shape.grouped_by && !seek && policy.IsIndexed(*shape.grouped_by)) {
    plan.kind = IndexPlan::Kind::kGrouped;
    plan.grouping = &*shape.grouped_by;
    plan.grouping_descending = shape.grouped_descending;
    plan.undefined_indexed = IsExplicitlyIncluded(policy, *plan.grouping);
    return plan;
  }
  if (plan.predicate != nullptr) {
    plan.kind = IndexPlan::Kind::kLookup;
    if (plan.predicate->planar_region) {
      plan.planar_predicate = WithPlanarCells(policy, *plan.predicate);
      plan.predicate = plan.planar_predicate.get();
    }
  }
  return plan;
}

}  // namespace orrery::engine
