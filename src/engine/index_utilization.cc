#include "engine/index_utilization.h"

#include <algorithm>

#include "engine/index_plan.h"
#include "index/composite_key.h"

namespace orrery::engine {
namespace {

std::string SingleSpec(const query::DocumentPath& path) {
  std::string spec;
  for (const std::string& segment : path) spec += "/" + segment;
  return spec + "/?";
}

std::string CompositeSpec(const query::DocumentPath& path, bool descending) {
  std::string spec;
  for (const std::string& segment : path) spec += "/" + segment;
  return spec + (descending ? " DESC" : " ASC");
}

template <typename T>
void AddOnce(std::vector<T>& list, T value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(std::move(value));
}

bool InComposite(const index::CompositeIndex& composite, const query::DocumentPath& path) {
  return std::any_of(composite.paths.begin(), composite.paths.end(),
                     [&](const index::CompositePath& c) { return c.path == path; });
}

}  // namespace

IndexUtilization DescribeIndexUse(const index::IndexingPolicy& policy,
                                  const query::AccessShape& shape, const IndexPlan& plan) {
  IndexUtilization use;
  const index::CompositeIndex* composite = plan.composite ? plan.composite->index : nullptr;
  if (composite != nullptr) use.utilized_composite.push_back(index::CompositeSpecs(*composite));
  std::vector<query::DocumentPath> paths;
  for (const query::PathPredicate& predicate : shape.predicates) {
    // The full-text functions use the inverted index, not a range index of the path.
    if (predicate.kind != query::PathPredicate::Kind::kFullText) paths.push_back(predicate.path);
  }
  if (shape.order_by.size() == 1) paths.push_back(shape.order_by[0].path);
  for (const query::DocumentPath& path : paths) {
    if (composite != nullptr && InComposite(*composite, path)) continue;
    if (policy.IsIndexed(path)) {
      AddOnce(use.utilized_single, SingleSpec(path));
    } else {
      AddOnce(use.potential_single, SingleSpec(path));
    }
  }
  if (composite != nullptr || shape.order_by.size() >= 2) return use;
  // Equalities first, then one range or the ORDER BY key (index-policy "Composite
  // indexes": queries with filters on several properties, or a filter and ORDER BY).
  std::vector<std::string> suggested;
  for (const query::PathPredicate& predicate : shape.predicates) {
    if (predicate.kind == query::PathPredicate::Kind::kEqual && predicate.values.size() == 1 &&
        std::find(predicate.path.begin(), predicate.path.end(), "[]") == predicate.path.end()) {
      AddOnce(suggested, CompositeSpec(predicate.path, false));
    }
  }
  if (suggested.empty()) return use;
  if (shape.order_by.size() == 1) {
    AddOnce(suggested, CompositeSpec(shape.order_by[0].path, shape.order_by[0].descending));
  } else {
    for (const query::PathPredicate& predicate : shape.predicates) {
      if (predicate.kind == query::PathPredicate::Kind::kRange) {
        AddOnce(suggested, CompositeSpec(predicate.path, false));
        break;
      }
    }
  }
  if (suggested.size() >= 2) use.potential_composite.push_back(std::move(suggested));
  return use;
}

}  // namespace orrery::engine
