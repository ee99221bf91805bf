// BuildQueryPlan: the plan's queryInfo (wire-protocol.md §9.5) and the rewritten
// per-range queries (§9.6), which must run on Orrery's own engine and give the row
// shapes the SDK merges.

#include "query/query_plan.h"

#include <gtest/gtest.h>

#include <string>

#include "json/json.h"
#include "query/query_test_util.h"
#include "query/vector_policy.h"

namespace orrery::query {
namespace {

using testing::Execute;
using testing::J;
using testing::Params;

constexpr std::string_view kItems = R"([
  {"id": "1", "_rid": "r1", "n": 3, "g": "a", "s": "x"},
  {"id": "2", "_rid": "r2", "n": 1, "g": "b"},
  {"id": "3", "_rid": "r3", "g": "a", "s": "y"},
  {"id": "4", "_rid": "r4", "n": 2, "g": null}
])";

json::Value Plan(std::string_view query, std::vector<Parameter> params = {}) {
  auto plan = BuildQueryPlan(query, params);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  return plan.ok() ? std::move(plan).value() : json::Value();
}

json::Value Info(std::string_view query, std::vector<Parameter> params = {}) {
  json::Value plan = Plan(query, std::move(params));
  const json::Value* info = plan.Find("queryInfo");
  return info != nullptr ? *info : json::Value();
}

std::string Member(const json::Value& object, std::string_view name) {
  const json::Value* v = object.Find(name);
  return v != nullptr ? json::Write(*v) : "<absent>";
}

std::string Rewritten(std::string_view query) {
  const json::Value info = Info(query);
  const json::Value* text = info.Find("rewrittenQuery");
  return text != nullptr && text->is_string() ? text->as_string() : "<none>";
}

// Runs the rewritten query the way the SDK sends it on the first pass.
std::string RunRewritten(std::string_view query, std::string_view items = kItems,
                         std::vector<Parameter> params = {}) {
  std::string text = Rewritten(query);
  if (const size_t at = text.find(kOrderByFilterPlaceholder); at != std::string::npos) {
    text.replace(at, kOrderByFilterPlaceholder.size(), "true");
  }
  return Execute(text, items, std::move(params));
}

TEST(QueryPlanTest, TrivialQueryHasTheFullMemberSetAndNoRewrite) {
  const json::Value plan = Plan("SELECT * FROM c WHERE c.n > 1");
  EXPECT_EQ(json::Write(plan),
            R"({"partitionedQueryExecutionInfoVersion":2,"queryInfo":{"distinctType":"None",)"
            R"("top":null,"offset":null,"limit":null,"orderBy":[],"orderByExpressions":[],)"
            R"("groupByExpressions":[],"groupByAliases":[],"aggregates":[],)"
            R"("groupByAliasToAggregateType":{},"rewrittenQuery":"","hasSelectValue":false,)"
            R"("dCountInfo":null,"hasNonStreamingOrderBy":false},"queryRanges":[{"min":"",)"
            R"("max":"FF","isMinInclusive":true,"isMaxInclusive":false}],)"
            R"("hybridSearchQueryInfo":null})");
}

TEST(QueryPlanTest, CompileErrorsAreReported) {
  EXPECT_FALSE(BuildQueryPlan("SELECT FROM", {}).ok());
  EXPECT_FALSE(BuildQueryPlan("SELECT * FROM c WHERE c.n > @missing", {}).ok());
}

