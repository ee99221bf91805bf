#include "query/access_path_builder.h"

#include <gtest/gtest.h>

#include "json/json.h"
#include "query/query.h"

namespace orrery::query {
namespace {

AccessShape ShapeOf(std::string_view text, std::vector<Parameter> params = {}) {
  auto compiled = Compile(text, std::move(params));
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  return (*compiled)->access_shape();
}

TEST(AccessShapeTest, ConjunctsOfWhereBecomePathPredicates) {
  AccessShape shape = ShapeOf(
      "SELECT * FROM c WHERE c.a = 1 AND 5 < c.n AND c.s IN ('x', 'y', @arr) AND "
      "STARTSWITH(c.p.q, 'ab') AND c.b BETWEEN 'a' AND 'm' AND ARRAY_CONTAINS(c.tags, @t)",
      {Parameter{"@t", json::Value::String("red")},
       Parameter{"@arr", json::Value::MakeArray({json::Value::Int(1)})}});
  ASSERT_EQ(shape.predicates.size(), 6u);
  EXPECT_EQ(shape.predicates[0].kind, PathPredicate::Kind::kEqual);
  EXPECT_EQ(shape.predicates[0].path, DocumentPath{"a"});
  EXPECT_EQ(shape.predicates[1].kind, PathPredicate::Kind::kRange);
  EXPECT_TRUE(shape.predicates[1].low.has_value());
  EXPECT_FALSE(shape.predicates[1].low_inclusive);
  EXPECT_FALSE(shape.predicates[1].high.has_value());
  EXPECT_EQ(shape.predicates[2].values.size(), 2u);  // the array literal cannot match
  EXPECT_EQ(shape.predicates[3].kind, PathPredicate::Kind::kPrefix);
  EXPECT_EQ(shape.predicates[3].path, (DocumentPath{"p", "q"}));
  EXPECT_EQ(shape.predicates[3].prefix, "ab");
  EXPECT_TRUE(shape.predicates[4].low_inclusive && shape.predicates[4].high_inclusive);
  EXPECT_EQ(shape.predicates[5].path, (DocumentPath{"tags", "[]"}));
  EXPECT_EQ(json::Write(shape.predicates[5].values[0]), "\"red\"");
}

TEST(AccessShapeTest, ALowAndAHighBoundOnOnePathAreOneRange) {
  AccessShape shape = ShapeOf("SELECT * FROM c WHERE c.n < 9 AND c.a = 1 AND c.n >= 5");
  ASSERT_EQ(shape.predicates.size(), 2u);
  const PathPredicate& range = shape.predicates[1];
  EXPECT_EQ(range.path, DocumentPath{"n"});
  EXPECT_EQ(json::Write(*range.low), "5");
  EXPECT_TRUE(range.low_inclusive);
  EXPECT_EQ(json::Write(*range.high), "9");
  EXPECT_FALSE(range.high_inclusive);
  // Bounds of different types, or on different paths, stay apart.
  EXPECT_EQ(ShapeOf("SELECT * FROM c WHERE c.n >= 5 AND c.n < 'x'").predicates.size(), 2u);
  EXPECT_EQ(ShapeOf("SELECT * FROM c WHERE c.n >= 5 AND c.m < 9").predicates.size(), 2u);
}

TEST(AccessShapeTest, DisjunctionsNegationsAndFunctionsOfPathsAreNotIndexPredicates) {
  EXPECT_TRUE(ShapeOf("SELECT * FROM c WHERE c.a = 1 OR c.b = 2").predicates.empty());
  EXPECT_TRUE(ShapeOf("SELECT * FROM c WHERE NOT (c.a = 1)").predicates.empty());
  EXPECT_TRUE(ShapeOf("SELECT * FROM c WHERE UPPER(c.a) = 'A'").predicates.empty());
  EXPECT_TRUE(ShapeOf("SELECT * FROM c WHERE STARTSWITH(c.a, 'x', true)").predicates.empty());
  EXPECT_TRUE(ShapeOf("SELECT * FROM c WHERE c.a[0] = 1").predicates.empty());
  EXPECT_TRUE(ShapeOf("SELECT t FROM c JOIN t IN c.tags WHERE t = 1").predicates.empty());
  EXPECT_TRUE(ShapeOf("SELECT * FROM c.children ch WHERE ch.a = 1").predicates.empty());
}

TEST(AccessShapeTest, OrderByKeysAndWhetherTheyStream) {
  AccessShape shape = ShapeOf("SELECT c.id FROM c ORDER BY c.ts DESC");
  ASSERT_EQ(shape.order_by.size(), 1u);
  EXPECT_TRUE(shape.order_by[0].descending);
  EXPECT_TRUE(shape.order_by_streams);
  EXPECT_FALSE(ShapeOf("SELECT DISTINCT c.a FROM c ORDER BY c.a").order_by_streams);
  AccessShape join = ShapeOf("SELECT c.id FROM c JOIN t IN c.tags ORDER BY c.id, t");
  EXPECT_TRUE(join.order_by.empty());
  EXPECT_EQ(join.order_by_keys, 2u);
  AccessShape sdk = ShapeOf(
      "SELECT c._rid, [{\"item\": c.ts}] AS orderByItems, c AS payload FROM c WHERE true "
      "ORDER BY c.ts ASC");
  EXPECT_TRUE(sdk.order_by_streams);
  EXPECT_EQ(sdk.order_by[0].path, DocumentPath{"ts"});
}

TEST(AccessShapeTest, AFullTextRankingReadsTheTextsHoldingATerm) {
  const auto terms_of = [](const AccessShape& shape) {
    std::vector<std::string> out;
    for (const PathPredicate& p : shape.predicates) {
      if (p.kind != PathPredicate::Kind::kFullText || !p.any_term) continue;
      out.insert(out.end(), p.terms.begin(), p.terms.end());
    }
    return out;
  };
  const std::vector<std::string> both{"swim", "run fast"};
  EXPECT_EQ(terms_of(ShapeOf("SELECT TOP 5 * FROM c ORDER BY RANK FullTextScore(c.t, 'swim', "
                             "'run fast')")),
            both);
  EXPECT_EQ(terms_of(ShapeOf("SELECT TOP 5 * FROM c WHERE c.a = 1 ORDER BY RANK "
                             "FullTextScore(c.t, ['swim', 'run fast'])")),
            both);
  // The SDK's ranking query of one FullTextScore, statistics filled in.
  EXPECT_EQ(terms_of(ShapeOf("SELECT TOP 5 c._rid FROM c WHERE true AND (_FullTextScore(c.t, "
                             "['swim', 'run fast'], 10, 40, [2, 3]) > 0) ORDER BY "
                             "_FullTextScore(c.t, ['swim', 'run fast'], 10, 40, [2, 3]) DESC")),
            both);
  EXPECT_EQ(terms_of(ShapeOf("SELECT * FROM c WHERE 0.5 <= _FullTextScore(c.t, ['a'], 1, 1, "
                             "[1])")),
            std::vector<std::string>{"a"});
  // RRF ranks the texts without a term too; a bound that admits 0 reads every text.
  EXPECT_TRUE(terms_of(ShapeOf("SELECT TOP 5 * FROM c ORDER BY RANK RRF(FullTextScore(c.t, "
                               "'a'), FullTextScore(c.u, 'b'))"))
                  .empty());
  EXPECT_TRUE(terms_of(ShapeOf("SELECT * FROM c WHERE _FullTextScore(c.t, ['a'], 1, 1, [1]) >= 0"))
                  .empty());
  EXPECT_TRUE(terms_of(ShapeOf("SELECT * FROM c WHERE _FullTextScore(c.t, ['a'], 1, 1, [1]) > "
                               "-1"))
                  .empty());
}

}  // namespace
}  // namespace orrery::query
