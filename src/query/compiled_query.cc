// Compile() and the CompiledQuery behind query.h: binds the FROM sources of one item,
// filters with WHERE, projects rows, and finishes the scope (sort, group, distinct,
// page).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <unordered_map>
#include <utility>

#include "json/json.h"
#include "query/access_path_builder.h"
#include "query/aggregate.h"
#include "query/binder.h"
#include "query/computed_references.h"
#include "query/errors.h"
#include "query/evaluator.h"
#include "query/field_usage.h"
#include "query/full_text_ranking.h"
#include "query/full_text_references.h"
#include "query/full_text_statistics.h"
#include "query/geometry_references.h"
#include "query/limits.h"
#include "query/operators.h"
#include "query/ordering.h"
#include "query/parser.h"
#include "query/query.h"
#include "query/rank_plan.h"
#include "query/subquery.h"
#include "query/unicode.h"
#include "query/user_functions.h"
#include "query/vector_references.h"

namespace orrery::query {
namespace {

uint64_t QueryFingerprint(std::string_view text, const std::vector<Parameter>& parameters) {
  std::string identity(text);
  for (const Parameter& parameter : parameters) {
    identity += '\0';
    identity += parameter.name;
    identity += '=';
    identity += json::Write(parameter.value);
  }
  return std::hash<std::string>{}(identity);
}

// NaN and the infinities have no JSON form. How the service serializes them is not
// documented; query-language.md §1 recommends treating them as undefined in results,
// so they leave rows, members and elements the way undefined does.
void DropNonFinite(json::Value& value) {
  switch (value.type()) {
    case json::Type::kNumber:
      if (!value.is_integer() && !std::isfinite(value.as_double())) {
        value = json::Value();
      }
      return;
    case json::Type::kArray: {
      json::Array& elements = value.as_array();
      for (json::Value& element : elements) {
        DropNonFinite(element);
      }
      std::erase_if(elements, [](const json::Value& v) { return v.is_undefined(); });
      return;
    }
    case json::Type::kObject: {
      json::Object& members = value.as_object();
      for (json::Member& member : members) {
        DropNonFinite(member.second);
      }
      std::erase_if(members, [](const json::Member& m) { return m.second.is_undefined(); });
      return;
    }
    default:
      return;
  }
}

// Values read straight from an item (a path) came from JSON and are always finite, so
// only computed values need the walk.
void DropNonFiniteComputed(const ast::Expr& expr, json::Value& value) {
  if (!ast::IsPropertyPath(expr)) {
    DropNonFinite(value);
  }
}

class CompiledQueryImpl final : public CompiledQuery {
 public:
  CompiledQueryImpl(BoundQuery bound, std::shared_ptr<const ComputedProperties> computed,
                    RankPlan rank)
      : computed_(std::move(computed)),
        rank_(std::move(rank)),
        bound_(std::move(bound)),
        query_(*bound_.query),
        shape_(BuildAccessShape(bound_)),
        vector_ranking_(FindVectorRanking(bound_)),
        full_text_ranking_(FindFullTextRanking(bound_)),
        full_text_statistics_(MatchFullTextStatistics(bound_)),
        members_(ItemMembersUsed(bound_)) {}

  const AccessShape& access_shape() const override { return shape_; }
  const CompileTimings& compile_timings() const override { return timings_; }
  bool ranks_by_score() const override {
    return query_.order_by.size() == 1 && query_.order_by.front().ranks_by_score;
  }
  const VectorRanking* vector_ranking() const override {
    return vector_ranking_ ? &*vector_ranking_ : nullptr;
  }
  const std::string* rank_statistics_query() const override {
    return rank_.statistics_query.empty() || statistics_set_ ? nullptr : &rank_.statistics_query;
  }
  const FullTextStatisticsQuery* full_text_statistics() const override {
    return full_text_statistics_ ? &*full_text_statistics_ : nullptr;
  }
  const FullTextRanking* full_text_ranking() const override {
    return full_text_ranking_ ? &*full_text_ranking_ : nullptr;
  }
  Status SetRankStatistics(const json::Value& statistics) override {
    ORRERY_RETURN_IF_ERROR(InjectStatistics(rank_, statistics));
    statistics_set_ = true;
    full_text_ranking_ = FindFullTextRanking(bound_);  // the score now has its statistics
    return Status::Ok();
  }
  void set_compile_timings(const CompileTimings& timings) { timings_ = timings; }
  uint64_t fingerprint() const override { return fingerprint_; }
  void set_fingerprint(uint64_t fingerprint) { fingerprint_ = fingerprint; }
  const std::vector<std::string>* item_members() const override {
    return members_ ? &*members_ : nullptr;
  }

