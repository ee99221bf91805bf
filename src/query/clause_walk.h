#pragma once

// The walk every pass over a bound query's clauses shares (computed_references.h,
// vector_references.h, full_text_references.h, rank_plan.h): the top expression of each
// clause in order — SELECT VALUE or the SELECT items, the FROM sources (and, with the
// same visit, the clauses of a FROM subquery), WHERE, GROUP BY, ORDER BY. A subquery
// inside an expression is the visitor's to walk.

#include <functional>

#include "common/status.h"
#include "query/ast.h"

namespace orrery::query {

// `sort` is the ORDER BY item of `expr`, null for the other clauses. Stops at the first
// error `visit` returns.
using ClauseVisit = std::function<Status(ast::Expr& expr, ast::SortItem* sort)>;
Status ForEachClauseExpr(ast::Query& query, const ClauseVisit& visit);

}  // namespace orrery::query
