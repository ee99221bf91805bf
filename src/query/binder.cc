#include "query/binder.h"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "common/stack.h"
#include "query/errors.h"
#include "query/functions.h"
#include "query/unicode.h"
#include "query/vector_references.h"

namespace orrery::query {
namespace {

using ast::ExprPtr;

// Where an expression appears; aggregates are allowed only directly in SELECT.
enum class Clause : uint8_t { kFrom, kWhere, kSelect, kGroupBy, kOrderBy, kAggregateArgument };

class Binder {
 public:
  Binder(std::string_view text, const std::vector<Parameter>& parameters)
      : text_(text), parameters_(parameters) {}

  Result<BoundQuery> Run(std::unique_ptr<ast::Query> query) {
    // The top-level aliases keep slots 1..n (binder.h); subqueries number theirs after.
    next_slot_ = static_cast<int>(query->from.size()) + 1;
    ORRERY_RETURN_IF_ERROR(BindBody(*query));
    bound_.slot_count = next_slot_;
    bound_.query = std::move(query);
    return std::move(bound_);
  }

 private:
  // A binder for a subquery of `parent`: it sees the parent's aliases (correlation,
  // query-language.md §4.6) and shares its slot space and parameters. With
  // `container_source` its first FROM source names the container, as at the top level
  // (the subquery is the first FROM source of the top-level query).
  Binder(Binder& parent, bool container_source)
      : text_(parent.text_),
        parameters_(parent.parameters_),
        parent_(&parent),
        root_(parent.root_),
        container_source_(container_source) {}

  Status BindBody(ast::Query& q) {
    if (StackExhausted()) {
      return Error(q.range, kSemanticError, kStackExhaustedMessage);
    }
    ORRERY_RETURN_IF_ERROR(BindFrom(q));
    ORRERY_RETURN_IF_ERROR(BindSelect(q));
    if (q.where) {
      ORRERY_RETURN_IF_ERROR(BindExpr(q.where, Clause::kWhere));
    }
    for (ExprPtr& key : q.group_by) {
      ORRERY_RETURN_IF_ERROR(BindExpr(key, Clause::kGroupBy));
    }
    ORRERY_RETURN_IF_ERROR(BindOrderBy(q));
    ORRERY_RETURN_IF_ERROR(BindAggregation(q));
    return BindCounts(q);
  }

  Status Error(SourceRange range, std::string_view code, std::string_view message) const {
    return QueryError(text_, range, code, message);
  }
  // `what` names the feature with its verb: "Subqueries are", "ORDER BY RANK is".
  Status Unsupported(SourceRange range, std::string_view what) const {
    return Error(range, kNotSupported,
                 std::string(what) + " not supported by this Orrery version.");
  }
  std::string_view Text(SourceRange range) const {
    return text_.substr(range.start, range.end - range.start);
  }

  // ---- FROM ----

  Status BindFrom(ast::Query& q) {
    for (size_t i = 0; i < q.from.size(); ++i) {
      ast::FromSource& source = q.from[i];
      const bool names_container = i == 0 && (parent_ == nullptr || container_source_);
      if (ast::IsSubquerySource(source)) {
        ORRERY_RETURN_IF_ERROR(BindSourceSubquery(source, names_container));
      } else if (names_container) {
        // The first identifier names the container, whatever it is called.
        RootIdentifier(*source.collection).slot = kItemSlot;
      } else {
        ORRERY_RETURN_IF_ERROR(BindExpr(source.collection, Clause::kFrom));
      }
      for (const auto& [name, slot] : scope_) {
        if (name == source.alias) {
          return Error(source.alias_range, kSemanticError,
                       "The alias '" + source.alias + "' is used more than once.");
        }
      }
      source.slot = parent_ == nullptr ? static_cast<int>(i) + 1 : root_->next_slot_++;
      scope_.emplace_back(source.alias, source.slot);
    }
    return Status::Ok();
  }

