#include "query/access_path_builder.h"

#include <algorithm>
#include <cctype>

#include "query/constant_args.h"
#include "query/field_usage.h"
#include "query/spatial_access.h"

namespace orrery::query {
namespace {

using ast::As;
using ast::BinaryOp;
using ast::ExprKind;

class ShapeBuilder {
 public:
  explicit ShapeBuilder(const BoundQuery& bound) : bound_(bound), query_(*bound.query) {
    if (!query_.from.empty() && query_.from[0].kind == ast::SourceKind::kCollection &&
        query_.from[0].collection->kind == ExprKind::kIdentifier) {
      item_slot_ = query_.from[0].slot;
    }
  }

  AccessShape Build() {
    AccessShape shape;
    shape.reaches_unindexed_items = FiltersOnlyById(bound_);
    if (item_slot_ < 0) return shape;
    if (query_.where) AddConjuncts(*query_.where, shape.predicates);
    if (std::optional<PathPredicate> ranked = RankedFullTextPredicate()) {
      shape.predicates.push_back(std::move(*ranked));
    }
    MergeRanges(shape.predicates);
    shape.order_by_keys = query_.order_by.size();
    bool by_join_element = false;
    for (const ast::SortItem& item : query_.order_by) {
      std::optional<DocumentPath> path = ItemPath(*item.expr);
      if (!path && query_.order_by.size() == 1) {
        path = PathThroughJoins(*item.expr);
        if (path && !ThroughArrayElements(*path)) path.reset();
        by_join_element = path.has_value();
      }
      if (!path) {
        shape.order_by.clear();
        break;
      }
      shape.order_by.push_back(OrderKey{std::move(*path), item.descending});
    }
    shape.order_by_streams = !shape.order_by.empty() &&
                             (query_.from.size() == 1 || by_join_element) && !bound_.is_aggregate &&
                             query_.group_by.empty() && !query_.select.distinct;
    shape.grouped_by = GroupedBy();
    if (!shape.grouped_by) {
      shape.grouped_by = DistinctOrderedBy(shape.order_by);
      shape.grouped_descending = shape.grouped_by && shape.order_by[0].descending;
    }
    return shape;
  }

 private:
  std::optional<DocumentPath> GroupedBy() const {
    if (!query_.order_by.empty()) return std::nullopt;
    // Groups of one key come in key order, which an index on an item path streams; those
    // of several keys come in the order their first items are met (compiled_query.cc),
    // which no index gives.
    if (bound_.is_aggregate) {
      if (query_.group_by.size() != 1) return std::nullopt;
      return ItemPath(*query_.group_by[0]);
    }
    if (!query_.select.distinct) return std::nullopt;
    const ast::SelectClause& select = query_.select;
    if (select.kind == ast::SelectKind::kValue) return ItemPath(*select.value);
    if (select.kind == ast::SelectKind::kList) {
      for (const ast::SelectItem& item : select.items) {
        if (std::optional<DocumentPath> path = ItemPath(*item.expr)) return path;
      }
    }
    return std::nullopt;
  }

  // DISTINCT ... ORDER BY one item path that the DISTINCT rows hold (the VALUE, or an
  // item of the list): rows of different values of it differ, so each value's rows are
  // finished apart from the others, in ORDER BY order.
  std::optional<DocumentPath> DistinctOrderedBy(const std::vector<OrderKey>& order_by) const {
    if (!query_.select.distinct || bound_.is_aggregate || !query_.group_by.empty() ||
        query_.from.size() != 1 || order_by.size() != 1 || query_.order_by.size() != 1) {
      return std::nullopt;
    }
    const DocumentPath& key = order_by[0].path;
    const ast::SelectClause& select = query_.select;
    if (select.kind == ast::SelectKind::kValue) {
      if (ItemPath(*select.value) == key) return key;
      return std::nullopt;
    }
    if (select.kind == ast::SelectKind::kList) {
      for (const ast::SelectItem& item : select.items) {
        if (ItemPath(*item.expr) == key) return key;
      }
    }
    return std::nullopt;
  }

