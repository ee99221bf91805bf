#include "query/functions.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "json/json.h"
#include "query/operators.h"
#include "query/ordering.h"
#include "query/unicode.h"

namespace orrery::query {
namespace {

using Args = std::span<const json::Value* const>;
using json::Value;

Value Bool(bool b) { return Value::Bool(b); }

// ---- Type checks: always a boolean ----

Value IsDefined(Args a) { return Bool(!a[0]->is_undefined()); }
Value IsNull(Args a) { return Bool(a[0]->is_null()); }
Value IsBool(Args a) { return Bool(a[0]->is_bool()); }
Value IsNumber(Args a) { return Bool(a[0]->is_number()); }
Value IsString(Args a) { return Bool(a[0]->is_string()); }
Value IsArray(Args a) { return Bool(a[0]->is_array()); }
Value IsObject(Args a) { return Bool(a[0]->is_object()); }
Value IsPrimitive(Args a) {
  const Value& v = *a[0];
  return Bool(v.is_string() || v.is_number() || v.is_bool() || v.is_null());
}
Value IsFiniteNumber(Args a) { return Bool(a[0]->is_number() && std::isfinite(a[0]->as_double())); }
// A number with an int64 representation: IS_INTEGER(9223372036854775807) is true,
// IS_INTEGER(18446744073709551615) false (query-language.md §5.3).
Value IsInteger(Args a) {
  const Value& v = *a[0];
  if (v.is_integer()) {
    return Bool(true);
  }
  if (!v.is_number()) {
    return Bool(false);
  }
  const double d = v.as_double();
  return Bool(std::trunc(d) == d && d >= -9223372036854775808.0 && d < 9223372036854775808.0);
}

// ---- Strings (lengths and positions in UTF-16 code units) ----

// The optional ignoreCase argument at `index`: false when absent, nullopt when it is
// present but not a boolean (the call is then undefined).
std::optional<bool> IgnoreCase(Args a, size_t index) {
  if (a.size() <= index) {
    return false;
  }
  if (!a[index]->is_bool()) {
    return std::nullopt;
  }
  return a[index]->as_bool();
}

// Applies `test(haystack, needle)` to two strings, folding case when asked.
template <typename Test>
Value StringTest(Args a, Test test) {
  const std::optional<bool> ignore_case = IgnoreCase(a, 2);
  if (!a[0]->is_string() || !a[1]->is_string() || !ignore_case) {
    return Value();
  }
  if (*ignore_case) {
    return Bool(test(ToLower(a[0]->as_string()), ToLower(a[1]->as_string())));
  }
  return Bool(test(std::string_view(a[0]->as_string()), std::string_view(a[1]->as_string())));
}

Value Contains(Args a) {
  return StringTest(a, [](std::string_view s, std::string_view t) {
    return s.find(t) != std::string_view::npos;
  });
}
Value StartsWith(Args a) {
  return StringTest(a, [](std::string_view s, std::string_view t) { return s.starts_with(t); });
}
Value EndsWith(Args a) {
  return StringTest(a, [](std::string_view s, std::string_view t) { return s.ends_with(t); });
}

Value Length(Args a) {
  if (!a[0]->is_string()) {
    return Value();
  }
  return Value::Int(static_cast<int64_t>(Utf16Length(a[0]->as_string())));
}

Value Lower(Args a) {
  return a[0]->is_string() ? Value::String(ToLower(a[0]->as_string())) : Value();
}
Value Upper(Args a) {
  return a[0]->is_string() ? Value::String(ToUpper(a[0]->as_string())) : Value();
}

Value Concat(Args a) {
  std::string out;
  for (const Value* arg : a) {
    if (!arg->is_string()) {
      return Value();
    }
    out += arg->as_string();
  }
  return Value::String(std::move(out));
}

// A numeric position or count argument truncated toward zero and clamped to int64.
int64_t ToCount(const Value& v) {
  const double d = std::trunc(v.as_double());
  if (std::isnan(d)) {
    return 0;
  }
  if (d >= 9.2e18) {
    return std::numeric_limits<int64_t>::max() / 2;
  }
  if (d <= -9.2e18) {
    return std::numeric_limits<int64_t>::min() / 2;
  }
  return static_cast<int64_t>(d);
}

// SUBSTRING(s, start, length): out-of-range start and length are clamped, so
// SUBSTRING(s, 0, -1) is "" (query-language.md §5.4).
Value Substring(Args a) {
  if (!a[0]->is_string() || !a[1]->is_number() || !a[2]->is_number()) {
    return Value();
  }
  const std::u16string s = ToUtf16(a[0]->as_string());
  const auto size = static_cast<int64_t>(s.size());
  const int64_t start = std::clamp<int64_t>(ToCount(*a[1]), 0, size);
  const int64_t length = std::clamp<int64_t>(ToCount(*a[2]), 0, size - start);
  return Value::String(FromUtf16(std::u16string_view(s).substr(start, length)));
}

// ToString: numbers in JavaScript form (NaN and Infinity by name), arrays and objects
// as compact JSON, strings unchanged.
Value ToStringFunction(Args a) {
  const Value& v = *a[0];
  switch (v.type()) {
    case json::Type::kUndefined:
      return Value();
    case json::Type::kString:
      return v;
    case json::Type::kNumber: {
      if (v.is_integer()) {
        return Value::String(std::to_string(v.as_int()));
      }
      const double d = v.as_double();
      if (std::isnan(d)) {
        return Value::String("NaN");
      }
      if (std::isinf(d)) {
        return Value::String(d > 0 ? "Infinity" : "-Infinity");
      }
      std::string out;
      json::AppendNumber(out, d);
      return Value::String(std::move(out));
    }
    default:
      return Value::String(json::Write(v));
  }
}

// ---- Math ----

template <double (*F)(double)>
Value RoundingFunction(Args a) {
  const Value& v = *a[0];
  if (!v.is_number()) {
    return Value();
  }
  if (v.is_integer()) {
    return v;
  }
  return MakeNumber(F(v.as_double()), true);
}

// ROUND rounds midpoints away from zero (ROUND(-2.5) = -3), which std::round does.
double RoundAwayFromZero(double d) { return std::round(d); }
double Floor(double d) { return std::floor(d); }
double Ceiling(double d) { return std::ceil(d); }

Value Abs(Args a) {
  const Value& v = *a[0];
  if (!v.is_number()) {
    return Value();
  }
  if (v.is_integer() && v.as_int() != std::numeric_limits<int64_t>::min()) {
    return Value::Int(v.as_int() < 0 ? -v.as_int() : v.as_int());
  }
  return Value::Double(std::fabs(v.as_double()));
}

// ---- Arrays ----

Value ArrayLength(Args a) {
  return a[0]->is_array() ? Value::Int(static_cast<int64_t>(a[0]->as_array().size())) : Value();
}

// With partial = true an object `v` matches an object element that has all of v's
// members with equal values.
bool PartialMatch(const Value& element, const Value& v) {
  if (!v.is_object() || !element.is_object()) {
    return ValuesEqual(element, v);
  }
  for (const auto& [name, member] : v.as_object()) {
    const Value* found = element.Find(name);
    if (found == nullptr || !ValuesEqual(*found, member)) {
      return false;
    }
  }
  return true;
}

Value ArrayContains(Args a) {
  if (!a[0]->is_array()) {
    return Value();
  }
  bool partial = false;
  if (a.size() > 2) {
    if (!a[2]->is_bool()) {
      return Value();
    }
    partial = a[2]->as_bool();
  }
  const Value& v = *a[1];
  for (const Value& element : a[0]->as_array()) {
    if (partial ? PartialMatch(element, v) : ValuesEqual(element, v)) {
      return Bool(true);
    }
  }
  return Bool(false);
}

// ---- Conditional ----

// IIF(cond, a, b): a only when cond is exactly true (query-language.md §5.6).
Value Iif(Args a) { return IsTrue(*a[0]) ? *a[1] : *a[2]; }

constexpr int kVariadic = FunctionInfo::kVariadic;
constexpr AggregateKind kScalar = AggregateKind::kNone;

constexpr std::array kFunctions = {
    FunctionInfo{"IS_ARRAY", 1, 1, IsArray, kScalar},
    FunctionInfo{"IS_BOOL", 1, 1, IsBool, kScalar},
    FunctionInfo{"IS_DEFINED", 1, 1, IsDefined, kScalar},
    FunctionInfo{"IS_FINITE_NUMBER", 1, 1, IsFiniteNumber, kScalar},
    FunctionInfo{"IS_INTEGER", 1, 1, IsInteger, kScalar},
    FunctionInfo{"IS_NULL", 1, 1, IsNull, kScalar},
    FunctionInfo{"IS_NUMBER", 1, 1, IsNumber, kScalar},
    FunctionInfo{"IS_OBJECT", 1, 1, IsObject, kScalar},
    FunctionInfo{"IS_PRIMITIVE", 1, 1, IsPrimitive, kScalar},
    FunctionInfo{"IS_STRING", 1, 1, IsString, kScalar},
    FunctionInfo{"CONCAT", 2, kVariadic, Concat, kScalar},
    FunctionInfo{"CONTAINS", 2, 3, Contains, kScalar},
    FunctionInfo{"ENDSWITH", 2, 3, EndsWith, kScalar},
    FunctionInfo{"LENGTH", 1, 1, Length, kScalar},
    FunctionInfo{"LOWER", 1, 1, Lower, kScalar},
    FunctionInfo{"STARTSWITH", 2, 3, StartsWith, kScalar},
    FunctionInfo{"SUBSTRING", 3, 3, Substring, kScalar},
    FunctionInfo{"ToString", 1, 1, ToStringFunction, kScalar},
    FunctionInfo{"UPPER", 1, 1, Upper, kScalar},
    FunctionInfo{"ABS", 1, 1, Abs, kScalar},
    FunctionInfo{"CEILING", 1, 1, RoundingFunction<Ceiling>, kScalar},
    FunctionInfo{"FLOOR", 1, 1, RoundingFunction<Floor>, kScalar},
    FunctionInfo{"ROUND", 1, 1, RoundingFunction<RoundAwayFromZero>, kScalar},
    FunctionInfo{"ARRAY_CONTAINS", 2, 3, ArrayContains, kScalar},
    FunctionInfo{"ARRAY_LENGTH", 1, 1, ArrayLength, kScalar},
    FunctionInfo{"IIF", 3, 3, Iif, kScalar},
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

}  // namespace

const FunctionInfo* FindFunction(std::string_view name) {
  for (const FunctionInfo& function : kFunctions) {
    if (EqualsIgnoreCase(function.name, name)) {
      return &function;
    }
  }
  return nullptr;
}

}  // namespace orrery::query
