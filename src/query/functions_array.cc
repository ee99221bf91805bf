// Array built-ins (query-language.md §5.5). A non-array where an array is expected
// gives undefined; element comparisons use the language's deep equality.

#include <algorithm>
#include <array>
#include <string>
#include <unordered_set>
#include <vector>

#include "query/functions_internal.h"
#include "query/operators.h"
#include "query/ordering.h"

namespace orrery::query::functions_internal {
namespace {

using json::Value;

Value Bool(bool b) { return Value::Bool(b); }

Value ArrayLength(Args a) {
  return a[0]->is_array() ? Value::Int(static_cast<int64_t>(a[0]->as_array().size())) : Value();
}

Value ArrayConcat(Args a) {
  json::Array out;
  for (const Value* arg : a) {
    if (!arg->is_array()) {
      return Value();
    }
    out.insert(out.end(), arg->as_array().begin(), arg->as_array().end());
  }
  return Value::MakeArray(std::move(out));
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

bool ArrayHas(const json::Array& array, const Value& v, bool partial) {
  return std::any_of(array.begin(), array.end(), [&](const Value& element) {
    return partial ? PartialMatch(element, v) : ValuesEqual(element, v);
  });
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
  return Bool(ArrayHas(a[0]->as_array(), *a[1], partial));
}

// ARRAY_CONTAINS_ANY / ARRAY_CONTAINS_ALL(arr, v1, v2, ...), deep equality.
template <bool kAll>
Value ArrayContainsTerms(Args a) {
  if (!a[0]->is_array()) {
    return Value();
  }
  for (size_t i = 1; i < a.size(); ++i) {
    const bool found = ArrayHas(a[0]->as_array(), *a[i], false);
    if (found != kAll) {
      return Bool(found);
    }
  }
  return Bool(kAll);
}

// ARRAY_SLICE(arr, start [, length]): a negative start counts from the end; a
// negative length leaves that many elements off the end (as in the service's docs:
// ARRAY_SLICE(a, 1, -1) drops the first and last); both are clamped to the array.
Value ArraySlice(Args a) {
  if (!a[0]->is_array() || !a[1]->is_number() || (a.size() > 2 && !a[2]->is_number())) {
    return Value();
  }
  const json::Array& array = a[0]->as_array();
  const auto size = static_cast<int64_t>(array.size());
  int64_t start = ToCount(*a[1]);
  if (start < 0) {
    start += size;
  }
  start = std::clamp<int64_t>(start, 0, size);
  int64_t end = size;
  if (a.size() > 2) {
    const int64_t length = ToCount(*a[2]);
    end = length < 0 ? size + length : start + std::min(length, size);
  }
  end = std::clamp<int64_t>(end, start, size);
  return Value::MakeArray(json::Array(array.begin() + start, array.begin() + end));
}

// ARRAY_MIN / ARRAY_MAX in the ORDER BY type order; undefined elements are ignored and
// an empty array gives undefined.
template <bool kMax>
Value ArrayExtreme(Args a) {
  if (!a[0]->is_array()) {
    return Value();
  }
  const Value* best = nullptr;
  for (const Value& element : a[0]->as_array()) {
    if (element.is_undefined()) {
      continue;
    }
    if (best == nullptr ||
        (kMax ? CompareValues(element, *best) > 0 : CompareValues(element, *best) < 0)) {
      best = &element;
    }
  }
  return best != nullptr ? *best : Value();
}

// The number elements of an array; nullopt when it is not an array or some element is
// not a number (the reduction is then undefined, like SUM over a non-number).
std::optional<std::vector<const Value*>> Numbers(const Value& v) {
  if (!v.is_array()) {
    return std::nullopt;
  }
  std::vector<const Value*> numbers;
  for (const Value& element : v.as_array()) {
    if (!element.is_number()) {
      return std::nullopt;
    }
    numbers.push_back(&element);
  }
  return numbers;
}

Value ArraySum(Args a) {
  const auto numbers = Numbers(*a[0]);
  if (!numbers) {
    return Value();
  }
  double sum = 0;
  bool integral = true;
  for (const Value* n : *numbers) {
    sum += n->as_double();
    integral = integral && n->is_integer();
  }
  return MakeNumber(sum, integral);
}

Value ArrayAvg(Args a) {
  const auto numbers = Numbers(*a[0]);
  if (!numbers || numbers->empty()) {
    return Value();
  }
  double sum = 0;
  for (const Value* n : *numbers) {
    sum += n->as_double();
  }
  return Value::Double(sum / static_cast<double>(numbers->size()));
}

Value ArrayMedian(Args a) {
  const auto numbers = Numbers(*a[0]);
  if (!numbers || numbers->empty()) {
    return Value();
  }
  std::vector<double> sorted;
  bool integral = true;
  for (const Value* n : *numbers) {
    sorted.push_back(n->as_double());
    integral = integral && n->is_integer();
  }
  std::sort(sorted.begin(), sorted.end());
  const size_t mid = sorted.size() / 2;
  if (sorted.size() % 2 == 1) {
    return MakeNumber(sorted[mid], integral);
  }
  return MakeNumber((sorted[mid - 1] + sorted[mid]) / 2, integral);
}

// CHOOSE(i, v1, v2, ...): 1-based; a non-integral or out-of-range i gives undefined.
Value Choose(Args a) {
  const std::optional<int64_t> i = AsInt64(*a[0]);
  if (!i || *i < 1 || *i >= static_cast<int64_t>(a.size())) {
    return Value();
  }
  return *a[static_cast<size_t>(*i)];
}

// ObjectToArray(obj [, keyName [, valueName]]): {"a":1} → [{"k":"a","v":1}].
Value ObjectToArray(Args a) {
  if (!a[0]->is_object() || (a.size() > 1 && !a[1]->is_string()) ||
      (a.size() > 2 && !a[2]->is_string())) {
    return Value();
  }
  const std::string key_name = a.size() > 1 ? a[1]->as_string() : "k";
  const std::string value_name = a.size() > 2 ? a[2]->as_string() : "v";
  json::Array out;
  for (const auto& [name, member] : a[0]->as_object()) {
    out.push_back(Value::MakeObject({{key_name, Value::String(name)}, {value_name, member}}));
  }
  return Value::MakeArray(std::move(out));
}

// ---- Set operations: results keep first-seen order and hold no duplicates ----

using ValueSet = std::unordered_set<Value, ValueHash, ValueEqual>;

ValueSet ToSet(const json::Array& array) { return ValueSet(array.begin(), array.end()); }

// Appends the elements of `from` that pass `keep` and are not yet in `seen`.
template <typename Keep>
void AppendDistinct(const json::Array& from, Keep keep, ValueSet& seen, json::Array& out) {
  for (const Value& element : from) {
    if (keep(element) && seen.insert(element).second) {
      out.push_back(element);
    }
  }
}

// The distinct elements of the first array that are (or are not) in the second.
Value FilterDistinctByMembership(Args a, bool keep_members) {
  if (!a[0]->is_array() || !a[1]->is_array()) {
    return Value();
  }
  const ValueSet other = ToSet(a[1]->as_array());
  ValueSet seen;
  json::Array out;
  AppendDistinct(
      a[0]->as_array(), [&](const Value& v) { return other.contains(v) == keep_members; }, seen,
      out);
  return Value::MakeArray(std::move(out));
}

Value SetIntersect(Args a) { return FilterDistinctByMembership(a, true); }

Value SetUnion(Args a) {
  if (!a[0]->is_array() || !a[1]->is_array()) {
    return Value();
  }
  ValueSet seen;
  json::Array out;
  const auto all = [](const Value&) { return true; };
  AppendDistinct(a[0]->as_array(), all, seen, out);
  AppendDistinct(a[1]->as_array(), all, seen, out);
  return Value::MakeArray(std::move(out));
}

Value SetDifference(Args a) { return FilterDistinctByMembership(a, false); }

Value SetEqual(Args a) {
  if (!a[0]->is_array() || !a[1]->is_array()) {
    return Value();
  }
  const ValueSet x = ToSet(a[0]->as_array());
  const ValueSet y = ToSet(a[1]->as_array());
  return Bool(x.size() == y.size() &&
              std::all_of(x.begin(), x.end(), [&](const Value& v) { return y.contains(v); }));
}

constexpr int kVariadic = FunctionInfo::kVariadic;
constexpr AggregateKind kScalar = AggregateKind::kNone;

constexpr std::array kFunctions = {
    FunctionInfo{"ARRAY_AVG", 1, 1, ArrayAvg, kScalar},
    FunctionInfo{"ARRAY_CONCAT", 2, kVariadic, ArrayConcat, kScalar},
    FunctionInfo{"ARRAY_CONTAINS", 2, 3, ArrayContains, kScalar},
    FunctionInfo{"ARRAY_CONTAINS_ALL", 2, kVariadic, ArrayContainsTerms<true>, kScalar},
    FunctionInfo{"ARRAY_CONTAINS_ANY", 2, kVariadic, ArrayContainsTerms<false>, kScalar},
    FunctionInfo{"ARRAY_LENGTH", 1, 1, ArrayLength, kScalar},
    FunctionInfo{"ARRAY_MAX", 1, 1, ArrayExtreme<true>, kScalar},
    FunctionInfo{"ARRAY_MEDIAN", 1, 1, ArrayMedian, kScalar},
    FunctionInfo{"ARRAY_MIN", 1, 1, ArrayExtreme<false>, kScalar},
    FunctionInfo{"ARRAY_SLICE", 2, 3, ArraySlice, kScalar},
    FunctionInfo{"ARRAY_SUM", 1, 1, ArraySum, kScalar},
    FunctionInfo{"CHOOSE", 2, kVariadic, Choose, kScalar},
    FunctionInfo{"ObjectToArray", 1, 3, ObjectToArray, kScalar},
    FunctionInfo{"SetDifference", 2, 2, SetDifference, kScalar},
    FunctionInfo{"SetEqual", 2, 2, SetEqual, kScalar},
    FunctionInfo{"SetIntersect", 2, 2, SetIntersect, kScalar},
    FunctionInfo{"SetUnion", 2, 2, SetUnion, kScalar},
};

}  // namespace

std::span<const FunctionInfo> ArrayFunctions() { return kFunctions; }

}  // namespace orrery::query::functions_internal