  using CompiledQuery::EvaluateDocument;
  Status EvaluateDocument(const json::Value& document, std::vector<Row>& out,
                          RowBudget& budget) const override {
    // One buffer per thread: EvaluateDocument runs once per item of a scan, never
    // re-entered (subqueries bind their own slots), so the allocation is spared.
    thread_local std::vector<const json::Value*> slots;
    slots.assign(static_cast<size_t>(bound_.slot_count), nullptr);
    slots[kItemSlot] = &document;
    budget.StartItem();
    // A scalar subquery with several values (query-language.md §4.6), or the budget.
    Status error;
    const Item item{slots, out, error, budget};
    if (query_.from.empty()) {
      EmitBinding(item);
    } else {
      BindSource(0, item);
    }
    if (budget.exceeded()) {
      return budget.Error();
    }
    return error;
  }

  bool needs_full_result() const override {
    return !query_.order_by.empty() || bound_.is_aggregate || query_.select.distinct ||
           bound_.offset.has_value();
  }

  std::optional<int64_t> top() const override { return bound_.top; }
  bool keeps_row_order() const override {
    return query_.order_by.empty() && !bound_.is_aggregate && !query_.select.distinct;
  }
  std::optional<int64_t> offset() const override { return bound_.offset; }
  std::optional<int64_t> limit() const override { return bound_.limit; }

  bool reads_items() const override { return !query_.from.empty(); }

  Result<std::vector<json::Value>> Finish(std::vector<Row> rows) const override {
    ORRERY_ASSIGN_OR_RETURN(std::vector<json::Value> values, FinishUnpaged(std::move(rows)));
    if (bound_.offset) {
      Page(values, *bound_.offset, *bound_.limit);
    }
    if (bound_.top) {
      Page(values, 0, *bound_.top);
    }
    return values;
  }

  Result<std::vector<json::Value>> FinishUnpaged(std::vector<Row> rows) const override {
    std::vector<json::Value> values;
    if (bound_.is_aggregate) {
      values = Aggregate(rows);
    } else {
      SortRows(rows);
      values.reserve(rows.size());
      for (Row& row : rows) {
        values.push_back(std::move(row.value));
      }
    }
    if (query_.select.distinct) {
      RemoveDuplicates(values);
    }
    return values;
  }

 private:
  // ---- One item ----

  // What the evaluation of one item works on.
  struct Item {
    std::vector<const json::Value*>& slots;
    std::vector<Row>& out;
    Status& error;
    RowBudget& budget;

    Frame MakeFrame() const { return Frame{.slots = slots, .error = &error, .budget = &budget}; }
    bool stopped() const { return !error.ok() || budget.exceeded(); }
  };

