#pragma once

// Custom date-time format strings, the formatter behind DATETIMEFORMAT
// (query-language.md §5.7). The service's page lists no specifiers; its examples
// ("yyyyMMdd", "yyyy-MM-dd [HH:mm:ss]", backslash escapes, "fff" and "FFF") follow
// .NET's custom date and time format strings, so this reads every specifier of those
// in the invariant culture and in UTC. Internal to the built-in functions.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace orrery::query::functions_internal {

// A UTC date and time, already split into its calendar fields.
struct DateTimeFields {
  int64_t year;         // 1-9999
  int64_t month;        // 1-12
  int64_t day;          // 1-31
  int64_t hour;         // 0-23
  int64_t minute;       // 0-59
  int64_t second;       // 0-59
  int64_t fraction;     // 100 ns units into the second, 0-9999999
  int64_t day_of_week;  // 0 = Sunday ... 6 = Saturday
};

// `fields` written as `format` says, or nullopt when the format is malformed (more
// than seven f or F, an unterminated quote, a trailing backslash, a lone or doubled %).
std::optional<std::string> FormatDateTimeFields(const DateTimeFields& fields,
                                                std::string_view format);

}  // namespace orrery::query::functions_internal
