// ORDER BY RANK (rank_plan.h): its checks, its statistics query, BM25, and the fusion of
// component ranks, against values worked out by hand.

#include "query/rank_plan.h"

#include <gtest/gtest.h>

#include <cmath>

#include "json/json.h"
#include "query/query.h"
#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::Eval;

TEST(RankPlanTest, Bm25WithLucenesParameters) {
  // N = 10 documents of 30 words (3 on average); this one has 3 words, "swim" twice,
  // and 2 documents hold "swim": idf = ln(1 + 8.5 / 2.5), length norm 1.
  const double idf = std::log(1 + 8.5 / 2.5);
  const double expected = idf * 2 * 2.2 / (2 + 1.2);
  auto rows = json::Parse(Eval("_FullTextScore('swim run swim', ['swim'], 10, 30, [2])"));
  ASSERT_TRUE(rows.ok());
  EXPECT_NEAR(rows->as_array()[0].as_double(), expected, 1e-12);
  // A longer document scores the same term lower; a missing term adds nothing.
  auto longer = json::Parse(
      Eval("_FullTextScore('swim run swim dog cat fish', ['swim', 'zebra'], 10, 30, [2, 0])"));
  ASSERT_TRUE(longer.ok());
  const double norm = 1 - 0.75 + 0.75 * 6 / 3;
  EXPECT_NEAR(longer->as_array()[0].as_double(), idf * 2 * 2.2 / (2 + 1.2 * norm), 1e-12);
  EXPECT_EQ(Eval("_FullTextScore(1, ['swim'], 10, 30, [2])"), "[]");
  EXPECT_EQ(Eval("[_FullTextWordCount('the swim and run'), _FullTextWordCount(3)]"), "[[2,0]]");
  EXPECT_EQ(Eval("[_FullTextHit('swimming', 'swim'), _FullTextHit('run', 'swim')]"), "[[1,0]]");
}

TEST(RankPlanTest, RrfAddsDenseRanksOfEveryComponent) {
  RankPlan plan;
  plan.rrf = true;
  plan.components.resize(2);
  plan.components[0].full_text = true;
  using json::Value;
  const std::vector<std::vector<Value>> scores = {
      {Value::Double(3), Value::Double(0.9)},
      {Value::Double(1), Value::Double(0.9)},
      {Value::Double(3), Value::Double(0.1)},
      {Value(), Value::Double(0.5)},  // no text: last in the full-text ranks
  };
  const std::vector<std::optional<double>> fused = FuseRanks(plan, scores);
  ASSERT_EQ(fused.size(), 4u);
  EXPECT_NEAR(*fused[0], 1.0 / 61 + 1.0 / 61, 1e-15);
  EXPECT_NEAR(*fused[1], 1.0 / 62 + 1.0 / 61, 1e-15);
  EXPECT_NEAR(*fused[2], 1.0 / 61 + 1.0 / 63, 1e-15);
  EXPECT_NEAR(*fused[3], 1.0 / 63 + 1.0 / 62, 1e-15);
  // A weight of 2 on the second component, ranked ascending (a negative weight).
  plan.components[1].weight = 2;
  plan.components[1].descending = false;
  const std::vector<std::optional<double>> weighted = FuseRanks(plan, scores);
  EXPECT_NEAR(*weighted[2], 1.0 / 61 + 2.0 / 61, 1e-15);
}

TEST(RankPlanTest, OneFullTextScoreRanksOnlyMatches) {
  RankPlan plan;
  plan.components.resize(1);
  plan.components[0].full_text = true;
  using json::Value;
  const std::vector<std::optional<double>> fused =
      FuseRanks(plan, {{Value::Double(2)}, {Value::Double(0)}, {Value()}});
  EXPECT_EQ(fused[0], std::optional<double>(2));
  EXPECT_FALSE(fused[1]);
  EXPECT_FALSE(fused[2]);
}

TEST(RankPlanTest, StatisticsQueryAndChecks) {
  auto query =
      Compile("SELECT TOP 3 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'a', 'b')", {});
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_NE((*query)->rank_statistics_query(), nullptr);
  EXPECT_EQ(
      *(*query)->rank_statistics_query(),
      "SELECT COUNT(1) AS documentCount, [{\"totalWordCount\": SUM(_FullTextWordCount(c.text, "
      "\"en-US\")), \"hitCounts\": [SUM(_FullTextHit(c.text, \"a\", \"en-US\")), "
      "SUM(_FullTextHit(c.text, \"b\", \"en-US\"))]}] AS fullTextStatistics FROM c");
  ASSERT_TRUE((*query)
                  ->SetRankStatistics(json::Parse(R"({"documentCount": 4, "fullTextStatistics":
      [{"totalWordCount": 8, "hitCounts": [1, 2]}]})")
                                          .value())
                  .ok());
  EXPECT_EQ((*query)->rank_statistics_query(), nullptr);
  EXPECT_FALSE((*query)->SetRankStatistics(json::Parse(R"({"documentCount": "x"})").value()).ok());
  // Vector-only rankings need no statistics.
  auto vectors = Compile(
      "SELECT TOP 3 c.id FROM c ORDER BY RANK RRF(VectorDistance(c.a, [1]), VectorDistance(c.b, "
      "[1]))",
      {});
  ASSERT_TRUE(vectors.ok()) << vectors.status().ToString();
  EXPECT_EQ((*vectors)->rank_statistics_query(), nullptr);
  for (const char* bad : {
           "SELECT c.id FROM c ORDER BY RANK FullTextScore(c.text, 'a') ASC",
           "SELECT c.id FROM c WHERE FullTextScore(c.text, 'a') > 1",
           "SELECT RRF(VectorDistance(c.a, [1])) FROM c",
           "SELECT c.id FROM c ORDER BY RANK c.n",
           "SELECT COUNT(1) FROM c ORDER BY RANK FullTextScore(c.text, 'a')",
           "SELECT c.id FROM c ORDER BY RANK FullTextScore(c.text)",
           "SELECT c.id FROM c ORDER BY RANK FullTextScore(UPPER(c.text), 'a')",
       }) {
    EXPECT_FALSE(Compile(bad, {}).ok()) << bad;
  }
}

}  // namespace
}  // namespace orrery::query
