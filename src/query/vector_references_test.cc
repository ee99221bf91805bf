// What ORDER BY VectorDistance tells the engine (vector_references.h): the options the
// approximate indexes read, with the service's documented defaults and limits.

#include "query/vector_references.h"

#include <gtest/gtest.h>

#include "query/query.h"

namespace orrery::query {
namespace {

TEST(VectorRankingTest, SearchListMultipliersDefaultToTheServicesAndStayWithinItsLimits) {
  auto plain = Compile("SELECT TOP 5 c.id FROM c ORDER BY VectorDistance(c.e, [1, 2])", {});
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  const VectorRanking* ranking = (*plain)->vector_ranking();
  ASSERT_NE(ranking, nullptr);
  EXPECT_EQ(ranking->search_list_multiplier, 10);
  EXPECT_EQ(ranking->quantized_list_multiplier, 5);
  EXPECT_FALSE(ranking->brute_force);
  EXPECT_FALSE(ranking->filtered);

  auto tuned = Compile(
      "SELECT TOP 5 c.id FROM c WHERE c.x = 1 ORDER BY VectorDistance(c.e, [1, 2], true, "
      "{'distanceFunction': 'cosine', 'searchListSizeMultiplier': 20, "
      "'quantizedVectorListMultiplier': 500})",
      {});
  ASSERT_TRUE(tuned.ok()) << tuned.status().ToString();
  ranking = (*tuned)->vector_ranking();
  ASSERT_NE(ranking, nullptr);
  EXPECT_EQ(ranking->search_list_multiplier, 20);
  EXPECT_EQ(ranking->quantized_list_multiplier, 100);  // the documented maximum
  EXPECT_TRUE(ranking->brute_force);
  EXPECT_TRUE(ranking->filtered);
}

}  // namespace
}  // namespace orrery::query