  // `t` of `JOIN t IN c.a.b` (or of `JOIN t IN s.b` where s is such an alias itself): the
  // path of the array with an element step, a/b/[]. Each value of t is an element, so
  // its index entries list every item with a row of that value, and no row of t is
  // undefined (an item without the array has no rows); t.x (a/b/[]/x) may be.
  std::optional<DocumentPath> JoinElementPath(const ast::Expr& expr) const {
    if (expr.kind != ExprKind::kIdentifier) return std::nullopt;
    const int slot = As<ast::IdentifierExpr>(expr).slot;
    for (size_t i = 1; i < query_.from.size(); ++i) {
      const ast::FromSource& source = query_.from[i];
      if (source.slot != slot || source.kind != ast::SourceKind::kIterate ||
          source.collection == nullptr) {
        continue;
      }
      std::optional<DocumentPath> array = PathThroughJoins(*source.collection);
      if (array) array->emplace_back("[]");
      return array;
    }
    return std::nullopt;
  }

  // An item path that may start at a JOIN alias: t.c of `JOIN t IN c.a` is a/[]/c.
  std::optional<DocumentPath> PathThroughJoins(const ast::Expr& expr) const {
    return PathOf(expr, /*through_joins=*/true);
  }

  // c.a.b, c["a"], c.a[0] is not (array positions are not index paths).
  std::optional<DocumentPath> ItemPath(const ast::Expr& expr) const {
    return PathOf(expr, /*through_joins=*/false);
  }

  std::optional<DocumentPath> PathOf(const ast::Expr& expr, bool through_joins) const {
    DocumentPath reversed;
    const ast::Expr* e = &expr;
    while (true) {
      if (e->kind == ExprKind::kProperty) {
        const auto& property = As<ast::PropertyExpr>(*e);
        reversed.push_back(property.name);
        e = property.object.get();
      } else if (e->kind == ExprKind::kIndex) {
        const auto& index = As<ast::IndexExpr>(*e);
        const json::Value* key = Constant(*index.index);
        if (key == nullptr || !key->is_string()) return std::nullopt;
        reversed.push_back(key->as_string());
        e = index.object.get();
      } else if (e->kind == ExprKind::kIdentifier) {
        std::optional<DocumentPath> base;
        if (As<ast::IdentifierExpr>(*e).slot == item_slot_) {
          if (reversed.empty()) return std::nullopt;  // the item itself is no path
          base.emplace();
        } else if (through_joins) {
          base = JoinElementPath(*e);
        }
        if (!base) return std::nullopt;
        base->insert(base->end(), reversed.rbegin(), reversed.rend());
        return base;
      } else {
        return std::nullopt;
      }
    }
  }

  query::ItemPathOf ItemPathOf() const {
    return [this](const ast::Expr& expr) { return ItemPath(expr); };
  }

  static const json::Value* Constant(const ast::Expr& expr) {
    if (expr.kind == ExprKind::kLiteral) return &As<ast::LiteralExpr>(expr).value;
    if (expr.kind == ExprKind::kParameter) return &As<ast::ParameterExpr>(expr).value;
    return nullptr;
  }

  static bool IsScalar(const json::Value& v) {
    return v.is_null() || v.is_bool() || v.is_number() || v.is_string();
  }
  static bool IsRangeBound(const json::Value& v) { return v.is_number() || v.is_string(); }

  void AddConjuncts(const ast::Expr& expr, std::vector<PathPredicate>& out) const {
    switch (expr.kind) {
      case ExprKind::kBinary:
        AddBinary(As<ast::BinaryExpr>(expr), out);
        return;
      case ExprKind::kBetween:
        AddBetween(As<ast::BetweenExpr>(expr), out);
        return;
      case ExprKind::kIn:
        AddIn(As<ast::InExpr>(expr), out);
        return;
      case ExprKind::kCall:
        AddCall(As<ast::CallExpr>(expr), out);
        return;
      default:
        return;
    }
  }

