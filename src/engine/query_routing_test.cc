#include "engine/query_routing.h"

#include <gtest/gtest.h>

#include "json/json.h"
#include "query/query.h"

namespace orrery::engine {
namespace {

partition::PartitionKeyDefinition Definition(std::string_view json) {
  return *partition::ParseDefinition(*json::Parse(json));
}

QueryRouting Route(const partition::PartitionKeyDefinition& definition, std::string_view text,
                   std::vector<query::Parameter> params = {}) {
  auto compiled = query::Compile(text, std::move(params));
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  return RouteQuery(definition, (*compiled)->access_shape());
}

partition::PartitionKeyComponent S(std::string s) {
  return partition::PartitionKeyComponent::String(std::move(s));
}

TEST(QueryRoutingTest, EqualityOnTheWholeKeyReadsOneLogicalPartition) {
  const auto single = Definition(R"({"paths":["/pk"],"kind":"Hash","version":2})");
  for (std::string_view text :
       {"SELECT * FROM c WHERE c.pk = 'a'", "SELECT * FROM c WHERE 'a' = c.pk AND c.n > 3",
        "SELECT VALUE COUNT(1) FROM c WHERE c.pk IN ('a') AND (c.x = 1 OR c.y = 2)",
        "SELECT * FROM c WHERE c.pk = @p"}) {
    QueryRouting routing = Route(single, text, {query::Parameter{"@p", json::Value::String("a")}});
    EXPECT_EQ(routing.kind, QueryRouting::Kind::kLogicalPartition) << text;
    EXPECT_EQ(routing.epk, partition::EffectivePartitionKey(single, {S("a")})) << text;
  }
  // Numbers by value: 5 and 5.0 are the same key.
  EXPECT_EQ(
      Route(single, "SELECT * FROM c WHERE c.pk = 5.0").epk,
      partition::EffectivePartitionKey(single, {partition::PartitionKeyComponent::Number(5)}));
}

TEST(QueryRoutingTest, AnythingElseFansOut) {
  const auto single = Definition(R"({"paths":["/pk"],"kind":"Hash","version":2})");
  for (std::string_view text :
       {"SELECT * FROM c", "SELECT * FROM c WHERE c.pk = 'a' OR c.pk = 'b'",
        "SELECT * FROM c WHERE c.pk IN ('a', 'b')", "SELECT * FROM c WHERE c.pk > 'a'",
        "SELECT * FROM c WHERE NOT (c.pk = 'a')", "SELECT * FROM c WHERE c.pk = [1]",
        "SELECT * FROM c WHERE c.other = 'a'"}) {
    EXPECT_EQ(Route(single, text).kind, QueryRouting::Kind::kFanOut) << text;
  }
}

TEST(QueryRoutingTest, APrefixOfAHierarchicalKeyReadsItsRange) {
  const auto multi =
      Definition(R"({"paths":["/tenant","/user","/session"],"kind":"MultiHash","version":2})");
  QueryRouting full =
      Route(multi, "SELECT * FROM c WHERE c.tenant = 't' AND c.user = 'u' AND c.session = 's'");
  EXPECT_EQ(full.kind, QueryRouting::Kind::kLogicalPartition);
  EXPECT_EQ(full.epk, partition::EffectivePartitionKey(multi, {S("t"), S("u"), S("s")}));

  QueryRouting prefix = Route(multi, "SELECT * FROM c WHERE c.user = 'u' AND c.tenant = 't'");
  ASSERT_EQ(prefix.kind, QueryRouting::Kind::kKeyPrefix);
  const partition::EpkRange expected = partition::PrefixEpkRange(multi, {S("t"), S("u")});
  EXPECT_EQ(prefix.range.min, expected.min_inclusive);
  EXPECT_EQ(prefix.range.max, expected.max_exclusive);
  EXPECT_LE(prefix.range.min, full.epk);
  EXPECT_LT(full.epk, prefix.range.max);

  // A gap in the prefix: only the part before it routes; no first path: fan-out.
  EXPECT_EQ(Route(multi, "SELECT * FROM c WHERE c.tenant = 't' AND c.session = 's'").range.min,
            partition::PrefixEpkRange(multi, {S("t")}).min_inclusive);
  EXPECT_EQ(Route(multi, "SELECT * FROM c WHERE c.user = 'u'").kind, QueryRouting::Kind::kFanOut);
}

TEST(QueryRoutingTest, NarrowingKeepsTheRequestedScope) {
  QueryRouting routing;
  routing.kind = QueryRouting::Kind::kLogicalPartition;
  routing.epk = "AB";
  ReadScope narrowed = NarrowScope(ReadScope{}, routing);
  ASSERT_TRUE(narrowed.exact_epk.has_value());
  EXPECT_EQ(*narrowed.exact_epk, "AB");
  // The request already named another logical partition: an empty scope.
  ReadScope other;
  other.exact_epk = "CD";
  EXPECT_TRUE(NarrowScope(other, routing).range.empty());
}

}  // namespace
}  // namespace orrery::engine
