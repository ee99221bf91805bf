#include "query/subquery.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>

#include "query/aggregate.h"
#include "query/operators.h"
#include "query/ordering.h"

namespace orrery::query {
namespace {

using json::Value;

constexpr size_t kAll = std::numeric_limits<size_t>::max();

struct SubqueryRow {
  Value value;
  std::vector<Value> sort_keys;
};

// One run of a subquery for one outer binding. The subquery's aliases use slots after
// the outer ones (binder.h), so the run copies the outer bindings and adds its own.
class SubqueryRun {
 public:
  // Stops enumerating after `enough` rows when the result cannot depend on the rest.
  SubqueryRun(const BoundSubquery& subquery, const Frame& outer, size_t enough)
      : subquery_(subquery),
        query_(*subquery.query),
        error_(outer.error),
        budget_(outer.budget),
        slots_(std::max(outer.slots.size(), static_cast<size_t>(subquery.slot_count)), nullptr) {
    std::copy(outer.slots.begin(), outer.slots.end(), slots_.begin());
    if (IsStreamable()) {
      enough_ = std::min(enough, subquery_.top ? static_cast<size_t>(*subquery_.top) : enough);
    }
    if (subquery_.is_aggregate && query_.group_by.empty()) {
      // One group even with no input, so COUNT gives 0 (§4.7).
      groups_.push_back(NewGroup({}));
    }
  }

  std::vector<Value> Run() {
    if (query_.from.empty()) {
      Emit();
    } else {
      BindSource(0);
    }
    std::vector<Value> values = subquery_.is_aggregate ? ProjectGroups() : SortedValues();
    if (query_.select.distinct) {
      RemoveDuplicates(values);
    }
    if (subquery_.offset) {
      Page(values, *subquery_.offset, *subquery_.limit);
    }
    if (subquery_.top) {
      Page(values, 0, *subquery_.top);
    }
    // The values now belong to the caller, whose rows are charged when they are made.
    if (budget_ != nullptr) {
      budget_->Refund(charged_);
    }
    return values;
  }

 private:
  struct Group {
    std::vector<Value> keys;
    std::vector<Aggregator> aggregators;
  };

  // Whether the first n rows in enumeration order are the first n of the result.
  bool IsStreamable() const {
    return !subquery_.is_aggregate && !subquery_.offset && !query_.select.distinct &&
           query_.order_by.empty();
  }

  // Also true once the budget is spent: then nothing more is enumerated.
  bool HasEnough() const {
    return rows_.size() >= enough_ || (budget_ != nullptr && budget_->exceeded());
  }

  Frame RowFrame() const { return Frame{.slots = slots_, .error = error_, .budget = budget_}; }

  // Binds from[index] and every later source, then emits each complete binding. A
  // missing or non-array collection under IN yields nothing, like an inner join (§4.12).
  void BindSource(size_t index) {
    if (index == query_.from.size()) {
      Emit();
      return;
    }
    const ast::FromSource& source = query_.from[index];
    const auto slot = static_cast<size_t>(source.slot);
    if (source.kind == ast::SourceKind::kSubquery) {
      const std::vector<Value> values = RunSubquery(*source.bound_subquery, RowFrame());
      for (size_t i = 0; i < values.size() && !HasEnough(); ++i) {
        slots_[slot] = &values[i];
        BindSource(index + 1);
      }
    } else if (source.kind == ast::SourceKind::kIterateSubquery) {
      const std::vector<Value> values = RunSubquery(*source.bound_subquery, RowFrame());
      for (const Value& value : values) {
        IterateElements(value, index);
      }
    } else {
      const Cell value = Evaluate(*source.collection, RowFrame());
      if (source.kind == ast::SourceKind::kIterate) {
        IterateElements(value.get(), index);
      } else if (!value.get().is_undefined()) {
        slots_[slot] = &value.get();
        BindSource(index + 1);
      }
    }
    slots_[slot] = nullptr;
  }

