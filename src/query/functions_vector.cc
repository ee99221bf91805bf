// VectorDistance (docs/research/vector-fulltext-protocol.md §4.1): the similarity score
// of two vectors, exact. The 3rd argument (brute force) changes nothing here: every
// score is computed from the item's vector; the 4th holds the options that
// vector_references.h resolves from the container's policy.

#include <array>
#include <optional>

#include "query/functions_internal.h"
#include "query/vector_policy.h"

namespace orrery::query::functions_internal {
namespace {

using json::Value;

// The distance function the options name (cosine when they name none); nullopt when
// they name one that does not exist.
std::optional<DistanceFunction> DistanceOf(const Value* options) {
  if (options == nullptr || !options->is_object()) return DistanceFunction::kCosine;
  const Value* given = options->Find("distanceFunction");
  if (given == nullptr) return DistanceFunction::kCosine;
  if (!given->is_string()) return std::nullopt;
  return ParseDistanceFunction(given->as_string());
}

bool IsVector(const Value& v) {
  if (!v.is_array() || v.as_array().empty()) return false;
  for (const Value& x : v.as_array()) {
    if (!x.is_number()) return false;
  }
  return true;
}

Value VectorDistance(Args a) {
  if (!IsVector(*a[0]) || !IsVector(*a[1])) return Value();
  const json::Array& x = a[0]->as_array();
  const json::Array& y = a[1]->as_array();
  if (x.size() != y.size()) return Value();
  if (a.size() > 2 && !a[2]->is_bool()) return Value();
  const std::optional<DistanceFunction> distance = DistanceOf(a.size() > 3 ? a[3] : nullptr);
  if (!distance) return Value();
  const std::optional<double> score = VectorScore(
      *distance, x.size(), [&](size_t i) { return x[i].as_double(); },
      [&](size_t i) { return y[i].as_double(); });
  return score ? Value::Double(*score) : Value();
}

constexpr AggregateKind kScalar = AggregateKind::kNone;

constexpr std::array kFunctions = {
    FunctionInfo{"VectorDistance", 2, 4, VectorDistance, kScalar},
};

}  // namespace

std::span<const FunctionInfo> VectorFunctions() { return kFunctions; }

}  // namespace orrery::query::functions_internal