  void AddBinary(const ast::BinaryExpr& binary, std::vector<PathPredicate>& out) const {
    if (binary.op == BinaryOp::kAnd) {
      AddConjuncts(*binary.left, out);
      AddConjuncts(*binary.right, out);
      return;
    }
    if (std::optional<PathPredicate> spatial = SpatialDistancePredicate(binary, ItemPathOf())) {
      out.push_back(std::move(*spatial));
      return;
    }
    if (std::optional<PathPredicate> scored = PositiveScorePredicate(binary)) {
      out.push_back(std::move(*scored));
      return;
    }
    BinaryOp op = binary.op;
    std::optional<DocumentPath> path = ItemPath(*binary.left);
    const json::Value* value = Constant(*binary.right);
    if (!path || value == nullptr) {
      path = ItemPath(*binary.right);
      value = Constant(*binary.left);
      op = Mirror(op);
    }
    if (!path || value == nullptr) return;
    PathPredicate predicate;
    predicate.path = std::move(*path);
    if (op == BinaryOp::kEqual) {
      if (!IsScalar(*value)) return;
      predicate.values.push_back(*value);
      out.push_back(std::move(predicate));
      return;
    }
    if (!IsRangeBound(*value)) return;
    predicate.kind = PathPredicate::Kind::kRange;
    switch (op) {
      case BinaryOp::kLess:
      case BinaryOp::kLessEqual:
        predicate.high = *value;
        predicate.high_inclusive = op == BinaryOp::kLessEqual;
        break;
      case BinaryOp::kGreater:
      case BinaryOp::kGreaterEqual:
        predicate.low = *value;
        predicate.low_inclusive = op == BinaryOp::kGreaterEqual;
        break;
      default:
        return;
    }
    out.push_back(std::move(predicate));
  }

  // `5 < c.a` is `c.a > 5`.
  // `c.n >= 5 AND c.n < 9` is one range of c.n, so one precise scan reads only the entries
  // within both bounds. Joined when one conjunct has only a low bound and the other only a
  // high bound of the same type; any other pair stays two predicates.
  static void MergeRanges(std::vector<PathPredicate>& predicates) {
    const auto only_low = [](const PathPredicate& p) {
      return p.kind == PathPredicate::Kind::kRange && p.low && !p.high;
    };
    const auto only_high = [](const PathPredicate& p) {
      return p.kind == PathPredicate::Kind::kRange && p.high && !p.low;
    };
    for (size_t i = 0; i < predicates.size(); ++i) {
      if (!only_low(predicates[i])) continue;
      for (size_t j = 0; j < predicates.size(); ++j) {
        PathPredicate& high = predicates[j];
        if (!only_high(high) || high.path != predicates[i].path ||
            high.high->type() != predicates[i].low->type()) {
          continue;
        }
        predicates[i].high = std::move(high.high);
        predicates[i].high_inclusive = high.high_inclusive;
        predicates.erase(predicates.begin() + static_cast<std::ptrdiff_t>(j));
        if (j < i) --i;
        break;
      }
    }
  }

  static BinaryOp Mirror(BinaryOp op) {
    switch (op) {
      case BinaryOp::kLess:
        return BinaryOp::kGreater;
      case BinaryOp::kLessEqual:
        return BinaryOp::kGreaterEqual;
      case BinaryOp::kGreater:
        return BinaryOp::kLess;
      case BinaryOp::kGreaterEqual:
        return BinaryOp::kLessEqual;
      default:
        return op;
    }
  }

  void AddBetween(const ast::BetweenExpr& between, std::vector<PathPredicate>& out) const {
    if (between.negated) return;
    std::optional<DocumentPath> path = ItemPath(*between.value);
    const json::Value* low = Constant(*between.low);
    const json::Value* high = Constant(*between.high);
    if (!path || low == nullptr || high == nullptr || !IsRangeBound(*low) ||
        low->type() != high->type()) {
      return;
    }
    PathPredicate predicate;
    predicate.kind = PathPredicate::Kind::kRange;
    predicate.path = std::move(*path);
    predicate.low = *low;
    predicate.high = *high;
    predicate.low_inclusive = predicate.high_inclusive = true;
    out.push_back(std::move(predicate));
  }