  // Binds from[index] and every later source (each JOIN multiplies the rows), then
  // emits the rows of each complete binding.
  void BindSource(size_t index, const Item& item) const {
    if (index == query_.from.size()) {
      EmitBinding(item);
      return;
    }
    std::vector<const json::Value*>& slots = item.slots;
    const ast::FromSource& source = query_.from[index];
    const auto slot = static_cast<size_t>(source.slot);
    if (ast::IsSubquerySource(source)) {
      const std::vector<json::Value> values = RunSubquery(*source.bound_subquery, item.MakeFrame());
      for (const json::Value& value : values) {
        if (item.stopped()) break;
        if (source.kind == ast::SourceKind::kSubquery) {
          // (SELECT ...) AS x binds x to each value the subquery yields.
          slots[slot] = &value;
          BindSource(index + 1, item);
        } else if (value.is_array()) {
          // x IN (SELECT ...) is IN over the subquery's values: x takes each element of
          // each array value; other values yield nothing (IterateElements in
          // subquery.cc gives the documented behaviour this follows).
          for (const json::Value& element : value.as_array()) {
            if (item.stopped()) break;
            slots[slot] = &element;
            BindSource(index + 1, item);
          }
        }
      }
      slots[slot] = nullptr;
      return;
    }
    const Cell value = Evaluate(*source.collection, item.MakeFrame());
    if (source.kind == ast::SourceKind::kIterate) {
      // A missing or non-array collection yields no rows, like an inner join.
      if (value.get().is_array()) {
        for (const json::Value& element : value.get().as_array()) {
          if (item.stopped()) break;
          slots[slot] = &element;
          BindSource(index + 1, item);
        }
      }
    } else if (!value.get().is_undefined()) {
      slots[slot] = &value.get();
      BindSource(index + 1, item);
    }
    slots[slot] = nullptr;
  }

  void EmitBinding(const Item& item) const {
    if (!item.budget.ChargeBinding()) {
      return;
    }
    const Frame frame = item.MakeFrame();
    // WHERE keeps a row only when the predicate is exactly true (§4.3).
    if (query_.where && !IsTrue(Evaluate(*query_.where, frame).get())) {
      return;
    }
    Row row;
    if (bound_.is_aggregate) {
      row.value = AggregateInputs(frame);
    } else {
      row.value = Project(frame);
      if (row.value.is_undefined()) {
        return;  // SELECT VALUE of undefined emits no row
      }
      if (!SortKeysOf(frame, row.sort_keys)) return;
    }
    size_t bytes = sizeof(Row) + json::ApproximateBytes(row.value);
    for (const json::Value& key : row.sort_keys) {
      bytes += json::ApproximateBytes(key);
    }
    item.budget.ChargeRow(bytes);
    item.out.push_back(std::move(row));
  }

  // A row's sort keys: its ORDER BY keys, or with ORDER BY RANK the scores of the
  // ranking's components (fused once the scope is complete). False when the row is not
  // ranked: an item without a vector to compare.
  bool SortKeysOf(const Frame& frame, std::vector<json::Value>& keys) const {
    if (!rank_.components.empty()) {
      for (const RankComponent& component : rank_.components) {
        keys.push_back(Evaluate(*component.call, frame).Take());
      }
      return true;
    }
    keys.reserve(query_.order_by.size());
    for (const ast::SortItem& sort : query_.order_by) {
      keys.push_back(Evaluate(*sort.expr, frame).Take());
      if (sort.ranks_by_score && !keys.back().is_number()) return false;
    }
    return true;
  }

  // The SELECT clause; undefined members are left out (§4.5).
  json::Value Project(const Frame& frame) const {
    const ast::SelectClause& select = query_.select;
    switch (select.kind) {
      case ast::SelectKind::kStar:
        return *frame.slots[static_cast<size_t>(query_.from.front().slot)];
      case ast::SelectKind::kValue: {
        json::Value value = Evaluate(*select.value, frame).Take();
        DropNonFiniteComputed(*select.value, value);
        return value;
      }
      case ast::SelectKind::kList:
        break;
    }
    json::Object members;
    members.reserve(select.items.size());
    for (const ast::SelectItem& item : select.items) {
      json::Value value = Evaluate(*item.expr, frame).Take();
      DropNonFiniteComputed(*item.expr, value);
      if (!value.is_undefined()) {
        members.emplace_back(item.output_name, std::move(value));
      }
    }
    return json::Value::MakeObject(std::move(members));
  }