TEST(QueryPlanTest, OrderByStar) {
  const json::Value info = Info("SELECT * FROM c WHERE c.n > 0 ORDER BY c.n DESC, c.id");
  EXPECT_EQ(Member(info, "orderBy"), R"(["Descending","Ascending"])");
  EXPECT_EQ(Member(info, "orderByExpressions"), R"(["c.n","c.id"])");
  EXPECT_EQ(Member(info, "rewrittenQuery"),
            R"("SELECT c._rid, [{\"item\": c.n}, {\"item\": c.id}] AS orderByItems, c AS payload )"
            R"(FROM c AS c WHERE ((c.n > 0)) AND ({documentdb-formattableorderbyquery-filter}) )"
            R"(ORDER BY c.n DESC, c.id ASC")");
  EXPECT_EQ(Member(info, "hasSelectValue"), "false");
}

TEST(QueryPlanTest, OrderByRowsCarryRidItemsAndPayload) {
  EXPECT_EQ(RunRewritten("SELECT c.id, c.n FROM c ORDER BY c.n"),
            R"([{"_rid":"r3","orderByItems":[{}],"payload":{"id":"3"}},)"
            R"({"_rid":"r2","orderByItems":[{"item":1}],"payload":{"id":"2","n":1}},)"
            R"({"_rid":"r4","orderByItems":[{"item":2}],"payload":{"id":"4","n":2}},)"
            R"({"_rid":"r1","orderByItems":[{"item":3}],"payload":{"id":"1","n":3}}])");
  EXPECT_EQ(RunRewritten("SELECT VALUE c.s FROM c ORDER BY c.s DESC"),
            R"([{"_rid":"r3","orderByItems":[{"item":"y"}],"payload":"y"},)"
            R"({"_rid":"r1","orderByItems":[{"item":"x"}],"payload":"x"}])");
}

TEST(QueryPlanTest, OrderByKeepsTopAndWidensOffsetLimit) {
  const json::Value top = Info("SELECT TOP 2 * FROM c ORDER BY c.n");
  EXPECT_EQ(Member(top, "top"), "2");
  EXPECT_NE(Member(top, "rewrittenQuery").find("SELECT TOP 2 c._rid"), std::string::npos);
  EXPECT_EQ(RunRewritten("SELECT TOP 2 c.id FROM c ORDER BY c.n"),
            R"([{"_rid":"r3","orderByItems":[{}],"payload":{"id":"3"}},)"
            R"({"_rid":"r2","orderByItems":[{"item":1}],"payload":{"id":"2"}}])");

  const json::Value page = Info("SELECT c.id FROM c ORDER BY c.n OFFSET 1 LIMIT 2");
  EXPECT_EQ(Member(page, "offset"), "1");
  EXPECT_EQ(Member(page, "limit"), "2");
  EXPECT_NE(Member(page, "rewrittenQuery").find("ORDER BY c.n ASC OFFSET 0 LIMIT 3\""),
            std::string::npos);
  EXPECT_EQ(RunRewritten("SELECT c.id FROM c ORDER BY c.n OFFSET 1 LIMIT 2"),
            R"([{"_rid":"r3","orderByItems":[{}],"payload":{"id":"3"}},)"
            R"({"_rid":"r2","orderByItems":[{"item":1}],"payload":{"id":"2"}},)"
            R"({"_rid":"r4","orderByItems":[{"item":2}],"payload":{"id":"4"}}])");
}

TEST(QueryPlanTest, OffsetLimitWithoutOrderBy) {
  const json::Value info =
      Info("SELECT c.id FROM c WHERE c.n > @m OFFSET 2 LIMIT 3", Params(R"({"@m": 0})"));
  EXPECT_EQ(Member(info, "offset"), "2");
  EXPECT_EQ(Member(info, "limit"), "3");
  EXPECT_EQ(Member(info, "rewrittenQuery"),
            R"("SELECT c.id FROM c AS c WHERE (c.n > @m) OFFSET 0 LIMIT 5")");
}

TEST(QueryPlanTest, ParametersInTopAndOffset) {
  const json::Value info = Info("SELECT TOP @t c.id FROM c ORDER BY c.n", Params(R"({"@t": 3})"));
  EXPECT_EQ(Member(info, "top"), "3");
  const json::Value page =
      Info("SELECT * FROM c OFFSET @o LIMIT @l", Params(R"({"@o": 1, "@l": 4})"));
  EXPECT_EQ(Member(page, "rewrittenQuery"), R"("SELECT * FROM c AS c OFFSET 0 LIMIT 5")");
}

TEST(QueryPlanTest, ValueAggregates) {
  const json::Value count = Info("SELECT VALUE COUNT(1) FROM c");
  EXPECT_EQ(Member(count, "aggregates"), R"(["Count"])");
  EXPECT_EQ(Member(count, "hasSelectValue"), "true");
  EXPECT_EQ(Member(count, "rewrittenQuery"),
            R"("SELECT VALUE [{\"item\": COUNT(1)}] FROM c AS c")");
  EXPECT_EQ(RunRewritten("SELECT VALUE COUNT(1) FROM c"), R"([[{"item":4}]])");
  EXPECT_EQ(RunRewritten("SELECT VALUE COUNT(1) FROM c", "[]"), R"([[{"item":0}]])");
  EXPECT_EQ(Member(Info("SELECT VALUE SUM(c.n) FROM c"), "aggregates"), R"(["Sum"])");
  EXPECT_EQ(RunRewritten("SELECT VALUE SUM(c.n) FROM c"), R"([[{"item":6}]])");
  EXPECT_EQ(Member(Info("SELECT VALUE AVG(c.n) FROM c"), "aggregates"), R"(["Average"])");
  EXPECT_EQ(RunRewritten("SELECT VALUE AVG(c.n) FROM c"), R"([[{"item":{"sum":6,"count":3}}]])");
  EXPECT_EQ(RunRewritten("SELECT VALUE AVG(c.n) FROM c", "[]"),
            R"([[{"item":{"sum":0,"count":0}}]])");
  EXPECT_EQ(Member(Info("SELECT VALUE MIN(c.n) FROM c"), "aggregates"), R"(["Min"])");
  EXPECT_EQ(RunRewritten("SELECT VALUE MIN(c.n) FROM c"), R"([[{"item":{"min":1,"count":3}}]])");
  EXPECT_EQ(Member(Info("SELECT VALUE MAX(c.s) FROM c"), "aggregates"), R"(["Max"])");
  EXPECT_EQ(RunRewritten("SELECT VALUE MAX(c.s) FROM c WHERE c.n > 0"),
            R"([[{"item":{"max":"x","count":1}}]])");
  EXPECT_EQ(RunRewritten("SELECT VALUE MAX(c.missing) FROM c"), R"([[{"item":{"count":0}}]])");
}

TEST(QueryPlanTest, PoisonedValueAggregatesYieldTheUndefinedItem) {
  // The server gives no row for these; `[{}]` makes the SDK give none either.
  EXPECT_EQ(Execute("SELECT VALUE SUM(c.g) FROM c", kItems), "[]");
  EXPECT_EQ(RunRewritten("SELECT VALUE SUM(c.g) FROM c"), R"([[{}]])");
  EXPECT_EQ(RunRewritten("SELECT VALUE AVG(c.g) FROM c"), R"([[{}]])");
  // MIN/MAX keep the service's shape (the SDK's Min/Max aggregators fail on `{}`).
  constexpr std::string_view kArrays = R"([{"v": [1]}, {"v": 2}])";
  EXPECT_EQ(Execute("SELECT VALUE MIN(c.v) FROM c", kArrays), "[]");
  EXPECT_EQ(RunRewritten("SELECT VALUE MIN(c.v) FROM c", kArrays), R"([[{"item":{"count":2}}]])");
}

TEST(QueryPlanTest, GroupBy) {
  const std::string query = "SELECT c.g AS g, COUNT(1) AS cnt, AVG(c.n) AS a FROM c GROUP BY c.g";
  const json::Value info = Info(query);
  EXPECT_EQ(Member(info, "groupByExpressions"), R"(["c.g"])");
  EXPECT_EQ(Member(info, "groupByAliases"), R"(["g","cnt","a"])");
  EXPECT_EQ(Member(info, "groupByAliasToAggregateType"),
            R"({"g":null,"cnt":"Count","a":"Average"})");
  EXPECT_EQ(Member(info, "aggregates"), "[]");
  EXPECT_EQ(Member(info, "hasSelectValue"), "false");
  EXPECT_EQ(
      Member(info, "rewrittenQuery"),
      R"("SELECT [{\"item\": c.g}] AS groupByItems, {\"g\": c.g, \"cnt\": {\"item\": )"
      R"(COUNT(1)}, \"a\": {\"item\": {\"sum\": SUM(c.n), \"count\": COUNT(c.n)}}} AS payload )"
      R"(FROM c AS c GROUP BY c.g")");
  // Groups come out in ascending order of their keys: null before strings.
  EXPECT_EQ(RunRewritten(query),
            R"([{"groupByItems":[{"item":null}],"payload":{"g":null,"cnt":{"item":1},)"
            R"("a":{"item":{"sum":2,"count":1}}}},)"
            R"({"groupByItems":[{"item":"a"}],"payload":{"g":"a","cnt":{"item":2},)"
            R"("a":{"item":{"sum":3,"count":1}}}},)"
            R"({"groupByItems":[{"item":"b"}],"payload":{"g":"b","cnt":{"item":1},)"
            R"("a":{"item":{"sum":1,"count":1}}}}])");
}

TEST(QueryPlanTest, GroupByValueAndAggregatesWithoutGroupBy) {
  const json::Value value = Info("SELECT VALUE c.g FROM c GROUP BY c.g");
  EXPECT_EQ(Member(value, "hasSelectValue"), "true");
  EXPECT_EQ(Member(value, "aggregates"), "[]");
  EXPECT_EQ(RunRewritten("SELECT VALUE c.g FROM c WHERE c.n > 0 GROUP BY c.g"),
            R"([{"groupByItems":[{"item":null}],"payload":null},)"
            R"({"groupByItems":[{"item":"a"}],"payload":"a"},)"
            R"({"groupByItems":[{"item":"b"}],"payload":"b"}])");
  const json::Value count = Info("SELECT VALUE COUNT(1) FROM c GROUP BY c.g");
  EXPECT_EQ(Member(count, "aggregates"), R"(["Count"])");
  EXPECT_EQ(Member(count, "rewrittenQuery"),
            R"("SELECT [{\"item\": c.g}] AS groupByItems, [{\"item\": COUNT(1)}] AS payload )"
            R"(FROM c AS c GROUP BY c.g")");

  const std::string plain = "SELECT COUNT(1) AS n, MIN(c.n) AS lo FROM c";
  EXPECT_EQ(Member(Info(plain), "groupByAliasToAggregateType"), R"({"n":"Count","lo":"Min"})");
  EXPECT_EQ(
      RunRewritten(plain),
      R"([{"groupByItems":[],"payload":{"n":{"item":4},"lo":{"item":{"min":1,"count":3}}}}])");
}

TEST(QueryPlanTest, GroupByDropsTopAndOffsetPerRange) {
  const json::Value info = Info("SELECT c.g, COUNT(1) AS n FROM c GROUP BY c.g OFFSET 1 LIMIT 1");
  EXPECT_EQ(Member(info, "offset"), "1");
  EXPECT_EQ(Member(info, "rewrittenQuery").find("OFFSET"), std::string::npos);
}

TEST(QueryPlanTest, Distinct) {
  const json::Value unordered = Info("SELECT DISTINCT VALUE c.g FROM c");
  EXPECT_EQ(Member(unordered, "distinctType"), R"("Unordered")");
  EXPECT_EQ(Member(unordered, "rewrittenQuery"), R"("")");
  const std::string ordered = "SELECT DISTINCT VALUE c.g FROM c ORDER BY c.g";
  EXPECT_EQ(Member(Info(ordered), "distinctType"), R"("Ordered")");
  EXPECT_EQ(RunRewritten(ordered), R"([{"orderByItems":[{"item":null}],"payload":null},)"
                                   R"({"orderByItems":[{"item":"a"}],"payload":"a"},)"
                                   R"({"orderByItems":[{"item":"b"}],"payload":"b"}])");
}

TEST(QueryPlanTest, TopWithoutOrderBySendsTheOriginal) {
  const json::Value info = Info("SELECT TOP 3 * FROM c");
  EXPECT_EQ(Member(info, "top"), "3");
  EXPECT_EQ(Member(info, "rewrittenQuery"), R"("")");
}

TEST(QueryPlanTest, QueryWithoutFromRunsOnOneRange) {
  EXPECT_EQ(Member(Plan("SELECT VALUE 1 + 2"), "queryRanges"),
            R"([{"min":"","max":"","isMinInclusive":true,"isMaxInclusive":true}])");
}

TEST(QueryPlanTest, JoinAndAliasesAreRendered) {
  const std::string query = "SELECT r.id, t AS tag FROM root r JOIN t IN r.tags ORDER BY r.id";
  EXPECT_EQ(Member(Info(query), "rewrittenQuery"),
            R"("SELECT r._rid, [{\"item\": r.id}] AS orderByItems, {\"id\": r.id, \"tag\": t} )"
            R"(AS payload FROM root AS r JOIN t IN r.tags WHERE )"
            R"({documentdb-formattableorderbyquery-filter} ORDER BY r.id ASC")");
}

TEST(QueryPlanTest, VectorRankingIsNonStreamingMostSimilarFirst) {
  const json::Value cosine = Info("SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.e, [1, 2])");
  EXPECT_EQ(Member(cosine, "hasNonStreamingOrderBy"), "true");
  EXPECT_EQ(Member(cosine, "orderBy"), R"(["Descending"])");
  const json::Value euclidean = Info(
      R"(SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.e, [1, 2], false, {"distanceFunction": "euclidean"}))");
  EXPECT_EQ(Member(euclidean, "orderBy"), R"(["Ascending"])");
  const std::string rewritten = euclidean.Find("rewrittenQuery")->as_string();
  EXPECT_EQ(rewritten.substr(rewritten.size() - 1), ")") << rewritten;  // no ASC or DESC
  // A policy decides when the options do not.
  const json::Value embeddings =
      json::Parse(
          R"({"vectorEmbeddings": [{"path": "/e", "distanceFunction": "euclidean", "dimensions": 2}]})")
          .value();
  auto policy = VectorPolicy::Parse(&embeddings, nullptr);
  ASSERT_TRUE(policy.ok());
  auto plan = BuildQueryPlan("SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.e, [1, 2])", {},
                             policy->get());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(Member(*plan->Find("queryInfo"), "orderBy"), R"(["Ascending"])");
  // Plain ORDER BY keeps streaming.
  EXPECT_EQ(Member(Info("SELECT c.id FROM c ORDER BY c.n"), "hasNonStreamingOrderBy"), "false");
}

TEST(QueryPlanTest, VectorDistanceIsTheOnlyKeyOfItsOrderBy) {
  EXPECT_FALSE(
      BuildQueryPlan("SELECT c.id FROM c ORDER BY VectorDistance(c.e, [1]), c.n", {}).ok());
  EXPECT_FALSE(BuildQueryPlan("SELECT c.id FROM c ORDER BY ABS(c.n)", {}).ok());
}

TEST(QueryPlanTest, RankQueriesGetAHybridSearchPlan) {
  const json::Value plan = Plan(
      "SELECT TOP 10 c.id FROM c ORDER BY RANK RRF(FullTextScore(c.text, 'swim', 'run'), "
      "VectorDistance(c.e, [1, 2]), [2, -0.5])");
  EXPECT_EQ(plan.Find("queryInfo"), nullptr);
  const json::Value* info = plan.Find("hybridSearchQueryInfo");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(Member(*info, "take"), "10");
  EXPECT_EQ(Member(*info, "skip"), "null");
  EXPECT_EQ(Member(*info, "componentWeights"), "[2,0.5]");  // absolute values
  EXPECT_EQ(Member(*info, "requiresGlobalStatistics"), "true");
  EXPECT_EQ(Member(*info, "componentWithoutPayloadQueryInfos"), "[]");
  const json::Array& components = info->Find("componentQueryInfos")->as_array();
  ASSERT_EQ(components.size(), 2u);
  EXPECT_EQ(Member(components[0], "orderBy"), R"(["Descending"])");
  EXPECT_EQ(Member(components[1], "orderBy"), R"(["Ascending"])");  // negative weight
  EXPECT_EQ(Member(components[0], "top"), "120");
  EXPECT_EQ(Member(components[0], "hasNonStreamingOrderBy"), "true");
  const std::string text = components[0].Find("rewrittenQuery")->as_string();
  for (const char* placeholder :
       {"{documentdb-formattablehybridsearchquery-totaldocumentcount}",
        "{documentdb-formattablehybridsearchquery-totalwordcount-0}",
        "{documentdb-formattablehybridsearchquery-hitcountsarray-0}",
        "{documentdb-formattableorderbyquery-filter}", "\"componentScores\""}) {
    EXPECT_NE(text.find(placeholder), std::string::npos) << placeholder << " in " << text;
  }
  // Vector-only: statistics are not needed.
  const json::Value vectors = Plan(
      "SELECT c.id FROM c ORDER BY RANK RRF(VectorDistance(c.a, [1]), VectorDistance(c.b, [1])) "
      "OFFSET 5 LIMIT 10");
  const json::Value* vinfo = vectors.Find("hybridSearchQueryInfo");
  ASSERT_NE(vinfo, nullptr);
  EXPECT_EQ(Member(*vinfo, "requiresGlobalStatistics"), "false");
  EXPECT_EQ(Member(*vinfo, "skip"), "5");
  EXPECT_EQ(Member(*vinfo, "take"), "10");
}

}  // namespace
}  // namespace orrery::query
