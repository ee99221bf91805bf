#pragma once

// The built-in function table (query-language.md §5). Scalar functions are total:
// a wrong-typed or undefined argument gives undefined (§4.1); only the type checks
// always return a boolean. A wrong number of arguments is a compile-time error that
// the binder reports from min_args/max_args.

#include <cstdint>
#include <span>
#include <string_view>

#include "json/value.h"

namespace orrery::query {

using ScalarFunction = json::Value (*)(std::span<const json::Value* const> args);

enum class AggregateKind : uint8_t { kNone, kCount, kSum, kAvg, kMin, kMax };

struct FunctionInfo {
  std::string_view name;  // canonical spelling
  int min_args;
  int max_args;           // kVariadic: no upper bound
  ScalarFunction scalar;  // null for aggregates
  AggregateKind aggregate;

  static constexpr int kVariadic = -1;
  bool is_aggregate() const { return aggregate != AggregateKind::kNone; }
};

// The built-in named `name`, matched case-insensitively; nullptr if there is none.
// The result points into a static table.
const FunctionInfo* FindFunction(std::string_view name);

}  // namespace orrery::query
