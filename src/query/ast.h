#pragma once

// The abstract syntax tree of a query, as the parser produces it. The binder then
// annotates it in place (fields marked "binder:"); after that it is immutable and
// shared by every evaluation.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json/value.h"

namespace orrery::script {
class UserFunction;
}  // namespace orrery::script
#include "query/token.h"

namespace orrery::query {
struct FunctionInfo;
struct BoundSubquery;
class ComputedProperty;
}  // namespace orrery::query

namespace orrery::query::ast {

enum class ExprKind : uint8_t {
  kLiteral,     // 1, "a", true, null, undefined
  kParameter,   // @p
  kIdentifier,  // an alias (or, at the start of the first FROM source, the container)
  kProperty,    // e.name, e["name"]
  kIndex,       // e[expr] where expr is not a string literal
  kUnary,
  kBinary,
  kBetween,      // e [NOT] BETWEEN lo AND hi
  kIn,           // e [NOT] IN (v, ...)
  kLike,         // e [NOT] LIKE pattern [ESCAPE 'c']
  kConditional,  // c ? a : b
  kArray,        // [e, ...]
  kObject,       // {name: e, ...}
  kCall,         // F(args), udf.F(args)
  kSubquery,     // (SELECT ...), EXISTS(SELECT ...), ARRAY(SELECT ...)
};

enum class UnaryOp : uint8_t { kNegate, kPlus, kBitNot, kNot };

enum class BinaryOp : uint8_t {
  kMultiply,
  kDivide,
  kModulo,
  kAdd,
  kSubtract,
  kShiftLeft,
  kShiftRight,
  kShiftRightZeroFill,
  kLess,
  kLessEqual,
  kGreater,
  kGreaterEqual,
  kEqual,
  kNotEqual,
  kBitAnd,
  kBitXor,
  kBitOr,
  kConcat,
  kAnd,
  kOr,
  kCoalesce,
};

struct Expr {
  Expr(ExprKind k, SourceRange r) : kind(k), range(r) {}
  virtual ~Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;