  void AddIn(const ast::InExpr& in, std::vector<PathPredicate>& out) const {
    if (in.negated) return;
    std::optional<DocumentPath> path = ItemPath(*in.value);
    if (!path) return;
    PathPredicate predicate;
    predicate.path = std::move(*path);
    for (const ast::ExprPtr& element : in.list) {
      const json::Value* value = Constant(*element);
      if (value == nullptr) return;
      // A non-scalar never equals a scalar path value, so it can be left out; an IN
      // whose only candidates are non-scalars matches nothing the index holds.
      if (IsScalar(*value)) predicate.values.push_back(*value);
    }
    out.push_back(std::move(predicate));
  }

  void AddCall(const ast::CallExpr& call, std::vector<PathPredicate>& out) const {
    if (call.is_udf || call.args.size() < 2) return;
    if (std::optional<PathPredicate> spatial = SpatialRegionPredicate(call, ItemPathOf())) {
      out.push_back(std::move(*spatial));
      return;
    }
    if (std::optional<PathPredicate> full_text = FullTextPredicate(call)) {
      out.push_back(std::move(*full_text));
      return;
    }
    const bool case_sensitive = call.args.size() == 2 || (Constant(*call.args[2]) != nullptr &&
                                                          Constant(*call.args[2])->is_bool() &&
                                                          !Constant(*call.args[2])->as_bool());
    if (!case_sensitive) return;
    std::optional<DocumentPath> path = ItemPath(*call.args[0]);
    const json::Value* value = Constant(*call.args[1]);
    if (!path || value == nullptr) return;
    PathPredicate predicate;
    predicate.path = std::move(*path);
    if (EqualsIgnoringCase(call.name, "STARTSWITH") && value->is_string()) {
      predicate.kind = PathPredicate::Kind::kPrefix;
      predicate.prefix = value->as_string();
    } else if (EqualsIgnoringCase(call.name, "ARRAY_CONTAINS") && IsScalar(*value)) {
      predicate.path.emplace_back("[]");
      predicate.values.push_back(*value);
    } else {
      return;
    }
    out.push_back(std::move(predicate));
  }

  // FullTextContains(path, "a b"), FullTextContainsAll(path, t1, ...) and
  // FullTextContainsAny(path, t1, ...), or their "_" twins whose first argument is the
  // path's language (full_text_references.h). Fuzzy terms ({"term", "distance"}) match
  // words of other stems: a call that needs one to match has no predicate, and one of
  // FullTextContainsAll leaves it out (the others are necessary anyway).
  std::optional<PathPredicate> FullTextPredicate(const ast::CallExpr& call) const {
    std::string_view name = call.name;
    const size_t first = !name.empty() && name[0] == '_' ? 1 : 0;
    name.remove_prefix(first);
    const bool any = EqualsIgnoringCase(name, "FullTextContainsAny");
    if (!any && !EqualsIgnoringCase(name, "FullTextContainsAll") &&
        !EqualsIgnoringCase(name, "FullTextContains")) {
      return std::nullopt;
    }
    if (call.args.size() < first + 2) return std::nullopt;
    std::optional<DocumentPath> path = ItemPath(*call.args[first]);
    if (!path || ThroughArrayElements(*path)) return std::nullopt;
    PathPredicate predicate;
    predicate.kind = PathPredicate::Kind::kFullText;
    predicate.path = std::move(*path);
    predicate.any_term = any;
    for (size_t i = first + 1; i < call.args.size(); ++i) {
      const json::Value* term = Constant(*call.args[i]);
      if (term == nullptr || !term->is_string()) {
        if (any) return std::nullopt;
        continue;
      }
      predicate.terms.push_back(term->as_string());
    }
    if (predicate.terms.empty()) return std::nullopt;
    return predicate;
  }

