#include "query/full_text_statistics.h"

#include <gtest/gtest.h>

#include "query/query.h"

namespace orrery::query {
namespace {

const FullTextStatisticsQuery* StatisticsOf(const std::unique_ptr<CompiledQuery>& query) {
  return query->full_text_statistics();
}

TEST(FullTextStatisticsTest, TheRankingsStatisticsQueryIsRecognized) {
  auto ranking =
      Compile(std::string_view(
                  "SELECT TOP 5 c.id FROM c ORDER BY RANK RRF(FullTextScore(c.t, 'swim', 'run'), "
                  "FullTextScore(c.u.v, ['x']))"),
              {});
  ASSERT_TRUE(ranking.ok()) << ranking.status().ToString();
  auto statistics = Compile(*(*ranking)->rank_statistics_query(), {});
  ASSERT_TRUE(statistics.ok()) << statistics.status().ToString();
  const FullTextStatisticsQuery* match = StatisticsOf(*statistics);
  ASSERT_NE(match, nullptr);
  ASSERT_EQ(match->paths.size(), 2u);
  EXPECT_EQ(match->paths[0].path, DocumentPath{"t"});
  EXPECT_EQ(match->paths[0].language, "en-US");
  EXPECT_EQ(match->paths[0].terms, (std::vector<std::string>{"swim", "run"}));
  EXPECT_EQ(match->paths[1].path, (DocumentPath{"u", "v"}));
  EXPECT_EQ(match->paths[1].terms, std::vector<std::string>{"x"});
  EXPECT_EQ((*ranking)->full_text_statistics(), nullptr);
}

TEST(FullTextStatisticsTest, OtherQueriesAreEvaluatedAsWritten) {
  for (const char* text : {
           "SELECT COUNT(1) AS documentCount, [{\"totalWordCount\": SUM(_FullTextWordCount(c.t)), "
           "\"hitCounts\": []}] AS fullTextStatistics FROM c WHERE c.a = 1",
           "SELECT COUNT(c.x) AS documentCount, [{\"totalWordCount\": "
           "SUM(_FullTextWordCount(c.t)), \"hitCounts\": []}] AS fullTextStatistics FROM c",
           "SELECT COUNT(1) AS documentCount, [{\"totalWordCount\": SUM(_FullTextWordCount(c.t)), "
           "\"hitCounts\": [SUM(_FullTextHit(c.u, 'a'))]}] AS fullTextStatistics FROM c",
           "SELECT COUNT(1) AS documentCount, [{\"totalWordCount\": SUM(_FullTextWordCount(c.t, "
           "'de-DE')), \"hitCounts\": [SUM(_FullTextHit(c.t, 'a'))]}] AS fullTextStatistics FROM c",
           "SELECT COUNT(1) AS documentCount, [{\"totalWordCount\": SUM(LENGTH(c.t)), "
           "\"hitCounts\": []}] AS fullTextStatistics FROM c",
           "SELECT COUNT(1) AS n, [] AS fullTextStatistics FROM c",
           "SELECT COUNT(1) AS documentCount, [{\"totalWordCount\": SUM(_FullTextWordCount(c.t)), "
           "\"hitCounts\": []}] AS fullTextStatistics FROM c JOIN t IN c.tags",
       }) {
    auto query = Compile(text, {});
    ASSERT_TRUE(query.ok()) << text << ": " << query.status().ToString();
    EXPECT_EQ(StatisticsOf(*query), nullptr) << text;
  }
}

}  // namespace
}  // namespace orrery::query