  // `(SELECT ...) AS x` binds x to each value the subquery yields; `x IN (SELECT ...)`
  // to each element of each array value it yields (subquery.cc, IterateElements). The
  // service's docs show `x IN (SELECT ...)` only after JOIN and say nothing of scoping,
  // so both forms are bound alike: the subquery sees the aliases of the sources before
  // it (correlation), not its own alias, and either may be the first source, which the
  // SDK grammar allows (collection = "(" query ")"). As the first source of the
  // top-level query it runs once per item, its own first source naming the container;
  // results that need every item first (aggregates, DISTINCT, ORDER BY, TOP, OFFSET)
  // would need a two-stage pipeline.
  Status BindSourceSubquery(ast::FromSource& source, bool names_container) {
    ORRERY_ASSIGN_OR_RETURN(source.bound_subquery, BindSubquery(*source.subquery, names_container));
    const BoundSubquery& sub = *source.bound_subquery;
    if (names_container && (sub.is_aggregate || sub.query->select.distinct ||
                            !sub.query->order_by.empty() || sub.top || sub.offset)) {
      return Unsupported(source.range,
                         "Subqueries over the container that aggregate, sort, de-duplicate or "
                         "page are");
    }
    return Status::Ok();
  }

  // Binds `q` as a subquery of this query; the result lives in the top-level BoundQuery.
  Result<const BoundSubquery*> BindSubquery(ast::Query& q, bool container_source) {
    Binder child(*this, container_source);
    ORRERY_RETURN_IF_ERROR(child.BindBody(q));
    auto sub = std::make_unique<BoundSubquery>();
    sub->query = &q;
    sub->slot_count = root_->next_slot_;
    sub->aggregates = std::move(child.bound_.aggregates);
    sub->is_aggregate = child.bound_.is_aggregate;
    sub->is_correlated = child.correlated_;
    sub->top = child.bound_.top;
    sub->offset = child.bound_.offset;
    sub->limit = child.bound_.limit;
    const BoundSubquery* result = sub.get();
    root_->bound_.subqueries.push_back(std::move(sub));
    return result;
  }

  static ast::IdentifierExpr& RootIdentifier(ast::Expr& collection) {
    ast::Expr* e = &collection;
    while (e->kind != ast::ExprKind::kIdentifier) {
      e = e->kind == ast::ExprKind::kProperty ? ast::As<ast::PropertyExpr>(*e).object.get()
                                              : ast::As<ast::IndexExpr>(*e).object.get();
    }
    return ast::As<ast::IdentifierExpr>(*e);
  }

  // ---- SELECT ----

  Status BindSelect(ast::Query& q) {
    ast::SelectClause& select = q.select;
    switch (select.kind) {
      case ast::SelectKind::kStar:
        if (q.from.empty()) {
          return Error(select.range, kSemanticError,
                       "'SELECT *' is not valid if FROM clause is omitted.");
        }
        if (q.from.size() > 1) {
          return Error(select.range, kSemanticError,
                       "'SELECT *' is only valid with a single input set.");
        }
        return Status::Ok();
      case ast::SelectKind::kValue:
        return BindExpr(select.value, Clause::kSelect);
      case ast::SelectKind::kList:
        break;
    }
    int unnamed = 0;
    for (size_t i = 0; i < select.items.size(); ++i) {
      ast::SelectItem& item = select.items[i];
      ORRERY_RETURN_IF_ERROR(BindExpr(item.expr, Clause::kSelect));
      item.output_name = OutputName(item, unnamed);
      for (size_t j = 0; j < i; ++j) {
        if (select.items[j].output_name == item.output_name) {
          return Error(
              item.range, kSemanticError,
              "Duplicate output property name '" + item.output_name + "' in the SELECT list.");
        }
      }
    }
    return Status::Ok();
  }

  // The alias, else the last path segment (c.address.city -> city), else $1, $2, ...
  // numbered among the unnamed items (query-language.md §3).
  static std::string OutputName(const ast::SelectItem& item, int& unnamed) {
    if (item.alias) {
      return *item.alias;
    }
    if (item.expr->kind == ast::ExprKind::kIdentifier) {
      return ast::As<ast::IdentifierExpr>(*item.expr).name;
    }
    if (item.expr->kind == ast::ExprKind::kProperty) {
      return ast::As<ast::PropertyExpr>(*item.expr).name;
    }
    return "$" + std::to_string(++unnamed);
  }

  // ---- ORDER BY ----