  // A BM25 score is above 0 only for a text that holds one of its terms (a phrase: its
  // words in a row, compared by stem, as FullTextContainsAny compares them), so
  // `_FullTextScore(path, [terms], ...) > s` with s >= 0 (or >= s with s > 0), the filter
  // of the SDK's ranking query of one FullTextScore, reads the candidates of
  // FullTextContainsAny(path, terms).
  std::optional<PathPredicate> PositiveScorePredicate(const ast::BinaryExpr& binary) const {
    BinaryOp op = binary.op;
    const ast::Expr* score = binary.left.get();
    const json::Value* bound = Constant(*binary.right);
    if (score->kind != ExprKind::kCall) {
      score = binary.right.get();
      bound = Constant(*binary.left);
      op = Mirror(op);
    }
    if (score->kind != ExprKind::kCall || bound == nullptr || !bound->is_number()) {
      return std::nullopt;
    }
    const double s = bound->as_double();
    if (!(op == BinaryOp::kGreater && s >= 0) && !(op == BinaryOp::kGreaterEqual && s > 0)) {
      return std::nullopt;
    }
    const auto& call = As<ast::CallExpr>(*score);
    if (call.is_udf || !EqualsIgnoringCase(call.name, "_FullTextScore")) return std::nullopt;
    return ScoreTermsPredicate(call);
  }

  // ORDER BY RANK FullTextScore(path, terms): the ranking leaves out the texts it scores
  // 0 (rank_plan.h), those that hold none of the terms. Not with RRF, which ranks them.
  std::optional<PathPredicate> RankedFullTextPredicate() const {
    if (!query_.order_by_rank || query_.order_by.size() != 1) return std::nullopt;
    const ast::Expr& key = *query_.order_by.front().expr;
    if (key.kind != ExprKind::kCall) return std::nullopt;
    const auto& call = As<ast::CallExpr>(key);
    if (call.is_udf || (!EqualsIgnoringCase(call.name, "FullTextScore") &&
                        !EqualsIgnoringCase(call.name, "_FullTextScore"))) {
      return std::nullopt;
    }
    return ScoreTermsPredicate(call);
  }

  // The terms of FullTextScore(path, t1, t2, ...), FullTextScore(path, [t1, ...]) or
  // _FullTextScore(path, [t1, ...], statistics...), as a FullTextContainsAny predicate.
  std::optional<PathPredicate> ScoreTermsPredicate(const ast::CallExpr& call) const {
    if (call.args.size() < 2) return std::nullopt;
    std::optional<DocumentPath> path = ItemPath(*call.args[0]);
    if (!path || ThroughArrayElements(*path)) return std::nullopt;
    const bool statistics = call.name.front() == '_';
    const size_t last = statistics ? 2 : call.args.size();
    PathPredicate predicate;
    predicate.kind = PathPredicate::Kind::kFullText;
    predicate.path = std::move(*path);
    predicate.any_term = true;
    for (size_t i = 1; i < last; ++i) {
      const std::optional<json::Value> term = ConstantValue(*call.args[i]);
      if (!term) return std::nullopt;
      if (term->is_string()) {
        predicate.terms.push_back(term->as_string());
        continue;
      }
      if (!term->is_array() || (!statistics && call.args.size() != 2)) return std::nullopt;
      for (const json::Value& t : term->as_array()) {
        if (!t.is_string()) return std::nullopt;
        predicate.terms.push_back(t.as_string());
      }
    }
    if (predicate.terms.empty()) return std::nullopt;
    return predicate;
  }

  static bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
      return std::toupper(static_cast<unsigned char>(x)) ==
             std::toupper(static_cast<unsigned char>(y));
    });
  }

  const BoundQuery& bound_;
  const ast::Query& query_;
  int item_slot_ = -1;
};

}  // namespace

AccessShape BuildAccessShape(const BoundQuery& bound) { return ShapeBuilder(bound).Build(); }

}  // namespace orrery::query