  // The row of an aggregate query: [group key 1, ..., group key G, aggregate input 1,
  // ..., aggregate input A], undefined entries kept. Only Finish reads it.
  json::Value AggregateInputs(const Frame& frame) const {
    json::Array inputs;
    inputs.reserve(query_.group_by.size() + bound_.aggregates.size());
    for (const ast::ExprPtr& key : query_.group_by) {
      inputs.push_back(Evaluate(*key, frame).Take());
    }
    for (const ast::CallExpr* aggregate : bound_.aggregates) {
      inputs.push_back(Evaluate(*aggregate->args.front(), frame).Take());
    }
    return json::Value::MakeArray(std::move(inputs));
  }

  // ---- The whole scope ----

  // ORDER BY RANK: rows no component ranks leave; the others by their fused rank.
  void RankRows(std::vector<Row>& rows) const {
    std::vector<std::vector<json::Value>> scores;
    scores.reserve(rows.size());
    for (Row& row : rows) scores.push_back(std::move(row.sort_keys));
    const std::vector<std::optional<double>> fused = FuseRanks(rank_, scores);
    std::vector<std::pair<double, Row>> ranked;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (fused[i]) ranked.emplace_back(*fused[i], std::move(rows[i]));
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    rows.clear();
    for (auto& [key, row] : ranked) rows.push_back(std::move(row));
  }

