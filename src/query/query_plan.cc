// BuildQueryPlan: the queryInfo of wire-protocol.md §9.5 and the rewritten per-range
// queries of §9.6, derived from the bound query.

#include "query/query_plan.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "json/json.h"
#include "query/ast.h"
#include "query/binder.h"
#include "query/full_text_references.h"
#include "query/functions.h"
#include "query/parser.h"
#include "query/rank_plan.h"
#include "query/vector_references.h"

namespace orrery::query {
namespace {

using json::Value;

std::string Text(const ast::Expr& expr) { return ast::ToString(expr); }

std::string Quoted(std::string_view s) {
  std::string out;
  json::AppendQuoted(out, s);
  return out;
}

const ast::CallExpr* AsAggregate(const ast::Expr& expr) {
  if (expr.kind != ast::ExprKind::kCall) {
    return nullptr;
  }
  const auto& call = ast::As<ast::CallExpr>(expr);
  return call.aggregate >= 0 ? &call : nullptr;
}

bool ContainsAggregate(const ast::Expr& expr) {
  if (AsAggregate(expr) != nullptr) {
    return true;
  }
  bool found = false;
  // VisitChildren takes a mutable expression; it only reads here.
  ast::VisitChildren(const_cast<ast::Expr&>(expr),
                     [&](ast::ExprPtr& child) { found = found || ContainsAggregate(*child); });
  return found;
}

// The name the SDKs use for an aggregate kind (queryInfo.aggregates and
// groupByAliasToAggregateType).
const char* AggregateName(AggregateKind kind) {
  switch (kind) {
    case AggregateKind::kCount:
      return "Count";
    case AggregateKind::kSum:
      return "Sum";
    case AggregateKind::kAvg:
      return "Average";
    case AggregateKind::kMin:
      return "Min";
    case AggregateKind::kMax:
      return "Max";
    case AggregateKind::kNone:
      break;
  }
  return "";
}

// What one range returns for an aggregate so that the SDK's aggregator of that kind can
// merge it: COUNT and SUM as they are, AVG as {sum, count}, MIN/MAX as {min|max, count}.
std::string PartialAggregate(const ast::CallExpr& call) {
  const AggregateKind kind = call.function->aggregate;
  const std::string arg = Text(*call.args.front());
  switch (kind) {
    case AggregateKind::kAvg:
      return "{\"sum\": SUM(" + arg + "), \"count\": COUNT(" + arg + ")}";
    case AggregateKind::kMin:
      return "{\"min\": MIN(" + arg + "), \"count\": COUNT(" + arg + ")}";
    case AggregateKind::kMax:
      return "{\"max\": MAX(" + arg + "), \"count\": COUNT(" + arg + ")}";
    default:
      return Text(call);
  }
}

// The partial of a `SELECT VALUE <aggregate>` without GROUP BY. A range whose AVG is
// poisoned (a non-number input) yields the undefined item `{}`, which makes the SDK
// return no row, as the server does for an undefined aggregate (SUM does so by
// itself); an empty range still yields a mergeable {sum: 0, count: 0}. MIN/MAX keep the
// service's shape: the SDK's Min/Max aggregators fail on `{}`, so a range poisoned by
// an array or object is skipped by the merge, as with the hosted service.
std::string ValuePartialAggregate(const ast::CallExpr& call) {
  if (call.function->aggregate == AggregateKind::kAvg) {
    return "(IS_DEFINED(SUM(" + Text(*call.args.front()) + ")) ? " + PartialAggregate(call) +
           " : undefined)";
  }
  return PartialAggregate(call);
}

Value Strings(const std::vector<std::string>& strings) {
  json::Array array;
  array.reserve(strings.size());
  for (const std::string& s : strings) {
    array.push_back(Value::String(s));
  }
  return Value::MakeArray(std::move(array));
}

Value OptionalInt(const std::optional<int64_t>& v) { return v ? Value::Int(*v) : Value::Null(); }

class PlanBuilder {
 public:
  PlanBuilder(BoundQuery& bound, const RankPlan& rank)
      : bound_(bound), q_(*bound.query), rank_(rank) {}