  Status BindOrderBy(ast::Query& q) {
    if (q.order_by.empty()) {
      return Status::Ok();
    }
    if (q.order_by_rank) {
      // Its score function is checked with the ranking (rank_plan.h).
      return BindExpr(q.order_by.front().expr, Clause::kOrderBy);
    }
    if (!q.group_by.empty()) {
      return Error(q.order_by.front().expr->range, kSemanticError,
                   "'ORDER BY' is not supported in presence of GROUP BY.");
    }
    for (ast::SortItem& item : q.order_by) {
      ORRERY_RETURN_IF_ERROR(BindExpr(item.expr, Clause::kOrderBy));
      // A similarity score: VectorDistance, or the BM25 score of a hybrid query's
      // per-range query (rank_plan.h), which keeps the direction it is given.
      if (IsVectorDistanceCall(*item.expr) || IsFullTextScoreWithStatistics(*item.expr)) {
        if (q.order_by.size() > 1) {
          return Error(item.expr->range, kSemanticError,
                       "A score must be the only item of an ORDER BY clause.");
        }
        item.ranks_by_score = true;
        continue;
      }
      // The service sorts through the index, so a key must be a document path.
      if (!ast::IsPropertyPath(*item.expr)) {
        return Error(item.expr->range, kOrderByNotAPath,
                     "ORDER BY item expression could not be mapped to a document path.");
      }
    }
    return Status::Ok();
  }

  // ---- Aggregates and GROUP BY ----

  Status BindAggregation(ast::Query& q) {
    bound_.is_aggregate = !bound_.aggregates.empty() || !q.group_by.empty();
    if (!bound_.is_aggregate) {
      return Status::Ok();
    }
    if (q.select.kind == ast::SelectKind::kStar) {
      return Error(q.select.range, kSemanticError,
                   "'SELECT *' is not valid with GROUP BY or aggregate functions.");
    }
    for (ExprPtr* expr : SelectExpressions(q.select)) {
      MarkGroupKeys(**expr, q.group_by);
      ORRERY_RETURN_IF_ERROR(CheckNoRowReference(**expr));
    }
    return Status::Ok();
  }

  static std::vector<ExprPtr*> SelectExpressions(ast::SelectClause& select) {
    std::vector<ExprPtr*> exprs;
    if (select.kind == ast::SelectKind::kValue) {
      exprs.push_back(&select.value);
    }
    for (ast::SelectItem& item : select.items) {
      exprs.push_back(&item.expr);
    }
    return exprs;
  }

  static void MarkGroupKeys(ast::Expr& expr, const std::vector<ExprPtr>& keys) {
    for (size_t k = 0; k < keys.size(); ++k) {
      if (ast::SameExpr(expr, *keys[k])) {
        expr.group_key = static_cast<int>(k);
        return;
      }
    }
    if (IsAggregateCall(expr)) {
      return;
    }
    ast::VisitChildren(expr, [&](ExprPtr& child) { MarkGroupKeys(*child, keys); });
  }

  static bool IsAggregateCall(const ast::Expr& expr) {
    return expr.kind == ast::ExprKind::kCall && ast::As<ast::CallExpr>(expr).aggregate >= 0;
  }

  // Outside aggregates and GROUP BY keys, a grouped SELECT may not read the row.
  Status CheckNoRowReference(ast::Expr& expr) const {
    if (expr.group_key >= 0 || IsAggregateCall(expr)) {
      return Status::Ok();
    }
    if (ast::IsPropertyPath(expr)) {
      return Error(expr.range, kSemanticError,
                   "Property reference '" + std::string(Text(expr.range)) +
                       "' is invalid in the select list because it is not contained in either "
                       "an aggregate function or the GROUP BY clause.");
    }
    // The projection of a group has no row for a correlated subquery to read.
    if (expr.kind == ast::ExprKind::kSubquery &&
        ast::As<ast::SubqueryExpr>(expr).bound->is_correlated) {
      return Error(expr.range, kSemanticError,
                   "A subquery that refers to the row is invalid in the select list because it "
                   "is not contained in either an aggregate function or the GROUP BY clause.");
    }
    Status status;
    ast::VisitChildren(expr, [&](ExprPtr& child) {
      if (status.ok()) {
        status = CheckNoRowReference(*child);
      }
    });
    return status;
  }

  // ---- TOP, OFFSET, LIMIT ----

