#pragma once

// Synthetic items for `orrery advise --generate spec.json` (issue 19): fields with a
// cardinality and a distribution, nested objects and arrays, timestamps over a range.
// Item i is a function of the seed and i alone (its own random stream), so the same spec
// gives the same items, in any order and in parallel.
//
//   {"count": 100000, "seed": 7, "fields": {
//      "tenantId": {"type": "string", "prefix": "t-", "cardinality": 1000,
//                   "distribution": "zipf", "exponent": 1.1},
//      "deviceId": {"type": "string", "prefix": "d-", "cardinality": 50000},
//      "plan":     {"type": "string", "cardinality": 20, "distribution": "hot", "factor": 100},
//      "reading":  {"type": "number", "min": 0, "max": 100},
//      "at":       {"type": "timestamp", "from": "2026-01-01T00:00:00Z",
//                   "to": "2026-02-01T00:00:00Z"},
//      "tags":     {"type": "array", "length": 3, "items": {"type": "string", "cardinality": 9}},
//      "site":     {"type": "object", "fields": {"floor": {"type": "integer", "cardinality": 8}}}}}
//
// Distributions over a field's `cardinality` values (the value numbered k is `prefix`k for
// strings, k for integers): "uniform" (the default), "zipf" (value k drawn with weight
// 1 / (k + 1)^exponent) and "hot" (value 0 `factor` times as likely as each other one).
// Each item's "id" is its number, unless the spec gives an "id" field.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "json/value.h"

namespace orrery::advise {

class FieldGenerator;

class Generator {
 public:
  // Errors: BadRequest naming the field and what is wrong with it.
  static Result<Generator> Parse(const json::Value& spec);

  uint64_t count() const { return count_; }
  uint64_t seed() const { return seed_; }
  // Item `number` (0 <= number < count()).
  json::Value Item(uint64_t number) const;

 private:
  uint64_t count_ = 0;
  uint64_t seed_ = 0;
  std::vector<std::pair<std::string, std::shared_ptr<const FieldGenerator>>> fields_;
  bool has_id_ = false;
};

}  // namespace orrery::advise
