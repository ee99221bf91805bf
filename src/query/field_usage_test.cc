#include "query/field_usage.h"

#include <gtest/gtest.h>

#include "query/query.h"

namespace orrery::query {
namespace {

using Members = std::optional<std::vector<std::string>>;

Members MembersOf(std::string_view text) {
  auto compiled = Compile(text, {});
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  const std::vector<std::string>* members = (*compiled)->item_members();
  return members ? Members(*members) : std::nullopt;
}

TEST(ItemMembersUsedTest, PathsOfTheItemAliasNameTheirFirstMember) {
  EXPECT_EQ(MembersOf("SELECT c.id, c.a.b FROM c WHERE c.x = 1 ORDER BY c.ts"),
            (Members{{"a", "id", "ts", "x"}}));
  EXPECT_EQ(MembersOf("SELECT VALUE COUNT(1) FROM c WHERE c['my key'] > 2 GROUP BY c.g"),
            (Members{{"g", "my key"}}));
  // Any alias name works, and the container name of FROM is not a member.
  EXPECT_EQ(MembersOf("SELECT r.n FROM root r"), (Members{{"n"}}));
}

TEST(ItemMembersUsedTest, JoinsAndSubqueriesReadThroughTheAlias) {
  EXPECT_EQ(MembersOf("SELECT c.id, t FROM c JOIN t IN c.tags WHERE t.v > 1"),
            (Members{{"id", "tags"}}));
  EXPECT_EQ(MembersOf("SELECT c.id FROM c WHERE EXISTS(SELECT VALUE x FROM x IN c.list WHERE "
                      "x = c.want)"),
            (Members{{"id", "list", "want"}}));
  // SELECT * inside a subquery is the subquery's own source.
  EXPECT_EQ(MembersOf("SELECT VALUE ARRAY(SELECT * FROM x IN c.list) FROM c"), (Members{{"list"}}));
}

TEST(ItemMembersUsedTest, JoinSubquerySourcesReadThroughTheAlias) {
  EXPECT_EQ(MembersOf("SELECT VALUE x FROM c JOIN (SELECT VALUE i.p FROM i IN c.items) x"),
            (Members{{"items"}}));
  // `x IN (subquery)` is walked like `(subquery) x`: its body reads the item alias.
  EXPECT_EQ(MembersOf("SELECT c.id, x FROM c JOIN x IN (SELECT VALUE i.p FROM i IN c.items "
                      "WHERE i.q > c.min)"),
            (Members{{"id", "items", "min"}}));
  EXPECT_EQ(MembersOf("SELECT VALUE x FROM c JOIN t IN c.tags JOIN x IN (SELECT VALUE [t, c.n])"),
            (Members{{"n", "tags"}}));
  EXPECT_EQ(MembersOf("SELECT VALUE x FROM c JOIN x IN (SELECT VALUE c)"), std::nullopt);
}

TEST(ItemMembersUsedTest, AFromPathReadsOneMember) {
  EXPECT_EQ(MembersOf("SELECT * FROM c.children ch WHERE ch.age > 3"), (Members{{"children"}}));
  EXPECT_EQ(MembersOf("SELECT VALUE t FROM t IN c.tags"), (Members{{"tags"}}));
}

TEST(ItemMembersUsedTest, TheWholeItemWhenItIsUsedAsAValue) {
  EXPECT_EQ(MembersOf("SELECT * FROM c WHERE c.x = 1"), std::nullopt);
  EXPECT_EQ(MembersOf("SELECT VALUE c FROM c"), std::nullopt);
  EXPECT_EQ(MembersOf("SELECT c.id, c AS whole FROM c"), std::nullopt);
  EXPECT_EQ(MembersOf("SELECT VALUE c[0] FROM c"), std::nullopt);
  EXPECT_EQ(MembersOf("SELECT VALUE IS_DEFINED(c) FROM c"), std::nullopt);
  EXPECT_EQ(MembersOf("SELECT VALUE (SELECT VALUE c FROM x IN c.l) FROM c"), std::nullopt);
  EXPECT_EQ(MembersOf("SELECT VALUE s.n FROM (SELECT c.n FROM c) s"), std::nullopt);
  EXPECT_EQ(MembersOf("SELECT VALUE t FROM t IN (SELECT VALUE c.tags FROM c)"), std::nullopt);
}

bool ReachesUnindexed(std::string_view text) {
  auto compiled = Compile(text, {});
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  return (*compiled)->access_shape().reaches_unindexed_items;
}

// Items kept out of the index are found "through their self-links or through the
// queries by using the ID of the item" (the service's indexing-policy docs).
TEST(FiltersOnlyByIdTest, OnlyQueriesWithoutFiltersOrFilteringByIdReachUnindexedItems) {
  EXPECT_TRUE(ReachesUnindexed("SELECT * FROM c"));
  EXPECT_TRUE(ReachesUnindexed("SELECT VALUE COUNT(1) FROM c"));
  EXPECT_TRUE(ReachesUnindexed("SELECT * FROM r WHERE r.id = 'doc2'"));
  EXPECT_TRUE(ReachesUnindexed("SELECT c.orderId FROM c WHERE c.id IN ('a', 'b')"));
  EXPECT_FALSE(ReachesUnindexed("SELECT * FROM r WHERE r.orderId = 'order2'"));
  EXPECT_FALSE(ReachesUnindexed("SELECT * FROM r WHERE r.id = 'a' AND r.n > 1"));
  EXPECT_FALSE(ReachesUnindexed("SELECT * FROM c ORDER BY c.id"));
  EXPECT_FALSE(ReachesUnindexed("SELECT * FROM c WHERE IS_DEFINED(c)"));
  EXPECT_FALSE(ReachesUnindexed("SELECT t FROM c JOIN t IN c.tags"));
  EXPECT_FALSE(ReachesUnindexed("SELECT VALUE x FROM x IN c.list"));
}

}  // namespace
}  // namespace orrery::query
