#pragma once

// Running subqueries (query-language.md §4.6): scalar `(SELECT ...)`, `EXISTS(...)`,
// `ARRAY(...)` and a subquery as a FROM or JOIN source. A subquery runs once per outer
// binding and sees the outer aliases (correlation). It goes through the whole pipeline
// of a query: FROM and JOIN, WHERE, projection or aggregation (with GROUP BY), ORDER BY,
// DISTINCT, OFFSET LIMIT and TOP.

#include <vector>

#include "json/value.h"
#include "query/ast.h"
#include "query/binder.h"
#include "query/evaluator.h"

namespace orrery::query {

// The values `subquery` yields for the bindings in `outer`, in result order. A run-time
// error inside it goes to outer.error.
// REQUIRES: the binder bound `subquery`; `outer` sets every outer slot it reads.
std::vector<json::Value> RunSubquery(const BoundSubquery& subquery, const Frame& outer);

// `(SELECT ...)`: the one value, undefined for none; several are a BadRequest recorded
// in frame.error (the value is then undefined). `EXISTS(...)`: whether it yields a
// value. `ARRAY(...)`: its values as an array ([] for none).
// REQUIRES: as for RunSubquery, with expr.bound set.
Cell EvaluateSubquery(const ast::SubqueryExpr& expr, const Frame& frame);

}  // namespace orrery::query
