#pragma once

// Aggregator: the running state of one aggregate over the rows of a scope or a group
// (query-language.md §4.7). Undefined inputs are skipped by every aggregate.

#include <cstdint>

#include "json/value.h"
#include "query/functions.h"

namespace orrery::query {

class Aggregator {
 public:
  // REQUIRES: kind != AggregateKind::kNone.
  explicit Aggregator(AggregateKind kind) : kind_(kind) {}

  void Add(const json::Value& input);

  // COUNT: the number of defined inputs. SUM: 0 with no input, undefined if any input
  // was not a number. AVG: undefined with no input or a non-number. MIN/MAX: in the
  // order null < boolean < number < string, undefined with no input or when an array
  // or object was seen.
  json::Value Result() const;

 private:
  AggregateKind kind_;
  int64_t count_ = 0;
  bool poisoned_ = false;  // an input made the result undefined
  // SUM/AVG: exact while every input is an integer and nothing overflowed.
  bool all_integers_ = true;
  int64_t int_sum_ = 0;
  double sum_ = 0;
  json::Value extreme_;  // MIN/MAX so far
};

}  // namespace orrery::query
