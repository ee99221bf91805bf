#include "engine/composite_plan.h"

namespace orrery::engine {
namespace {

// An equality or an IN list on `path` (the one with the fewest values).
const query::PathPredicate* EqualityOn(const query::AccessShape& shape,
                                       const index::PathSegments& path) {
  const query::PathPredicate* best = nullptr;
  for (const query::PathPredicate& p : shape.predicates) {
    if (p.kind == query::PathPredicate::Kind::kEqual && !p.values.empty() && p.path == path &&
        (best == nullptr || p.values.size() < best->values.size())) {
      best = &p;
    }
  }
  return best;
}

// A range or a STARTSWITH prefix (a range of strings) on `path`.
const query::PathPredicate* RangeOn(const query::AccessShape& shape,
                                    const index::PathSegments& path) {
  for (const query::PathPredicate& p : shape.predicates) {
    if ((p.kind == query::PathPredicate::Kind::kRange ||
         p.kind == query::PathPredicate::Kind::kPrefix) &&
        p.path == path) {
      return &p;
    }
  }
  return nullptr;
}

// Where the ORDER BY keys sit in `composite` (their first component), given that the
// first `fixed` components are fixed by equalities; sets `reverse`. nullopt if the
// composite cannot yield the ORDER BY order.
std::optional<size_t> OrderStart(const index::CompositeIndex& composite,
                                 const std::vector<query::OrderKey>& keys, size_t fixed,
                                 bool& reverse) {
  const size_t n = keys.size();
  for (size_t s = 0; s <= fixed && s + n <= composite.paths.size(); ++s) {
    bool same = true;
    bool reversed = true;
    bool paths = true;
    for (size_t j = 0; j < n && paths; ++j) {
      const index::CompositePath& component = composite.paths[s + j];
      paths = component.path == keys[j].path;
      same = same && component.descending == keys[j].descending;
      reversed = reversed && component.descending != keys[j].descending;
    }
    if (paths && (same || reversed)) {
      reverse = !same;
      return s;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<CompositeUse> ChooseComposite(const index::IndexingPolicy& policy,
                                            const query::AccessShape& shape) {
  std::optional<CompositeUse> best;
  // ORDER BY served first, then more components narrowed (the range counting half).
  int best_score = -1;
  const std::vector<index::CompositeIndex>& composites = policy.composite_indexes();
  for (size_t i = 0; i < composites.size(); ++i) {
    const index::CompositeIndex& composite = composites[i];
    CompositeUse use;
    use.number = static_cast<uint32_t>(i);
    use.index = &composite;
    size_t ranges = 1;
    for (const index::CompositePath& component : composite.paths) {
      const query::PathPredicate* equal = EqualityOn(shape, component.path);
      if (equal == nullptr || ranges * equal->values.size() > kMaxCompositeRanges) break;
      ranges *= equal->values.size();
      use.equal_values.push_back(equal->values);
    }
    if (shape.order_by_streams && !shape.order_by.empty()) {
      // One stream in ORDER BY order: IN lists leave their components unfixed.
      size_t single = 0;
      while (single < use.equal_values.size() && use.equal_values[single].size() == 1) ++single;
      bool reverse = false;
      const std::optional<size_t> start = OrderStart(composite, shape.order_by, single, reverse);
      // One ORDER BY key from the first component is the range index's job already.
      if (start && (shape.order_by.size() >= 2 || *start >= 1)) {
        use.equal_values.resize(single);
        use.reverse = reverse;
        use.order_components = *start + shape.order_by.size();
      }
    }
    const size_t fixed = use.equal_values.size();
    if (fixed < composite.paths.size()) use.range = RangeOn(shape, composite.paths[fixed].path);
    int score = static_cast<int>(fixed) * 2 + (use.range != nullptr ? 1 : 0);
    if (use.order_components > 0) score += 1000;
    // Filtering alone pays when it fixes more than a single-path seek would.
    if (use.order_components == 0 && !(fixed >= 2 || (fixed == 1 && use.range != nullptr))) {
      continue;
    }
    if (score > best_score) {
      best_score = score;
      best = std::move(use);
    }
  }
  return best;
}

}  // namespace orrery::engine
