#pragma once

// Reads chosen top-level members of a JSON object text without parsing the rest: the
// other members are skipped by scanning for their ends (strings by their closing
// quote, objects and arrays by bracket depth), and only the wanted values are parsed.
// For texts validated before (stored items): the skipped parts are not validated.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.h"

namespace orrery::json {

// The object with only the members named in `wanted` (sorted), in text order, up to
// the first occurrence of the last of them to appear (later duplicates are not read:
// Value::Find finds the first); nullopt
// when the text is not an object, or has something this scanner leaves to the full
// parser (an escaped member name, a malformed part).
std::optional<Value> ParseTopLevelMembers(std::string_view text,
                                          const std::vector<std::string>& wanted);

}  // namespace orrery::json
