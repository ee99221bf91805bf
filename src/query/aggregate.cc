#include "query/aggregate.h"

#include "query/operators.h"
#include "query/ordering.h"

namespace orrery::query {

void Aggregator::Add(const json::Value& input) {
  if (input.is_undefined()) {
    return;
  }
  ++count_;
  switch (kind_) {
    case AggregateKind::kNone:
    case AggregateKind::kCount:
      return;
    case AggregateKind::kSum:
    case AggregateKind::kAvg:
      if (!input.is_number()) {
        poisoned_ = true;
        return;
      }
      sum_ += input.as_double();
      if (all_integers_ &&
          (!input.is_integer() || __builtin_add_overflow(int_sum_, input.as_int(), &int_sum_))) {
        all_integers_ = false;
      }
      return;
    case AggregateKind::kMin:
    case AggregateKind::kMax: {
      if (input.is_array() || input.is_object()) {
        poisoned_ = true;
        return;
      }
      const int c = extreme_.is_undefined() ? 0 : CompareValues(input, extreme_);
      const bool better = kind_ == AggregateKind::kMin ? c < 0 : c > 0;
      if (extreme_.is_undefined() || better) {
        extreme_ = input;
      }
      return;
    }
  }
}

json::Value Aggregator::Result() const {
  switch (kind_) {
    case AggregateKind::kNone:
      return json::Value();
    case AggregateKind::kCount:
      return json::Value::Int(count_);
    case AggregateKind::kSum:
      if (poisoned_) {
        return json::Value();
      }
      return all_integers_ ? json::Value::Int(int_sum_) : json::Value::Double(sum_);
    case AggregateKind::kAvg:
      if (poisoned_ || count_ == 0) {
        return json::Value();
      }
      return MakeNumber(sum_ / static_cast<double>(count_), all_integers_);
    case AggregateKind::kMin:
    case AggregateKind::kMax:
      return poisoned_ ? json::Value() : extreme_;
  }
  return json::Value();
}

}  // namespace orrery::query
