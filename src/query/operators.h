#pragma once

// The value semantics of the query language's operators (query-language.md §4.1-§4.4).
// Every function is total: a type mismatch gives undefined, never an error.

#include <optional>

#include "json/value.h"
#include "query/ast.h"

namespace orrery::query {

// A number built from a double result: integral results of integer operands stay
// integers (so they print and test as integers), everything else is a double.
json::Value MakeNumber(double d, bool integral_operands);

// Arithmetic, bitwise, comparison, equality and || operators. AND, OR and ?? are not
// here: they need their operands' evaluation order (see evaluator.cc).
json::Value ApplyBinary(ast::BinaryOp op, const json::Value& a, const json::Value& b);

// -, +, ~, NOT.
json::Value ApplyUnary(ast::UnaryOp op, const json::Value& a);

// Three-valued logic; a non-boolean operand counts as undefined.
json::Value LogicalAnd(const json::Value& a, const json::Value& b);
json::Value LogicalOr(const json::Value& a, const json::Value& b);
json::Value LogicalNot(const json::Value& a);

// `=` (and, negated, `!=`): undefined if either side is undefined or the two are of
// different JSON types, as the service answers (`c.v != 1` matches no string, null or
// missing v) and the docs' equality table says; deep equality otherwise.
json::Value Equal(const json::Value& a, const json::Value& b);

// The equality of `x IN (...)`: a membership test, false for values of different types,
// undefined only when a side is undefined.
json::Value InListEqual(const json::Value& a, const json::Value& b);

// `<`-family comparison, defined only for two numbers, two strings or two booleans;
// returns the sign of a - b, or nullopt (undefined result) for anything else,
// including null with null.
std::optional<int> CompareScalars(const json::Value& a, const json::Value& b);

// Exactly boolean true: what WHERE keeps and what ?: and IIF take the first branch on.
inline bool IsTrue(const json::Value& v) { return v.is_bool() && v.as_bool(); }

}  // namespace orrery::query
