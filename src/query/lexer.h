#pragma once

// Lexer: turns a query text into tokens. Keywords are case-insensitive except true,
// false, null, undefined and udf, which must be lowercase (query-language.md §2);
// `--` starts a comment that runs to the end of the line.

#include <string_view>
#include <vector>

#include "common/status.h"
#include "query/token.h"

namespace orrery::query {

// All tokens of `text`, ending with one kEnd token positioned at the end of the text.
// Tokens hold views into `text`, valid while it is.
// Errors: BadRequest in the service's shape (SC1001) at a character that starts no
// token, an unterminated string, a bad escape or an unescaped control character.
Result<std::vector<Token>> Lex(std::string_view text);

}  // namespace orrery::query