  // `x IN collection` over one value of the collection: binds x to each element of an
  // array; any other value yields nothing. For `x IN (SELECT ...)` the values are the
  // subquery's rows, each iterated the same way. That is the documented meaning of IN
  // (the FROM clause reference: IN iterates "all array elements of each array returned
  // by the underlying container expression. Any value ... that isn't an array is
  // ignored"), and the subquery reference's "Mimic join with external reference data"
  // example relies on it: `JOIN m IN (SELECT VALUE [{unit: 'ng', ...}, ...])` binds m to
  // each object of the one array row. So a row that is a number, or the object of a
  // SELECT without VALUE, yields nothing; `JOIN (SELECT ...) AS x` binds rows as they
  // are. The .NET SDK's offline query engine iterates subquery rows the same way.
  void IterateElements(const Value& value, size_t index) {
    if (!value.is_array()) {
      return;
    }
    const auto slot = static_cast<size_t>(query_.from[index].slot);
    for (const Value& element : value.as_array()) {
      if (HasEnough()) {
        break;
      }
      slots_[slot] = &element;
      BindSource(index + 1);
    }
  }

  void Emit() {
    if (budget_ != nullptr && !budget_->ChargeBinding()) {
      return;
    }
    const Frame frame = RowFrame();
    // WHERE keeps a binding only when the predicate is exactly true (§4.3).
    if (query_.where && !IsTrue(Evaluate(*query_.where, frame).get())) {
      return;
    }
    if (subquery_.is_aggregate) {
      Accumulate(frame);
      return;
    }
    Value value = Project(frame);
    if (value.is_undefined()) {
      return;  // SELECT VALUE of undefined yields nothing
    }
    SubqueryRow row{std::move(value), {}};
    row.sort_keys.reserve(query_.order_by.size());
    for (const ast::SortItem& item : query_.order_by) {
      row.sort_keys.push_back(Evaluate(*item.expr, frame).Take());
    }
    if (budget_ != nullptr) {
      size_t bytes = sizeof(SubqueryRow) + json::ApproximateBytes(row.value);
      for (const Value& key : row.sort_keys) {
        bytes += json::ApproximateBytes(key);
      }
      charged_ += bytes;
      budget_->ChargeRow(bytes);
    }
    rows_.push_back(std::move(row));
  }

  // The SELECT clause; undefined members are left out (§4.5).
  Value Project(const Frame& frame) const {
    const ast::SelectClause& select = query_.select;
    switch (select.kind) {
      case ast::SelectKind::kStar:
        return *slots_[static_cast<size_t>(query_.from.front().slot)];
      case ast::SelectKind::kValue:
        return Evaluate(*select.value, frame).Take();
      case ast::SelectKind::kList:
        break;
    }
    json::Object members;
    members.reserve(select.items.size());
    for (const ast::SelectItem& item : select.items) {
      Value value = Evaluate(*item.expr, frame).Take();
      if (!value.is_undefined()) {
        members.emplace_back(item.output_name, std::move(value));
      }
    }
    return Value::MakeObject(std::move(members));
  }

  Group NewGroup(std::vector<Value> keys) const {
    Group group{std::move(keys), {}};
    group.aggregators.reserve(subquery_.aggregates.size());
    for (const ast::CallExpr* aggregate : subquery_.aggregates) {
      group.aggregators.emplace_back(aggregate->function->aggregate);
    }
    return group;
  }

  // Folds one binding into its group (§4.7, §4.8: undefined keys form a group).
  void Accumulate(const Frame& frame) {
    size_t g = 0;
    if (!query_.group_by.empty()) {
      std::vector<Value> keys;
      keys.reserve(query_.group_by.size());
      for (const ast::ExprPtr& key : query_.group_by) {
        keys.push_back(Evaluate(*key, frame).Take());
      }
      auto [it, inserted] = group_index_.try_emplace(Value::MakeArray(keys), groups_.size());
      if (inserted) {
        groups_.push_back(NewGroup(std::move(keys)));
      }
      g = it->second;
    }
    for (size_t a = 0; a < subquery_.aggregates.size(); ++a) {
      groups_[g].aggregators[a].Add(Evaluate(*subquery_.aggregates[a]->args.front(), frame).get());
    }
  }