  Status BindCounts(ast::Query& q) {
    if (q.select.top && q.offset) {
      return Error(q.select.top->range, kSemanticError,
                   "TOP cannot be combined with OFFSET LIMIT in the same query.");
    }
    if (q.select.top) {
      ORRERY_ASSIGN_OR_RETURN(bound_.top, Count(*q.select.top, "TOP"));
    }
    if (q.offset) {
      ORRERY_ASSIGN_OR_RETURN(bound_.offset, Count(*q.offset, "OFFSET"));
      ORRERY_ASSIGN_OR_RETURN(bound_.limit, Count(*q.limit, "LIMIT"));
    }
    return Status::Ok();
  }

  // A literal (the parser admits only non-negative integers) or a parameter whose
  // value must be a non-negative integer.
  Result<int64_t> Count(ast::Expr& expr, std::string_view clause) {
    if (expr.kind == ast::ExprKind::kLiteral) {
      return ast::As<ast::LiteralExpr>(expr).value.as_int();
    }
    auto& parameter = ast::As<ast::ParameterExpr>(expr);
    ORRERY_RETURN_IF_ERROR(BindParameter(parameter));
    const json::Value& v = parameter.value;
    if (v.is_integer() && v.as_int() >= 0) {
      return v.as_int();
    }
    if (v.is_number() && v.as_double() >= 0 && std::trunc(v.as_double()) == v.as_double() &&
        v.as_double() < 9.2e18) {
      return static_cast<int64_t>(v.as_double());
    }
    return Error(expr.range, kSemanticError,
                 "The " + std::string(clause) + " value must be a non-negative integer.");
  }

  // ---- Expressions ----

  Status BindExpr(ExprPtr& expr, Clause clause) {
    if (StackExhausted()) {
      return Error(expr->range, kSemanticError, kStackExhaustedMessage);
    }
    switch (expr->kind) {
      case ast::ExprKind::kIdentifier:
        return BindIdentifier(expr);
      case ast::ExprKind::kParameter:
        return BindParameter(ast::As<ast::ParameterExpr>(*expr));
      case ast::ExprKind::kCall:
        return BindCall(ast::As<ast::CallExpr>(*expr), clause);
      case ast::ExprKind::kSubquery:
        return BindExprSubquery(ast::As<ast::SubqueryExpr>(*expr), clause);
      case ast::ExprKind::kLike: {
        const auto& like = ast::As<ast::LikeExpr>(*expr);
        if (like.escape && Utf16Length(*like.escape) != 1) {
          return Error(expr->range, kSemanticError,
                       "The ESCAPE argument of LIKE must be a single character.");
        }
        break;
      }
      default:
        break;
    }
    return BindChildren(*expr, clause);
  }

  Status BindChildren(ast::Expr& expr, Clause clause) {
    Status status;
    ast::VisitChildren(expr, [&](ExprPtr& child) {
      if (status.ok()) {
        status = BindExpr(child, clause);
      }
    });
    return status;
  }

  // Aggregates may not take subqueries (the message is the service's), and GROUP BY
  // keys may not be subqueries (query-language.md §4.8).
  Status BindExprSubquery(ast::SubqueryExpr& subquery, Clause clause) {
    if (clause == Clause::kAggregateArgument) {
      return Error(subquery.range, kSemanticError,
                   "Cannot perform an aggregate function on an expression containing an "
                   "aggregate or a subquery.");
    }
    if (clause == Clause::kGroupBy) {
      return Error(subquery.range, kSemanticError,
                   "Subqueries are not allowed in the GROUP BY clause.");
    }
    ORRERY_ASSIGN_OR_RETURN(subquery.bound, BindSubquery(*subquery.query, false));
    return Status::Ok();
  }

  // The slot of the alias `name` in this query or, for a subquery, an enclosing one
  // (which makes the subquery correlated); -1 when no alias has that name. Inner
  // aliases hide outer ones of the same name.
  int Resolve(const std::string& name) {
    for (const auto& [alias, slot] : scope_) {
      if (alias == name) {
        return slot;
      }
    }
    if (parent_ == nullptr) {
      return -1;
    }
    const int slot = parent_->Resolve(name);
    if (slot >= 0) {
      correlated_ = true;
    }
    return slot;
  }