  Result<Value> Build() {
    if (q_.order_by_rank) {
      return HybridPlan();
    }
    if (bound_.is_aggregate) {
      if (!q_.order_by.empty()) {
        return Unsupported("aggregates with ORDER BY");
      }
      ORRERY_RETURN_IF_ERROR(RewriteAggregate());
    } else if (!q_.order_by.empty()) {
      RewriteOrderBy();
    } else if (bound_.offset && !q_.from.empty()) {
      RewritePlain();
    }
    return Plan();
  }

 private:
  Status Unsupported(std::string_view what) const {
    return Status::BadRequest(
        "The query plan cannot be computed for this query: " + std::string(what) +
        " is not supported by the cross-partition query pipeline.");
  }

  // " FROM ... JOIN ..." as ToString renders it (empty without FROM).
  std::string FromText() {
    if (q_.from.empty()) {
      return "";
    }
    ast::Query shell;
    shell.select.kind = ast::SelectKind::kStar;
    shell.from = std::move(q_.from);
    std::string text = ast::ToString(shell);
    q_.from = std::move(shell.from);
    constexpr std::string_view kPrefix = "SELECT *";
    return text.substr(kPrefix.size());
  }

  std::string WhereText(bool with_filter) const {
    if (!with_filter) {
      return q_.where ? " WHERE " + Text(*q_.where) : "";
    }
    const std::string filter(kOrderByFilterPlaceholder);
    return q_.where ? " WHERE (" + Text(*q_.where) + ") AND (" + filter + ")" : " WHERE " + filter;
  }

  std::string GroupByText() const {
    if (q_.group_by.empty()) {
      return "";
    }
    std::string out = " GROUP BY ";
    for (size_t k = 0; k < q_.group_by.size(); ++k) {
      out += (k > 0 ? ", " : "") + Text(*q_.group_by[k]);
    }
    return out;
  }

  std::string TopText() const { return q_.select.top ? "TOP " + Text(*q_.select.top) + " " : ""; }

  // Per range the first offset + limit rows are needed; the SDK skips and takes.
  std::string OffsetText() const {
    if (!bound_.offset) {
      return "";
    }
    const int64_t offset = *bound_.offset;
    const int64_t limit = *bound_.limit;
    const int64_t max = std::numeric_limits<int64_t>::max();
    return " OFFSET 0 LIMIT " + std::to_string(offset > max - limit ? max : offset + limit);
  }

  // The projection of the original query as one expression.
  std::string PayloadText() const {
    switch (q_.select.kind) {
      case ast::SelectKind::kStar:
        return q_.from.front().alias;
      case ast::SelectKind::kValue:
        return Text(*q_.select.value);
      case ast::SelectKind::kList:
        break;
    }
    std::string out = "{";
    for (size_t i = 0; i < q_.select.items.size(); ++i) {
      const ast::SelectItem& item = q_.select.items[i];
      out += (i > 0 ? ", " : "") + Quoted(item.output_name) + ": " + Text(*item.expr);
    }
    return out + "}";
  }

  // SELECT c._rid, [{"item": k1}, ...] AS orderByItems, <payload> AS payload FROM c
  // WHERE (<w>) AND ({filter}) ORDER BY k1 ASC, ...; DISTINCT leaves out _rid so that
  // duplicates still compare equal.
  void RewriteOrderBy() {
    std::string items = "[";
    for (size_t k = 0; k < q_.order_by.size(); ++k) {
      const ast::SortItem& sort = q_.order_by[k];
      const std::string expr = Text(*sort.expr);
      items += (k > 0 ? ", " : "") + std::string("{\"item\": ") + expr + "}";
      order_by_.push_back(sort.descending ? "Descending" : "Ascending");
      order_by_expressions_.push_back(expr);
    }
    items += "]";
    std::string select = "SELECT ";
    if (q_.select.distinct) {
      select += "DISTINCT ";
    }
    select += TopText();
    if (!q_.select.distinct && !q_.from.empty()) {
      select += q_.from.front().alias + "._rid, ";
    }
    select += items + " AS orderByItems, " + PayloadText() + " AS payload";
    std::string where = WhereText(/*with_filter=*/true);
    if (q_.select.kind == ast::SelectKind::kValue) {
      // SELECT VALUE of undefined gives no row; keep it so per range.
      where += " AND IS_DEFINED(" + Text(*q_.select.value) + ")";
    }
    std::string order = " ORDER BY ";
    for (size_t k = 0; k < q_.order_by.size(); ++k) {
      // A score is ranked most similar first by each range, as the service words it.
      const bool ranked = q_.order_by[k].ranks_by_score;
      non_streaming_ = non_streaming_ || ranked;
      order += (k > 0 ? ", " : "") + order_by_expressions_[k] +
               (ranked                      ? ""
                : q_.order_by[k].descending ? " DESC"
                                            : " ASC");
    }
    rewritten_ = select + FromText() + where + order + OffsetText();
  }