  std::vector<Value> ProjectGroups() const {
    std::vector<Value> values;
    values.reserve(groups_.size());
    for (const Group& group : groups_) {
      std::vector<Value> results;
      results.reserve(group.aggregators.size());
      for (const Aggregator& aggregator : group.aggregators) {
        results.push_back(aggregator.Result());
      }
      const Frame frame{
          .slots = slots_, .aggregates = &results, .group_keys = &group.keys, .error = error_};
      Value value = Project(frame);
      if (!value.is_undefined()) {
        values.push_back(std::move(value));
      }
    }
    return values;
  }

  std::vector<Value> SortedValues() {
    if (!query_.order_by.empty()) {
      std::stable_sort(rows_.begin(), rows_.end(), [&](const SubqueryRow& a, const SubqueryRow& b) {
        for (size_t k = 0; k < query_.order_by.size(); ++k) {
          int c = CompareValues(a.sort_keys[k], b.sort_keys[k]);
          if (query_.order_by[k].descending) {
            c = -c;
          }
          if (c != 0) {
            return c < 0;
          }
        }
        return false;
      });
    }
    std::vector<Value> values;
    values.reserve(rows_.size());
    for (SubqueryRow& row : rows_) {
      values.push_back(std::move(row.value));
    }
    return values;
  }

  // Keeps the first of each set of deep-equal values (§4.9).
  static void RemoveDuplicates(std::vector<Value>& values) {
    std::unordered_map<Value, bool, ValueHash, ValueEqual> seen;
    std::vector<Value> unique;
    unique.reserve(values.size());
    for (Value& value : values) {
      if (seen.try_emplace(value, true).second) {
        unique.push_back(std::move(value));
      }
    }
    values = std::move(unique);
  }

  static void Page(std::vector<Value>& values, int64_t skip, int64_t take) {
    const auto size = static_cast<int64_t>(values.size());
    const int64_t begin = std::min(skip, size);
    const int64_t end = std::min(size, begin + std::min(take, size));
    values.erase(values.begin() + end, values.end());
    values.erase(values.begin(), values.begin() + begin);
  }

  const BoundSubquery& subquery_;
  const ast::Query& query_;
  Status* error_;
  RowBudget* budget_;
  size_t charged_ = 0;  // to budget_, for the rows this run holds
  size_t enough_ = kAll;
  std::vector<const Value*> slots_;
  std::vector<SubqueryRow> rows_;
  std::vector<Group> groups_;
  std::unordered_map<Value, size_t, ValueHash, ValueEqual> group_index_;
};

}  // namespace

std::vector<Value> RunSubquery(const BoundSubquery& subquery, const Frame& outer) {
  return SubqueryRun(subquery, outer, kAll).Run();
}

Cell EvaluateSubquery(const ast::SubqueryExpr& expr, const Frame& frame) {
  // EXISTS needs one value and a scalar subquery two to know the answer (§4.6 notes
  // that subqueries multiply the work); a streamable subquery stops there.
  const size_t enough = expr.subquery_kind == ast::SubqueryKind::kExists   ? 1
                        : expr.subquery_kind == ast::SubqueryKind::kScalar ? 2
                                                                           : kAll;
  std::vector<Value> values = SubqueryRun(*expr.bound, frame, enough).Run();
  switch (expr.subquery_kind) {
    case ast::SubqueryKind::kExists:
      // A value, not a binding: SELECT VALUE undefined yields none, so EXISTS is false.
      return Cell::Own(Value::Bool(!values.empty()));
    case ast::SubqueryKind::kArray:
      return Cell::Own(Value::MakeArray(std::move(values)));
    case ast::SubqueryKind::kScalar:
      break;
  }
  if (values.empty()) {
    return Cell();
  }
  if (values.size() > 1) {
    // The service answers 400 (§4.6); TOP 1 or an aggregate avoids it.
    if (frame.error != nullptr && frame.error->ok()) {
      *frame.error = Status::BadRequest("A scalar subquery returned more than one value.");
    }
    return Cell();
  }
  return Cell::Own(std::move(values.front()));
}

}  // namespace orrery::query
