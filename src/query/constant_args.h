#pragma once

// What the search functions' resolution passes (vector_references.h,
// full_text_references.h, rank_plan.h) read from a bound query before it runs: the
// value of an argument known in advance, and the item path an argument names.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.h"
#include "query/ast.h"

namespace orrery::query {

// The value of `expr` when it does not depend on the item: a literal, a parameter, an
// array or object constructor of those, a negated number. nullopt otherwise.
std::optional<json::Value> ConstantValue(const ast::Expr& expr);

// The path of `expr` below the root item's alias (`c.a.b` → {"a", "b"}), or nullopt.
std::optional<std::vector<std::string>> RootPath(const ast::Expr& expr, int root_slot);

// Whether `expr` is a call of the built-in named `name` (after binding).
bool IsCallOf(const ast::Expr& expr, std::string_view name);

// The slot of the alias bound to the whole item (`FROM c`), or -2 when none is.
int RootSlot(const ast::Query& query);

}  // namespace orrery::query
