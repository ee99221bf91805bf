#pragma once

// Parsing and writing JSON text.

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "json/value.h"

namespace orrery::json {

struct ParseOptions {
  // Cosmos DB allows 128 levels of nested objects/arrays in an item: the arrays and
  // objects that enclose any value, the item's own object included, number at most
  // this many (`{"a":[1]}` is 2 deep), whatever the innermost value is.
  int max_depth = 128;
  // When set and the text is an object: only these top-level members (a sorted list)
  // are converted, and the others are skipped without full validation, so use it only
  // on texts validated before (stored items). A query that reads a few members of each
  // item pays for those only.
  const std::vector<std::string>* only_members = nullptr;
};

// Parses one complete JSON text (UTF-8 validated). Errors are BadRequest with a
// message that says what is wrong and where.
Result<Value> Parse(std::string_view text, ParseOptions options = {});

// Compact JSON. Numbers print like JavaScript's Number.prototype.toString (shortest
// round-trip digits; integers without a fraction), strings keep non-ASCII as UTF-8.
std::string Write(const Value& value);
void AppendTo(std::string& out, const Value& value);
// Appends a quoted, escaped JSON string.
void AppendQuoted(std::string& out, std::string_view s);
// Appends a number formatted as above.
void AppendNumber(std::string& out, double d);

}  // namespace orrery::json
