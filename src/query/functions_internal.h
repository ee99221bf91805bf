#pragma once

// Internal to the built-in function files: each category file (functions_math.cc,
// functions_string.cc, functions_array.cc, functions_type.cc, functions_datetime.cc)
// exports its table, and functions.cc searches them. Also the helpers the categories
// share.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "json/value.h"
#include "query/functions.h"

namespace orrery::query::functions_internal {

using Args = std::span<const json::Value* const>;

// The tables; each returned span points into a static array.
std::span<const FunctionInfo> MathFunctions();
std::span<const FunctionInfo> StringFunctions();
std::span<const FunctionInfo> ArrayFunctions();
std::span<const FunctionInfo> TypeFunctions();
std::span<const FunctionInfo> DateTimeFunctions();
std::span<const FunctionInfo> SpatialFunctions();
std::span<const FunctionInfo> VectorFunctions();
std::span<const FunctionInfo> FullTextFunctions();

// The value as an int64 when it is a number with an exact int64 representation (what
// IS_INTEGER accepts), otherwise nullopt.
std::optional<int64_t> AsInt64(const json::Value& v);

// A numeric position or count argument truncated toward zero and clamped well inside
// int64 (NaN gives 0). REQUIRES: v.is_number().
int64_t ToCount(const json::Value& v);

// Ticks (100 ns since 1970-01-01) of an ISO 8601 UTC date-time string in the form the
// date functions accept (query-language.md §5.7), or nullopt.
std::optional<int64_t> ParseDateTime(std::string_view text);

}  // namespace orrery::query::functions_internal
