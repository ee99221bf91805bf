#include "query/functions.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "common/clock.h"
#include "query/functions_internal.h"

namespace orrery::query {
namespace functions_internal {

std::optional<int64_t> AsInt64(const json::Value& v) {
  if (v.is_integer()) {
    return v.as_int();
  }
  if (!v.is_number()) {
    return std::nullopt;
  }
  const double d = v.as_double();
  if (std::trunc(d) != d || d < -9223372036854775808.0 || d >= 9223372036854775808.0) {
    return std::nullopt;
  }
  return static_cast<int64_t>(d);
}

int64_t ToCount(const json::Value& v) {
  if (v.is_integer()) {
    return std::clamp<int64_t>(v.as_int(), std::numeric_limits<int64_t>::min() / 2,
                               std::numeric_limits<int64_t>::max() / 2);
  }
  const double d = std::trunc(v.as_double());
  if (std::isnan(d)) {
    return 0;
  }
  if (d >= 4.6e18) {
    return std::numeric_limits<int64_t>::max() / 2;
  }
  if (d <= -4.6e18) {
    return std::numeric_limits<int64_t>::min() / 2;
  }
  return static_cast<int64_t>(d);
}

}  // namespace functions_internal

namespace {

constexpr std::array kAggregates = {
    FunctionInfo{"COUNT", 1, 1, nullptr, AggregateKind::kCount},
    FunctionInfo{"SUM", 1, 1, nullptr, AggregateKind::kSum},
    FunctionInfo{"AVG", 1, 1, nullptr, AggregateKind::kAvg},
    FunctionInfo{"MIN", 1, 1, nullptr, AggregateKind::kMin},
    FunctionInfo{"MAX", 1, 1, nullptr, AggregateKind::kMax},
};

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    const char x = (a[i] >= 'a' && a[i] <= 'z') ? static_cast<char>(a[i] - 32) : a[i];
    const char y = (b[i] >= 'a' && b[i] <= 'z') ? static_cast<char>(b[i] - 32) : b[i];
    if (x != y) {
      return false;
    }
  }
  return true;
}

const FunctionInfo* FindIn(std::span<const FunctionInfo> table, std::string_view name) {
  for (const FunctionInfo& function : table) {
    if (EqualsIgnoreCase(function.name, name)) {
      return &function;
    }
  }
  return nullptr;
}

}  // namespace

const FunctionInfo* FindFunction(std::string_view name) {
  using namespace functions_internal;
  for (std::span<const FunctionInfo> table :
       {TypeFunctions(), MathFunctions(), StringFunctions(), ArrayFunctions(), DateTimeFunctions(),
        SpatialFunctions(), VectorFunctions(), FullTextFunctions(),
        std::span<const FunctionInfo>(kAggregates)}) {
    if (const FunctionInfo* function = FindIn(table, name)) {
      return function;
    }
  }
  return nullptr;
}

json::Value CallFunction(const FunctionInfo& function, std::span<const json::Value* const> args,
                         const CallContext& context) {
  if (function.with_context != nullptr) {
    return function.with_context(args, context);
  }
  if (function.scalar != nullptr) {
    return function.scalar(args);
  }
  return json::Value();
}

// Ticks since the Unix epoch, through the project's clock seam.
int64_t CurrentTicks() {
  const auto since_epoch = Clock::System().Now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::microseconds>(since_epoch).count() * 10;
}

}  // namespace orrery::query
