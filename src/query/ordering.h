#pragma once

// How the query language orders, compares and de-duplicates values.
//
// ORDER BY sorts across types in the .NET SDK's CosmosElement order (query-language.md
// §4.10): undefined < null < boolean < number < string < array < object; within a type
// false < true, numbers numerically, strings by code point (= UTF-8 byte order).
// Arrays and objects are ordered by the service by a hash (grouped, order arbitrary);
// here they get a deterministic structural order that is consistent with equality.

#include <cstddef>

#include "json/value.h"

namespace orrery::query {

// Position of the value's type in the order above (undefined = 0 ... object = 6).
int TypeRank(const json::Value& value);

// Total order for ORDER BY, MIN/MAX and sorting: negative, zero or positive.
int CompareValues(const json::Value& a, const json::Value& b);

// Deep equality: numbers by value (1 = 1.0), objects regardless of member order;
// undefined equals only undefined. Agrees with CompareValues(a, b) == 0.
bool ValuesEqual(const json::Value& a, const json::Value& b);

// A hash consistent with ValuesEqual (for DISTINCT and GROUP BY).
size_t HashValue(const json::Value& value);

struct ValueHash {
  size_t operator()(const json::Value& v) const { return HashValue(v); }
};
struct ValueEqual {
  bool operator()(const json::Value& a, const json::Value& b) const { return ValuesEqual(a, b); }
};

}  // namespace orrery::query