  // The original query with OFFSET o LIMIT l turned into OFFSET 0 LIMIT o+l.
  void RewritePlain() {
    ast::ExprPtr offset = std::move(q_.offset);
    ast::ExprPtr limit = std::move(q_.limit);
    rewritten_ = ast::ToString(q_) + OffsetText();
    q_.offset = std::move(offset);
    q_.limit = std::move(limit);
  }

  Status RewriteAggregate() {
    const std::string tail = FromText() + WhereText(/*with_filter=*/false) + GroupByText();
    for (const ast::ExprPtr& key : q_.group_by) {
      group_by_expressions_.push_back(Text(*key));
    }
    std::string group_items = "[";
    for (size_t k = 0; k < q_.group_by.size(); ++k) {
      group_items +=
          (k > 0 ? ", " : "") + std::string("{\"item\": ") + group_by_expressions_[k] + "}";
    }
    group_items += "]";

    if (q_.select.kind == ast::SelectKind::kValue) {
      has_select_value_ = true;
      const ast::Expr& value = *q_.select.value;
      std::string payload;
      if (const ast::CallExpr* call = AsAggregate(value)) {
        aggregates_.push_back(AggregateName(call->function->aggregate));
        payload = "[{\"item\": " +
                  (q_.group_by.empty() ? ValuePartialAggregate(*call) : PartialAggregate(*call)) +
                  "}]";
      } else if (ContainsAggregate(value)) {
        return Unsupported("an aggregate inside a SELECT VALUE expression");
      } else {
        payload = Text(value);
      }
      if (q_.group_by.empty()) {
        rewritten_ = "SELECT VALUE " + payload + tail;
      } else {
        rewritten_ =
            "SELECT " + group_items + " AS groupByItems, " + payload + " AS payload" + tail;
      }
      return Status::Ok();
    }

    // A select list: every alias is either an aggregate (merged by the SDK from its
    // {"item": partial}) or a group key or constant (the first value is taken).
    std::string payload = "{";
    for (size_t i = 0; i < q_.select.items.size(); ++i) {
      const ast::SelectItem& item = q_.select.items[i];
      group_by_aliases_.push_back(item.output_name);
      std::string value;
      if (const ast::CallExpr* call = AsAggregate(*item.expr)) {
        const char* name = AggregateName(call->function->aggregate);
        alias_to_aggregate_.emplace_back(item.output_name, Value::String(name));
        value = "{\"item\": " + PartialAggregate(*call) + "}";
      } else if (ContainsAggregate(*item.expr)) {
        return Unsupported("an aggregate inside a select item expression");
      } else {
        alias_to_aggregate_.emplace_back(item.output_name, Value::Null());
        value = Text(*item.expr);
      }
      payload += (i > 0 ? ", " : "") + Quoted(item.output_name) + ": " + value;
    }
    payload += "}";
    rewritten_ = "SELECT " + group_items + " AS groupByItems, " + payload + " AS payload" + tail;
    return Status::Ok();
  }

  // Every range; a query without FROM reads no items and must run once, so it gets the
  // point range at the minimum EPK, which only the first range overlaps.
  Value QueryRange() const {
    const bool once = q_.from.empty();
    return Value::MakeObject({
        {"min", Value::String("")},
        {"max", Value::String(once ? "" : "FF")},
        {"isMinInclusive", Value::Bool(true)},
        {"isMaxInclusive", Value::Bool(once)},
    });
  }

