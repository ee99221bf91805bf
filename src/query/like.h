#pragma once

// LIKE pattern matching (query-language.md §4.2): `%` matches any run of characters,
// `_` exactly one, `[abc]`, `[a-f]` one character in the set or range and `[^...]` one
// not in it. Inside brackets wildcards are literal; an optional escape character makes
// the next character literal. Matching is case-sensitive, over whole strings, by code
// point.

#include <optional>
#include <string_view>

namespace orrery::query {

bool LikeMatches(std::string_view text, std::string_view pattern, std::optional<char32_t> escape);

}  // namespace orrery::query
