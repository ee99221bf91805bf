#pragma once

// Binder: checks a parsed query against the language's rules and annotates the tree
// for evaluation: resolves aliases to slots, parameters to their values, function
// names to built-ins; numbers aggregates, names the SELECT items, matches SELECT
// expressions to GROUP BY keys, and evaluates TOP/OFFSET/LIMIT.

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "query/ast.h"
#include "query/query.h"

namespace orrery::query {

// Slot 0 holds the item being evaluated (what the container name in the first FROM
// source refers to); the alias of from[i] lives in slot i + 1.
inline constexpr int kItemSlot = 0;

// A subquery, in an expression or as a FROM source (query-language.md §4.6), as the
// binder leaves it. Its aliases take slots after those of the enclosing queries, in one
// slot space per top-level query, so a run copies the outer bindings and adds its own.
struct BoundSubquery {
  const ast::Query* query = nullptr;  // in the tree
  // Slots [0, slot_count) cover its aliases and those of the subqueries inside it.
  int slot_count = 1;
  std::vector<const ast::CallExpr*> aggregates;  // as in BoundQuery
  bool is_aggregate = false;
  bool is_correlated = false;  // reads an alias of an enclosing query
  std::optional<int64_t> top;
  std::optional<int64_t> offset;
  std::optional<int64_t> limit;
};

struct BoundQuery {
  std::unique_ptr<ast::Query> query;
  // Every slot, including those of subqueries.
  int slot_count = 1;
  // The aggregate calls of the SELECT clause, numbered by CallExpr::aggregate.
  std::vector<const ast::CallExpr*> aggregates;
  // Aggregates or GROUP BY: rows are folded into groups before projection.
  bool is_aggregate = false;
  std::optional<int64_t> top;
  std::optional<int64_t> offset;
  std::optional<int64_t> limit;
  // Owns the subqueries the tree's SubqueryExpr::bound and FromSource::bound_subquery
  // point to, at any depth.
  std::vector<std::unique_ptr<BoundSubquery>> subqueries;
  // The udf.<name> calls, at any depth, and the functions Compile resolved them to.
  std::vector<ast::CallExpr*> udf_calls;
  std::vector<std::shared_ptr<const script::UserFunction>> udfs;
};

// `text` is the query text `query` was parsed from (for error positions).
// Errors: BadRequest in the service's error shape (errors.h): unresolved identifiers
// and parameters (SC2001), unknown functions (SC2005), wrong argument counts (SC2050),
// ORDER BY keys that are not paths (2206), and features this version does not support.
Result<BoundQuery> Bind(std::string_view text, std::unique_ptr<ast::Query> query,
                        const std::vector<Parameter>& parameters);

}  // namespace orrery::query
