#pragma once

// Parser: a hand-written recursive-descent parser from query text to the AST
// (grammar and operator precedence: query-language.md §3).

#include <memory>
#include <string_view>

#include "common/status.h"
#include "query/ast.h"

namespace orrery::query {

// Parses a whole query. The tree does not refer to `text` after the call.
// Errors: BadRequest in the service's shape: SC1001 "incorrect syntax near '...'" at
// the first token that does not fit, SC1002 when the text ends too early.
Result<std::unique_ptr<ast::Query>> Parse(std::string_view text);

// Parses a lone scalar expression (for tests and computed-property definitions).
Result<ast::ExprPtr> ParseExpression(std::string_view text);

}  // namespace orrery::query