  Status BindIdentifier(ExprPtr& expr) {
    auto& identifier = ast::As<ast::IdentifierExpr>(*expr);
    if (const int slot = Resolve(identifier.name); slot >= 0) {
      identifier.slot = slot;
      return Status::Ok();
    }
    // The service reads these bare words as numbers (query-language.md §2).
    if (identifier.name == "NaN" || identifier.name == "Infinity") {
      const double value = identifier.name == "NaN" ? std::numeric_limits<double>::quiet_NaN()
                                                    : std::numeric_limits<double>::infinity();
      expr = std::make_unique<ast::LiteralExpr>(expr->range, json::Value::Double(value));
      return Status::Ok();
    }
    return Error(expr->range, kUnresolvedIdentifier,
                 "Identifier '" + identifier.name + "' could not be resolved.");
  }

  // An unsupplied parameter is a 400 (query-language.md §2 recommends it; the service's
  // exact answer is not documented).
  Status BindParameter(ast::ParameterExpr& parameter) const {
    for (const Parameter& p : parameters_) {
      if (p.name == parameter.name) {
        parameter.value = p.value;
        return Status::Ok();
      }
    }
    return Error(parameter.range, kUnresolvedIdentifier,
                 "Identifier '" + parameter.name + "' could not be resolved.");
  }

  Status BindCall(ast::CallExpr& call, Clause clause) {
    if (call.is_udf) {
      // Resolved against the container's functions by Compile (user_functions.cc).
      root_->bound_.udf_calls.push_back(&call);
      return BindChildren(call, clause);
    }
    const FunctionInfo* function = FindFunction(call.name);
    if (function == nullptr) {
      return Error(call.name_range, kUnknownFunction,
                   "'" + call.name + "' is not a recognized built-in function name.");
    }
    const auto argc = static_cast<int>(call.args.size());
    if (argc < function->min_args ||
        (function->max_args != FunctionInfo::kVariadic && argc > function->max_args)) {
      return Error(call.range, kWrongArgumentCount, ArgumentCountMessage(*function));
    }
    call.function = function;
    call.now_ticks = root_->now_ticks_;
    if (!function->is_aggregate()) {
      return BindChildren(call, clause);
    }
    if (clause != Clause::kSelect) {
      return Error(call.range, kSemanticError,
                   clause == Clause::kAggregateArgument
                       ? "Cannot perform an aggregate function on an expression containing an "
                         "aggregate or a subquery."
                       : "Aggregate functions are only allowed in the SELECT clause.");
    }
    call.aggregate = static_cast<int>(bound_.aggregates.size());
    bound_.aggregates.push_back(&call);
    return BindChildren(call, Clause::kAggregateArgument);
  }

  // "The CONTAINS function requires 2 argument(s)." is the service's wording for a
  // fixed count; the wording for ranges is Orrery's.
  static std::string ArgumentCountMessage(const FunctionInfo& f) {
    std::string message = "The " + std::string(f.name) + " function requires ";
    if (f.max_args == FunctionInfo::kVariadic) {
      message += "at least " + std::to_string(f.min_args);
    } else if (f.min_args == f.max_args) {
      message += std::to_string(f.min_args);
    } else {
      message += std::to_string(f.min_args) + " to " + std::to_string(f.max_args);
    }
    return message + " argument(s).";
  }

  std::string_view text_;
  const std::vector<Parameter>& parameters_;
  std::vector<std::pair<std::string, int>> scope_;
  BoundQuery bound_;
  Binder* parent_ = nullptr;  // the enclosing query's binder, for a subquery
  Binder* root_ = this;       // the top-level binder: slot counter, subquery owner
  bool container_source_ = false;
  bool correlated_ = false;  // an identifier resolved in an enclosing query
  int next_slot_ = 1;        // top-level binder only: the next free slot
  // Top-level binder: the clock read once per query, so every row sees the same
  // GetCurrentDateTime() (query-language.md §5.7).
  const int64_t now_ticks_ = CurrentTicks();
};

}  // namespace

Result<BoundQuery> Bind(std::string_view text, std::unique_ptr<ast::Query> query,
                        const std::vector<Parameter>& parameters) {
  return Binder(text, parameters).Run(std::move(query));
}

}  // namespace orrery::query