  const ExprKind kind;
  SourceRange range;
  // The longest path from this node down to a leaf (a literal, parameter or
  // identifier has height 0). The parser refuses trees above kMaxNestingDepth
  // (limits.h), which bounds the recursion of every walker of the tree.
  uint32_t height = 0;
  // binder: inside the SELECT of a GROUP BY query, the index of the GROUP BY key this
  // expression repeats (its value comes from the group, not from a row); else -1.
  int group_key = -1;
};
using ExprPtr = std::unique_ptr<Expr>;

// One more than the tallest of `children` (null children are skipped).
inline uint32_t HeightAbove(std::initializer_list<const Expr*> children) {
  uint32_t tallest = 0;
  for (const Expr* child : children) {
    if (child != nullptr && child->height > tallest) {
      tallest = child->height;
    }
  }
  return tallest + 1;
}
inline uint32_t HeightAbove(const std::vector<ExprPtr>& children) {
  uint32_t tallest = 0;
  for (const ExprPtr& child : children) {
    if (child->height > tallest) {
      tallest = child->height;
    }
  }
  return tallest + 1;
}

struct LiteralExpr : Expr {
  LiteralExpr(SourceRange r, json::Value v) : Expr(ExprKind::kLiteral, r), value(std::move(v)) {}
  json::Value value;
};

struct ParameterExpr : Expr {
  ParameterExpr(SourceRange r, std::string n) : Expr(ExprKind::kParameter, r), name(std::move(n)) {}
  std::string name;   // with the leading '@'
  json::Value value;  // binder: the supplied value
};

struct IdentifierExpr : Expr {
  IdentifierExpr(SourceRange r, std::string n)
      : Expr(ExprKind::kIdentifier, r), name(std::move(n)) {}
  std::string name;
  int slot = -1;  // binder: the binding slot (see binder.h)
};

struct PropertyExpr : Expr {
  PropertyExpr(SourceRange r, ExprPtr o, std::string n, bool q)
      : Expr(ExprKind::kProperty, r), object(std::move(o)), name(std::move(n)), quoted(q) {
    height = HeightAbove({object.get()});
  }
  ExprPtr object;
  std::string name;
  bool quoted;  // written e["name"] rather than e.name
  // Compile: when `object` is the root item's alias and `name` one of the container's
  // computed properties, its definition, evaluated over the item instead of a member.
  const ComputedProperty* computed = nullptr;
};

struct IndexExpr : Expr {
  IndexExpr(SourceRange r, ExprPtr o, ExprPtr i)
      : Expr(ExprKind::kIndex, r), object(std::move(o)), index(std::move(i)) {
    height = HeightAbove({object.get(), index.get()});
  }
  ExprPtr object;
  ExprPtr index;
};

struct UnaryExpr : Expr {
  UnaryExpr(SourceRange r, UnaryOp o, ExprPtr e)
      : Expr(ExprKind::kUnary, r), op(o), operand(std::move(e)) {
    height = HeightAbove({operand.get()});
  }
  UnaryOp op;
  ExprPtr operand;
};

struct BinaryExpr : Expr {
  BinaryExpr(SourceRange r, BinaryOp o, ExprPtr lhs, ExprPtr rhs)
      : Expr(ExprKind::kBinary, r), op(o), left(std::move(lhs)), right(std::move(rhs)) {
    height = HeightAbove({left.get(), right.get()});
  }
  BinaryOp op;
  ExprPtr left;
  ExprPtr right;
};

struct BetweenExpr : Expr {
  BetweenExpr(SourceRange r, ExprPtr v, ExprPtr lo, ExprPtr hi, bool neg)
      : Expr(ExprKind::kBetween, r),
        value(std::move(v)),
        low(std::move(lo)),
        high(std::move(hi)),
        negated(neg) {
    height = HeightAbove({value.get(), low.get(), high.get()});
  }
  ExprPtr value;
  ExprPtr low;
  ExprPtr high;
  bool negated;
};

struct InExpr : Expr {
  InExpr(SourceRange r, ExprPtr v, std::vector<ExprPtr> l, bool neg)
      : Expr(ExprKind::kIn, r), value(std::move(v)), list(std::move(l)), negated(neg) {
    height = std::max(HeightAbove({value.get()}), HeightAbove(list));
  }
  ExprPtr value;
  std::vector<ExprPtr> list;
  bool negated;
};

struct LikeExpr : Expr {
  LikeExpr(SourceRange r, ExprPtr v, ExprPtr p, std::optional<std::string> e, bool neg)
      : Expr(ExprKind::kLike, r),
        value(std::move(v)),
        pattern(std::move(p)),
        escape(std::move(e)),
        negated(neg) {
    height = HeightAbove({value.get(), pattern.get()});
  }
  ExprPtr value;
  ExprPtr pattern;
  std::optional<std::string> escape;  // the ESCAPE string literal's value
  bool negated;
};

struct ConditionalExpr : Expr {
  ConditionalExpr(SourceRange r, ExprPtr c, ExprPtr t, ExprPtr f)
      : Expr(ExprKind::kConditional, r),
        condition(std::move(c)),
        if_true(std::move(t)),
        if_false(std::move(f)) {
    height = HeightAbove({condition.get(), if_true.get(), if_false.get()});
  }
  ExprPtr condition;
  ExprPtr if_true;
  ExprPtr if_false;
};

struct ArrayExpr : Expr {
  ArrayExpr(SourceRange r, std::vector<ExprPtr> e)
      : Expr(ExprKind::kArray, r), elements(std::move(e)) {
    height = HeightAbove(elements);
  }
  std::vector<ExprPtr> elements;
};

struct ObjectExpr : Expr {
  ObjectExpr(SourceRange r, std::vector<std::pair<std::string, ExprPtr>> m)
      : Expr(ExprKind::kObject, r), members(std::move(m)) {
    uint32_t tallest = 0;
    for (const auto& member : members) {
      tallest = std::max(tallest, member.second->height);
    }
    height = tallest + 1;
  }
  std::vector<std::pair<std::string, ExprPtr>> members;
};

struct CallExpr : Expr {
  CallExpr(SourceRange r, std::string n, SourceRange nr, bool user, std::vector<ExprPtr> a)
      : Expr(ExprKind::kCall, r),
        name(std::move(n)),
        name_range(nr),
        is_udf(user),
        args(std::move(a)) {
    height = HeightAbove(args);
  }
  std::string name;  // as written
  SourceRange name_range;
  bool is_udf;
  std::vector<ExprPtr> args;
  const FunctionInfo* function = nullptr;  // binder: the built-in
  // Compile: the container's user-defined function a udf.<name> call runs (null: none
  // resolved, and the call gives undefined, as in a query plan).
  const script::UserFunction* udf = nullptr;
  int aggregate = -1;     // binder: for an aggregate call, its index in BoundQuery::aggregates
  int64_t now_ticks = 0;  // binder: the query's one clock reading, for GetCurrent*
};

struct Query;

enum class SubqueryKind : uint8_t { kScalar, kExists, kArray };

struct SubqueryExpr : Expr {
  SubqueryExpr(SourceRange r, SubqueryKind k, std::unique_ptr<Query> q);
  ~SubqueryExpr() override;
  SubqueryKind subquery_kind;
  std::unique_ptr<Query> query;
  // binder: how to run `query` (binder.h, subquery.h).
  const BoundSubquery* bound = nullptr;
};

// ---- Clauses ----

struct SelectItem {
  ExprPtr expr;
  std::optional<std::string> alias;
  SourceRange range;
  std::string output_name;  // binder: alias, last path segment, or "$n"
};

enum class SelectKind : uint8_t { kStar, kValue, kList };

struct SelectClause {
  bool distinct = false;
  ExprPtr top;  // a number literal or a parameter; null when absent
  SelectKind kind = SelectKind::kList;
  ExprPtr value;                  // kValue
  std::vector<SelectItem> items;  // kList
  SourceRange range;
};

enum class SourceKind : uint8_t {
  kCollection,       // collection [AS] alias: binds the value at a path
  kIterate,          // alias IN collection: binds each element of an array
  kSubquery,         // (query) [AS] alias: binds each value the subquery yields
  kIterateSubquery,  // alias IN (query): binds each element of each array it yields
};

struct FromSource {
  SourceKind kind = SourceKind::kCollection;
  // kCollection, kIterate: an identifier followed by .name, ["name"] and [n] steps. In
  // the first source the identifier names the container (any name); in a JOIN it is an
  // alias in scope. Null for the subquery kinds.
  ExprPtr collection;
  std::unique_ptr<Query> subquery;  // kSubquery, kIterateSubquery
  // binder: for the subquery kinds, how to run `subquery` (binder.h, subquery.h).
  const BoundSubquery* bound_subquery = nullptr;
  std::string alias;
  SourceRange alias_range;
  SourceRange range;
  int slot = -1;  // binder: where the alias is bound
};

// Whether the source's values come from running `subquery` (kSubquery, kIterateSubquery)
// rather than from evaluating `collection`.
inline bool IsSubquerySource(const FromSource& source) {
  return source.kind == SourceKind::kSubquery || source.kind == SourceKind::kIterateSubquery;
}

struct SortItem {
  ExprPtr expr;
  bool descending = false;
  // Binder: the key is a similarity score (VectorDistance), ranked most similar first
  // whatever the query says; rows without a score are left out (vector_references.h).
  bool ranks_by_score = false;
};

struct Query {
  SelectClause select;
  std::vector<FromSource> from;  // empty without FROM; then the FROM source, then JOINs
  ExprPtr where;
  std::vector<ExprPtr> group_by;
  std::vector<SortItem> order_by;
  bool order_by_rank = false;            // ORDER BY RANK score: order_by holds the one score
  bool order_by_rank_direction = false;  // ... followed by ASC or DESC (refused by the binder)
  ExprPtr offset;                        // number literal or parameter; both or neither with limit
  ExprPtr limit;
  SourceRange range;
  // The tallest expression of any clause or source, subqueries included (see
  // Expr::height); set by the parser.
  uint32_t height = 0;
};

// Renders an expression or a query as query text that parses back to the same tree:
// operators fully parenthesized, keywords upper case, names that are not identifiers
// in the ["name"] form. Used by tests and by diagnostics.
std::string ToString(const Expr& expr);
std::string ToString(const Query& query);

// Whether two expressions are the same tree (names, literals by value and type,
// operators); positions are ignored. Used to match SELECT items to GROUP BY keys.
bool SameExpr(const Expr& a, const Expr& b);

// Whether `expr` is an alias followed by property and index steps with constant keys
// (c, c.a, c.a["b"], c.a[0]), which is what ORDER BY accepts.
bool IsPropertyPath(const Expr& expr);

// Calls `fn` on each direct child expression slot of `expr`, in source order. The slot
// may be replaced (the binder turns the bare words NaN and Infinity into literals).
// Subquery bodies are not children: they have their own scope.
void VisitChildren(Expr& expr, const std::function<void(ExprPtr&)>& fn);

template <typename T>
const T& As(const Expr& e) {
  return static_cast<const T&>(e);
}
template <typename T>
T& As(Expr& e) {
  return static_cast<T&>(e);
}

}  // namespace orrery::query::ast