  // ---- ORDER BY RANK: hybridSearchQueryInfo (vector-fulltext-protocol.md §3) ----

  // The texts of the components' scores in the per-range queries: FullTextScore with
  // the statistics placeholders the SDK fills in, VectorDistance as resolved.
  std::vector<std::string> ComponentScoreTexts() const {
    std::vector<std::string> out;
    for (const RankComponent& c : rank_.components) {
      if (!c.full_text) {
        out.push_back(Text(*c.call));
        continue;
      }
      const std::string i = std::to_string(c.statistics_index);
      out.push_back(
          FullTextScoreText(c, "{documentdb-formattablehybridsearchquery-totaldocumentcount}",
                            "{documentdb-formattablehybridsearchquery-totalwordcount-" + i + "}",
                            "{documentdb-formattablehybridsearchquery-hitcountsarray-" + i + "}"));
    }
    return out;
  }

  // SELECT TOP t c._rid, [{"item": s_k}] AS orderByItems, {"payload": <projection>,
  // "componentScores": [s_0 ?? worst, ...]} AS payload FROM c WHERE (<w>) AND ({filter})
  // ORDER BY s_k: every component's query carries every score, so that the SDK can rank
  // each row it receives in every component.
  Value ComponentQueryInfo(size_t k, const std::vector<std::string>& scores, int64_t top) {
    const RankComponent& component = rank_.components[k];
    std::string all_scores;
    for (size_t i = 0; i < scores.size(); ++i) {
      const RankComponent& c = rank_.components[i];
      const char* worst = c.full_text ? "-1" : c.descending ? "-1.79769e+308" : "1.79769e+308";
      all_scores += (i > 0 ? ", " : "") + std::string("(") + scores[i] + " ?? " + worst + ")";
    }
    std::string where = WhereText(/*with_filter=*/true);
    // One FullTextScore ranks only the documents that hold a term (rank_plan.h).
    if (!rank_.rrf && component.full_text) where += " AND (" + scores[k] + " > 0)";
    const std::string alias = q_.from.front().alias;
    const std::string rewritten =
        "SELECT TOP " + std::to_string(top) + " " + alias + "._rid, [{\"item\": " + scores[k] +
        "}] AS orderByItems, {\"payload\": " + PayloadText() + ", \"componentScores\": [" +
        all_scores + "]} AS payload" + FromText() + where + " ORDER BY " + scores[k] +
        (component.full_text ? (component.descending ? " DESC" : " ASC") : "");
    return Value::MakeObject({
        {"distinctType", Value::String("None")},
        {"top", Value::Int(top)},
        {"offset", Value::Null()},
        {"limit", Value::Null()},
        {"orderBy", Strings({component.descending ? "Descending" : "Ascending"})},
        {"orderByExpressions", Strings({scores[k]})},
        {"groupByExpressions", Strings({})},
        {"groupByAliases", Strings({})},
        {"aggregates", Strings({})},
        {"groupByAliasToAggregateType", Value::MakeObject({})},
        {"rewrittenQuery", Value::String(rewritten)},
        {"hasSelectValue", Value::Bool(false)},
        {"dCountInfo", Value::Null()},
        {"hasNonStreamingOrderBy", Value::Bool(true)},
    });
  }

