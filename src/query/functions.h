#pragma once

// The built-in function table (query-language.md §5). Scalar functions are total:
// a wrong-typed or undefined argument gives undefined (§4.1); only the type checks
// always return a boolean. A wrong number of arguments is a compile-time error that
// the binder reports from min_args/max_args.
//
// The implementations live in one file per category (functions_math.cc,
// functions_string.cc, functions_array.cc, functions_type.cc, functions_datetime.cc).

#include <cstdint>
#include <span>
#include <string_view>

#include "json/value.h"

namespace orrery::query {

// What a call sees besides its arguments. The "current time" functions read the
// query's clock here, so every row of one query execution sees the same instant.
struct CallContext {
  int64_t now_ticks = 0;  // 100 ns units since 1970-01-01T00:00:00Z
};

using ScalarFunction = json::Value (*)(std::span<const json::Value* const> args);
using ContextFunction = json::Value (*)(std::span<const json::Value* const> args,
                                        const CallContext& context);

enum class AggregateKind : uint8_t { kNone, kCount, kSum, kAvg, kMin, kMax };

struct FunctionInfo {
  std::string_view name;  // canonical spelling
  int min_args;
  int max_args;           // kVariadic: no upper bound
  ScalarFunction scalar;  // null for aggregates and for functions of the context
  AggregateKind aggregate;
  ContextFunction with_context = nullptr;  // set instead of `scalar` when it needs one

  static constexpr int kVariadic = -1;
  bool is_aggregate() const { return aggregate != AggregateKind::kNone; }
};

// The built-in named `name`, matched case-insensitively; nullptr if there is none.
// The result points into a static table.
const FunctionInfo* FindFunction(std::string_view name);

// Calls a scalar built-in. REQUIRES: !function.is_aggregate().
json::Value CallFunction(const FunctionInfo& function, std::span<const json::Value* const> args,
                         const CallContext& context);

// The clock reading a query execution uses for its CallContext: now, in ticks.
int64_t CurrentTicks();

}  // namespace orrery::query