  void SortRows(std::vector<Row>& rows) const {
    if (!rank_.components.empty()) {
      RankRows(rows);
      return;
    }
    if (query_.order_by.empty()) {
      return;
    }
    static const json::Value kUndefined;
    const auto key = [](const Row& row, size_t k) -> const json::Value& {
      return k < row.sort_keys.size() ? row.sort_keys[k] : kUndefined;
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
      for (size_t k = 0; k < query_.order_by.size(); ++k) {
        int c = CompareValues(key(a, k), key(b, k));
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

  struct Group {
    std::vector<json::Value> keys;
    std::vector<Aggregator> aggregators;
  };

  Group NewGroup(std::vector<json::Value> keys) const {
    Group group{std::move(keys), {}};
    group.aggregators.reserve(bound_.aggregates.size());
    for (const ast::CallExpr* aggregate : bound_.aggregates) {
      group.aggregators.emplace_back(aggregate->function->aggregate);
    }
    return group;
  }

  // Folds the rows into groups (one group for the whole scope without GROUP BY, even
  // when it is empty, so COUNT gives 0), then projects each group.
  std::vector<json::Value> Aggregate(std::vector<Row>& rows) const {
    const size_t key_count = query_.group_by.size();
    std::vector<Group> groups;
    std::unordered_map<json::Value, size_t, ValueHash, ValueEqual> index;
    if (key_count == 0) {
      groups.push_back(NewGroup({}));
    }
    for (Row& row : rows) {
      json::Array& inputs = row.value.as_array();
      size_t g = 0;
      if (key_count > 0) {
        json::Array keys(std::make_move_iterator(inputs.begin()),
                         std::make_move_iterator(inputs.begin() + static_cast<long>(key_count)));
        auto [it, inserted] = index.try_emplace(json::Value::MakeArray(keys), groups.size());
        if (inserted) {
          groups.push_back(NewGroup(std::move(keys)));
        }
        g = it->second;
      }
      for (size_t a = 0; a < bound_.aggregates.size(); ++a) {
        groups[g].aggregators[a].Add(inputs[key_count + a]);
      }
    }
    // The service returns the groups of one GROUP BY expression in ascending order of
    // their keys (undefined first), and those of two or more in the order in which each
    // group's first row was met (Microsoft's query samples, checked in order against the
    // emulator: group-by/result.json and group-by-multiple/result.json).
    if (key_count == 1) {
      std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
        return CompareValues(a.keys[0], b.keys[0]) < 0;
      });
    }
    std::vector<json::Value> values;
    values.reserve(groups.size());
    for (const Group& group : groups) {
      std::vector<json::Value> results;
      results.reserve(group.aggregators.size());
      for (const Aggregator& aggregator : group.aggregators) {
        results.push_back(aggregator.Result());
      }
      const Frame frame{.slots = {}, .aggregates = &results, .group_keys = &group.keys};
      json::Value value = Project(frame);
      if (!value.is_undefined()) {
        values.push_back(std::move(value));
      }
    }
    return values;
  }

  // Keeps the first of each set of deep-equal values (§4.9).
  static void RemoveDuplicates(std::vector<json::Value>& values) {
    std::unordered_map<json::Value, bool, ValueHash, ValueEqual> seen;
    std::vector<json::Value> unique;
    unique.reserve(values.size());
    for (json::Value& value : values) {
      if (seen.try_emplace(value, true).second) {
        unique.push_back(std::move(value));
      }
    }
    values = std::move(unique);
  }

  static void Page(std::vector<json::Value>& values, int64_t skip, int64_t take) {
    const auto size = static_cast<int64_t>(values.size());
    const int64_t begin = std::min(skip, size);
    const int64_t end = std::min(size, begin + std::min(take, size));
    values.erase(values.begin() + end, values.end());
    values.erase(values.begin(), values.begin() + begin);
  }

  // What the tree's computed references point to (null without any).
  const std::shared_ptr<const ComputedProperties> computed_;
  RankPlan rank_;  // points into bound_'s tree, whose nodes never move
  bool statistics_set_ = false;
  BoundQuery bound_;
  const ast::Query& query_;
  const AccessShape shape_;
  const std::optional<VectorRanking> vector_ranking_;
  std::optional<FullTextRanking> full_text_ranking_;
  const std::optional<FullTextStatisticsQuery> full_text_statistics_;
  const std::optional<std::vector<std::string>> members_;
  CompileTimings timings_;
  uint64_t fingerprint_ = 0;
};

}  // namespace

Result<std::unique_ptr<CompiledQuery>> Compile(std::string_view text,
                                               std::vector<Parameter> parameters) {
  return Compile(text, std::move(parameters), nullptr);
}

Result<std::unique_ptr<CompiledQuery>> Compile(
    std::string_view text, std::vector<Parameter> parameters,
    std::shared_ptr<const ComputedProperties> computed, const VectorPolicy* vectors,
    const FullTextPolicy* full_text, spatial::CoordinateSystem spatial, const UserFunctions* udfs) {
  if (text.size() > kMaxQueryCharacters && Utf16Length(text) > kMaxQueryCharacters) {
    return QueryError(text, SourceRange{0, 0}, kQueryTooLong,
                      "The SQL query text exceeded the maximum limit of " +
                          std::to_string(kMaxQueryCharacters) + " characters.");
  }
  CompileTimings timings;
  auto start = std::chrono::steady_clock::now();
  const auto lap = [&start] {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - start).count();
    start = now;
    return ms;
  };
  ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<ast::Query> query, Parse(text));
  timings.parse_ms = lap();
  ORRERY_ASSIGN_OR_RETURN(BoundQuery bound, Bind(text, std::move(query), parameters));
  if (computed) ResolveComputedReferences(bound, *computed);
  ORRERY_RETURN_IF_ERROR(ResolveVectorDistances(text, bound, vectors));
  ResolveFullTextLanguages(bound, full_text);
  if (spatial == spatial::CoordinateSystem::kGeometry) ResolveGeometryFunctions(bound);
  ORRERY_RETURN_IF_ERROR(ResolveUserFunctions(text, bound, udfs));
  timings.bind_ms = lap();
  ORRERY_ASSIGN_OR_RETURN(RankPlan rank, PlanRank(text, bound, full_text));
  auto compiled =
      std::make_unique<CompiledQueryImpl>(std::move(bound), std::move(computed), std::move(rank));
  timings.shape_ms = lap();
  compiled->set_compile_timings(timings);
  compiled->set_fingerprint(QueryFingerprint(text, parameters));
  return std::unique_ptr<CompiledQuery>(std::move(compiled));
}

}  // namespace orrery::query