  Result<Value> HybridPlan() {
    if (q_.select.kind == ast::SelectKind::kValue) {
      return Unsupported("SELECT VALUE with ORDER BY RANK");
    }
    std::optional<int64_t> take = bound_.top;
    if (!take && bound_.limit) take = bound_.limit;
    const int64_t skip = bound_.offset.value_or(0);
    // Each component's per-range rows: the service asks 120 for TOP 10 and 200 for
    // TOP 100; twice what is shown, at least 120, does both.
    const int64_t wanted = take ? skip + *take : 100;
    const int64_t top = std::max<int64_t>(120, 2 * wanted);
    const std::vector<std::string> scores = ComponentScoreTexts();
    json::Array components;
    json::Array weights;
    for (size_t k = 0; k < rank_.components.size(); ++k) {
      components.push_back(ComponentQueryInfo(k, scores, top));
      weights.push_back(Value::Double(rank_.components[k].weight));
    }
    const bool statistics = !rank_.statistics_query.empty();
    const std::string statistics_query =
        statistics ? rank_.statistics_query
                   : "SELECT COUNT(1) AS documentCount, [] AS fullTextStatistics FROM " +
                         q_.from.front().alias;
    Value info = Value::MakeObject({
        {"globalStatisticsQuery", Value::String(statistics_query)},
        {"componentQueryInfos", Value::MakeArray(std::move(components))},
        {"componentWithoutPayloadQueryInfos", Value::MakeArray({})},
        {"projectionQueryInfo", Value::Null()},
        {"componentWeights", Value::MakeArray(std::move(weights))},
        {"skip", bound_.offset ? Value::Int(skip) : Value::Null()},
        {"take", OptionalInt(take)},
        {"requiresGlobalStatistics", Value::Bool(statistics)},
    });
    return Value::MakeObject({
        {"partitionedQueryExecutionInfoVersion", Value::Int(2)},
        {"queryRanges", Value::MakeArray({QueryRange()})},
        {"hybridSearchQueryInfo", std::move(info)},
    });
  }

  Value Plan() const {
    const char* distinct = "None";
    if (q_.select.distinct) {
      distinct = q_.order_by.empty() ? "Unordered" : "Ordered";
    }
    Value query_info = Value::MakeObject({
        {"distinctType", Value::String(distinct)},
        {"top", OptionalInt(bound_.top)},
        {"offset", OptionalInt(bound_.offset)},
        {"limit", OptionalInt(bound_.limit)},
        {"orderBy", Strings(order_by_)},
        {"orderByExpressions", Strings(order_by_expressions_)},
        {"groupByExpressions", Strings(group_by_expressions_)},
        {"groupByAliases", Strings(group_by_aliases_)},
        {"aggregates", Strings(aggregates_)},
        {"groupByAliasToAggregateType", Value::MakeObject(alias_to_aggregate_)},
        {"rewrittenQuery", Value::String(rewritten_)},
        {"hasSelectValue",
         Value::Bool(has_select_value_ || q_.select.kind == ast::SelectKind::kValue)},
        {"dCountInfo", Value::Null()},
        {"hasNonStreamingOrderBy", Value::Bool(non_streaming_)},
    });
    return Value::MakeObject({
        {"partitionedQueryExecutionInfoVersion", Value::Int(2)},
        {"queryInfo", std::move(query_info)},
        {"queryRanges", Value::MakeArray({QueryRange()})},
        {"hybridSearchQueryInfo", Value::Null()},
    });
  }

  BoundQuery& bound_;
  ast::Query& q_;
  std::vector<std::string> order_by_;
  std::vector<std::string> order_by_expressions_;
  std::vector<std::string> group_by_expressions_;
  std::vector<std::string> group_by_aliases_;
  std::vector<std::string> aggregates_;
  json::Object alias_to_aggregate_;
  std::string rewritten_;
  bool has_select_value_ = false;
  // ORDER BY a score (VectorDistance): the SDK buffers the best TOP rows of every range.
  bool non_streaming_ = false;
  const RankPlan& rank_;
};

}  // namespace

Result<Value> BuildQueryPlan(std::string_view text, const std::vector<Parameter>& parameters,
                             const VectorPolicy* vectors, const FullTextPolicy* full_text) {
  // Compile() applies the length limit and every check the query itself would get.
  ORRERY_RETURN_IF_ERROR(Compile(text, parameters, nullptr, vectors, full_text).status());
  ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<ast::Query> query, Parse(text));
  ORRERY_ASSIGN_OR_RETURN(BoundQuery bound, Bind(text, std::move(query), parameters));
  ORRERY_RETURN_IF_ERROR(ResolveVectorDistances(text, bound, vectors));
  ResolveFullTextLanguages(bound, full_text);
  ORRERY_ASSIGN_OR_RETURN(RankPlan rank, PlanRank(text, bound, full_text));
  return PlanBuilder(bound, rank).Build();
}

}  // namespace orrery::query
