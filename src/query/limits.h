#pragma once

// The limits a query text must keep. Each one is enforced while parsing, so that no
// later stage (binder, planner, evaluator, the query plan for the SDK, ToString) ever
// sees a tree deeper than kMaxNestingDepth, and each stage's recursion stays far inside
// the stack of the threads that run requests (common/stack.h).

#include <cstddef>

namespace orrery::query {

// The service rejects longer query texts with SC3020 (query-language.md §6).
inline constexpr size_t kMaxQueryCharacters = 524288;

// The service allows at most 10 JOINs per query (query-language.md §4.12, §6).
inline constexpr size_t kMaxJoins = 10;

// The service's maxInExpressionItemsCount, which Orrery advertises in the account's
// queryEngineConfiguration as it does each limit it enforces.
inline constexpr size_t kMaxInListItems = 16000;

// How tall an expression tree may be: each operator, property or index step, function
// call, array or object literal and subquery stands one level above its operands
// (`1 + 1 + 1` is two levels deep, `ABS(ABS(x))` two). Runs of AND, OR, ?? and || are
// associative and are built as balanced trees, so a run of n terms is only about
// log2(n) levels deep: such chains evaluate at any length the text limit admits.
// SQLite draws the same line at 1,000 (SQLITE_MAX_EXPR_DEPTH).
inline constexpr size_t kMaxExpressionDepth = 1000;

// How deeply the text may nest: each parenthesis, function-call argument list, array
// or object literal, indexer, IN list, ternary branch, subquery and prefix operator
// (NOT, -, +, ~) is one level. Twice kMaxExpressionDepth, so that any tree within that
// limit, written back fully parenthesized (ast::ToString, the query plan's rewritten
// queries), parses again.
inline constexpr size_t kMaxNestingDepth = 2 * kMaxExpressionDepth;

}  // namespace orrery::query
