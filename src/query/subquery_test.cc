// Subqueries through Compile / EvaluateDocument / Finish (query-language.md §4.6):
// scalar, EXISTS and ARRAY subqueries, subqueries as FROM and JOIN sources,
// correlation, and the clauses a subquery may carry.

#include "query/subquery.h"

#include <gtest/gtest.h>

#include <string>

#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::ErrorSummary;
using testing::Execute;
using testing::Params;

constexpr std::string_view kItems = R"([
  {"id": "1", "tags": ["a", "b", "b"], "best": "Cy",
   "kids": [{"name": "Bo", "grade": 5}, {"name": "Cy", "grade": 8}, {"name": "Di", "grade": 5}]},
  {"id": "2", "tags": ["b"], "kids": [], "best": "Al"},
  {"id": "3", "tags": []},
  {"id": "4", "tags": "x", "kids": [{"name": "Ed"}]}
])";

std::string Items(std::string_view query) { return Execute(query, kItems); }

// ---- Scalar subqueries ----

TEST(SubqueryTest, ScalarSubqueryWithAggregateCountsPerItem) {
  EXPECT_EQ(Items("SELECT c.id, (SELECT VALUE COUNT(1) FROM t IN c.tags) AS n FROM c"),
            R"([{"id":"1","n":3},{"id":"2","n":1},{"id":"3","n":0},{"id":"4","n":0}])");
}

TEST(SubqueryTest, ScalarSubqueryWithNoValueIsUndefined) {
  EXPECT_EQ(Items(R"(SELECT c.id, (SELECT VALUE t FROM t IN c.tags WHERE t = "a") AS a FROM c)"),
            R"([{"id":"1","a":"a"},{"id":"2"},{"id":"3"},{"id":"4"}])");
  EXPECT_EQ(Items("SELECT VALUE (SELECT VALUE t FROM t IN c.tags WHERE t = 'zz') FROM c"), "[]");
}

TEST(SubqueryTest, ScalarSubqueryWithSeveralValuesIsBadRequest) {
  const testing::QueryRun run =
      testing::RunQuery("SELECT VALUE (SELECT VALUE t FROM t IN c.tags) FROM c", kItems);
  EXPECT_EQ(run.status.code(), StatusCode::kBadRequest);
  EXPECT_EQ(run.status.message(), "A scalar subquery returned more than one value.");
}

TEST(SubqueryTest, ScalarSubqueryWithSeveralValuesFailsEvenInWhere) {
  const testing::QueryRun run = testing::RunQuery(
      "SELECT VALUE c.id FROM c WHERE (SELECT VALUE k.grade FROM k IN c.kids) = 5", kItems);
  EXPECT_EQ(run.status.code(), StatusCode::kBadRequest);
}

TEST(SubqueryTest, ScalarSubqueryOfOneValueIsThatValue) {
  // Item 1 has three kids, so only the single-kid item is asked.
  EXPECT_EQ(Items(R"(SELECT VALUE (SELECT VALUE k.name FROM k IN c.kids) FROM c WHERE c.id = "4")"),
            R"(["Ed"])");
}

TEST(SubqueryTest, TopOneWithOrderByPicksOneValue) {
  EXPECT_EQ(Items("SELECT VALUE {id: c.id, first: (SELECT TOP 1 VALUE k.name FROM k IN c.kids "
                  "ORDER BY k.grade DESC)} FROM c"),
            R"([{"id":"1","first":"Cy"},{"id":"2"},{"id":"3"},{"id":"4","first":"Ed"}])");
}

TEST(SubqueryTest, ScalarSubqueryWithoutValueIsAnObject) {
  EXPECT_EQ(Items("SELECT VALUE (SELECT TOP 1 k.name, k.grade FROM k IN c.kids ORDER BY k.grade) "
                  "FROM c"),
            R"([{"name":"Bo","grade":5},{"name":"Ed"}])");
  // With no row there is no object either: the field is left out.
  EXPECT_EQ(Items(R"(SELECT c.id, (SELECT k.name FROM k IN c.kids) AS k FROM c WHERE c.id = "2")"),
            R"([{"id":"2"}])");
}

TEST(SubqueryTest, ScalarSubqueryWithoutFrom) {
  EXPECT_EQ(Execute("SELECT VALUE (SELECT VALUE 1 + 2)"), "[3]");
  EXPECT_EQ(Execute("SELECT VALUE (SELECT VALUE COUNT(1))"), "[1]");
  EXPECT_EQ(Execute("SELECT VALUE (SELECT 1 AS one)"), R"([{"one":1}])");
  EXPECT_EQ(Execute("SELECT VALUE (SELECT VALUE undefined)"), "[]");
}

TEST(SubqueryTest, AggregatesOverNoInputInsideASubquery) {
  EXPECT_EQ(Items(R"(SELECT VALUE {s: (SELECT VALUE SUM(k.grade) FROM k IN c.kids),)"
                  R"( a: (SELECT VALUE AVG(k.grade) FROM k IN c.kids)} FROM c WHERE c.id = "2")"),
            R"([{"s":0}])");
  EXPECT_EQ(Items(R"(SELECT VALUE (SELECT MAX(k.grade) AS hi, COUNT(1) AS n FROM k IN c.kids))"
                  R"( FROM c WHERE c.id IN ("1", "2"))"),
            R"([{"hi":8,"n":3},{"n":0}])");
}

TEST(SubqueryTest, SubqueryFiltersInWhere) {
  EXPECT_EQ(Items("SELECT VALUE c.id FROM c WHERE (SELECT VALUE COUNT(1) FROM t IN c.tags) >= 1"),
            R"(["1","2"])");
}

TEST(SubqueryTest, UnaliasedSubqueryItemsAreNumbered) {
  EXPECT_EQ(Items("SELECT c.id, (SELECT VALUE COUNT(1) FROM t IN c.tags), ARRAY(SELECT VALUE 1) "
                  "FROM c WHERE c.id = '2'"),
            R"([{"id":"2","$1":1,"$2":[1]}])");
}

// ---- EXISTS ----

TEST(SubqueryTest, ExistsIsTrueWhenTheSubqueryYieldsAValue) {
  EXPECT_EQ(Items(R"(SELECT VALUE c.id FROM c WHERE EXISTS(SELECT VALUE t FROM t IN c.tags)"
                  R"( WHERE t = "b"))"),
            R"(["1","2"])");
  EXPECT_EQ(Items("SELECT c.id, EXISTS(SELECT VALUE k FROM k IN c.kids WHERE k.grade > 6) AS e "
                  "FROM c"),
            R"([{"id":"1","e":true},{"id":"2","e":false},{"id":"3","e":false},)"
            R"({"id":"4","e":false}])");
}

TEST(SubqueryTest, ExistsCountsValuesNotBindings) {
  EXPECT_EQ(Execute("SELECT VALUE EXISTS(SELECT VALUE undefined)"), "[false]");
  EXPECT_EQ(Execute("SELECT VALUE EXISTS(SELECT undefined AS x)"), "[true]");
  EXPECT_EQ(Items(R"(SELECT VALUE EXISTS(SELECT VALUE k.missing FROM k IN c.kids) FROM c)"
                  R"( WHERE c.id = "1")"),
            "[false]");
}

TEST(SubqueryTest, ExistsOfAnAggregateIsAlwaysTrue) {
  // An aggregate without GROUP BY yields one value even over nothing.
  EXPECT_EQ(Items(R"(SELECT VALUE EXISTS(SELECT VALUE COUNT(1) FROM t IN c.tags) FROM c)"
                  R"( WHERE c.id = "3")"),
            "[true]");
}

TEST(SubqueryTest, ExistsRespectsTopAndOffset) {
  EXPECT_EQ(
      Items("SELECT VALUE EXISTS(SELECT TOP 0 VALUE t FROM t IN c.tags) FROM c WHERE c.id = '1'"),
      "[false]");
  EXPECT_EQ(
      Items("SELECT VALUE [EXISTS(SELECT VALUE t FROM t IN c.tags OFFSET 2 LIMIT 1), "
            "EXISTS(SELECT VALUE t FROM t IN c.tags OFFSET 3 LIMIT 1)] FROM c WHERE c.id = '1'"),
      "[[true,false]]");
}

TEST(SubqueryTest, NotExists) {
  EXPECT_EQ(Items("SELECT VALUE c.id FROM c WHERE NOT EXISTS(SELECT VALUE t FROM t IN c.tags)"),
            R"(["3","4"])");
}

// ---- ARRAY ----

TEST(SubqueryTest, ArrayCollectsValues) {
  EXPECT_EQ(Items("SELECT c.id, ARRAY(SELECT VALUE k.name FROM k IN c.kids) AS names FROM c"),
            R"([{"id":"1","names":["Bo","Cy","Di"]},{"id":"2","names":[]},{"id":"3","names":[]},)"
            R"({"id":"4","names":["Ed"]}])");
}

TEST(SubqueryTest, ArrayOfObjectsWithDistinctAndOrderBy) {
  EXPECT_EQ(Items(R"(SELECT VALUE ARRAY(SELECT DISTINCT VALUE t FROM t IN c.tags) FROM c)"
                  R"( WHERE c.id = "1")"),
            R"([["a","b"]])");
  EXPECT_EQ(Items(R"(SELECT VALUE ARRAY(SELECT k.name FROM k IN c.kids ORDER BY k.grade DESC))"
                  R"( FROM c WHERE c.id = "1")"),
            R"([[{"name":"Cy"},{"name":"Bo"},{"name":"Di"}]])");
}

TEST(SubqueryTest, ArrayWithOffsetLimitAndTopParameter) {
  EXPECT_EQ(Items(R"(SELECT VALUE ARRAY(SELECT VALUE k.name FROM k IN c.kids OFFSET 1 LIMIT 1))"
                  R"( FROM c WHERE c.id = "1")"),
            R"([["Cy"]])");
  EXPECT_EQ(Execute(R"(SELECT VALUE ARRAY(SELECT TOP @n VALUE k.name FROM k IN c.kids))"
                    R"( FROM c WHERE c.id = "1")",
                    kItems, Params(R"({"@n": 2})")),
            R"([["Bo","Cy"]])");
}

TEST(SubqueryTest, ArrayWithGroupBy) {
  EXPECT_EQ(Items(R"(SELECT VALUE ARRAY(SELECT VALUE {g: k.grade, n: COUNT(1)} FROM k IN c.kids)"
                  R"( GROUP BY k.grade) FROM c WHERE c.id = "1")"),
            R"([[{"g":5,"n":2},{"g":8,"n":1}]])");
}

TEST(SubqueryTest, ArraySelectStarOverAnIteration) {
  EXPECT_EQ(Items(R"(SELECT VALUE ARRAY(SELECT * FROM t IN c.tags) FROM c WHERE c.id = "2")"),
            R"([["b"]])");
}

// ---- Correlation ----

TEST(SubqueryTest, CorrelatedAcrossTwoLevels) {
  // The innermost query reads c, two scopes out.
  EXPECT_EQ(Items("SELECT VALUE ARRAY(SELECT VALUE k.name FROM k IN c.kids WHERE "
                  "EXISTS(SELECT VALUE 1 FROM t IN c.tags WHERE t = 'a') AND k.grade = 5) FROM c"),
            R"([["Bo","Di"],[],[],[]])");
}

TEST(SubqueryTest, CorrelatedToAJoinAlias) {
  EXPECT_EQ(Items("SELECT VALUE {k: k.name, best: (SELECT VALUE k.name = c.best)} "
                  "FROM c JOIN k IN c.kids WHERE c.id = '1'"),
            R"([{"k":"Bo","best":false},{"k":"Cy","best":true},{"k":"Di","best":false}])");
}

TEST(SubqueryTest, InnerAliasHidesOuterAlias) {
  EXPECT_EQ(Items("SELECT VALUE ARRAY(SELECT VALUE c FROM c IN c.tags) FROM c WHERE c.id = '2'"),
            R"([["b"]])");
}

TEST(SubqueryTest, UnknownIdentifierInASubqueryIsSC2001) {
  EXPECT_EQ(ErrorSummary("SELECT VALUE (SELECT VALUE t FROM t IN x.tags) FROM c"),
            "SC2001 39-40: Identifier 'x' could not be resolved.");
}

TEST(SubqueryTest, SubqueryAliasesAreNotVisibleOutside) {
  EXPECT_EQ(ErrorSummary("SELECT VALUE [(SELECT VALUE COUNT(1) FROM t IN c.tags), t] FROM c"),
            "SC2001 56-57: Identifier 't' could not be resolved.");
}

// ---- FROM and JOIN sources ----

TEST(SubqueryTest, JoinSubqueryFiltersBeforeTheCrossProduct) {
  EXPECT_EQ(Items("SELECT VALUE COUNT(1) FROM c "
                  "JOIN (SELECT VALUE t FROM t IN c.tags WHERE t = 'b') AS t "
                  "JOIN (SELECT VALUE k FROM k IN c.kids WHERE k.grade >= 5) AS k"),
            "[6]");
  EXPECT_EQ(Items("SELECT c.id, k.name FROM c "
                  "JOIN (SELECT VALUE k FROM k IN c.kids WHERE k.grade = 5) AS k"),
            R"([{"id":"1","name":"Bo"},{"id":"1","name":"Di"}])");
}

TEST(SubqueryTest, JoinSubqueryWithAggregateGivesOneRowPerItem) {
  EXPECT_EQ(Items("SELECT c.id, n FROM c JOIN (SELECT VALUE COUNT(1) FROM k IN c.kids) AS n"),
            R"([{"id":"1","n":3},{"id":"2","n":0},{"id":"3","n":0},{"id":"4","n":1}])");
}

TEST(SubqueryTest, JoinSubqueryWithNoValueRemovesTheRow) {
  EXPECT_EQ(Items("SELECT VALUE c.id FROM c JOIN (SELECT VALUE t FROM t IN c.tags) AS t "
                  "WHERE t = 'a'"),
            R"(["1"])");
  EXPECT_EQ(Items("SELECT VALUE c.id FROM c JOIN (SELECT VALUE k.missing FROM k IN c.kids) AS m"),
            "[]");
}

TEST(SubqueryTest, FromSubqueryOverTheContainer) {
  EXPECT_EQ(Items("SELECT VALUE x FROM (SELECT VALUE c.id FROM c WHERE IS_ARRAY(c.tags)) AS x"),
            R"(["1","2","3"])");
  EXPECT_EQ(Items("SELECT VALUE COUNT(1) FROM (SELECT VALUE k FROM c JOIN k IN c.kids) AS k "
                  "WHERE k.grade = 5"),
            "[2]");
}

TEST(SubqueryTest, SubqueriesNestInsideSubquerySources) {
  EXPECT_EQ(
      Items("SELECT VALUE x FROM (SELECT VALUE {id: c.id, n: ARRAY_LENGTH(ARRAY(SELECT VALUE k "
            "FROM k IN c.kids))} FROM c) AS x WHERE x.n > 0"),
      R"([{"id":"1","n":3},{"id":"4","n":1}])");
  EXPECT_EQ(Items("SELECT VALUE COUNT(1) FROM c JOIN (SELECT VALUE y FROM (SELECT VALUE t FROM t "
                  "IN c.tags) AS y WHERE y = 'b') AS z"),
            "[3]");
}

TEST(SubqueryTest, FromSubqueryThatNeedsEveryItemIsNotSupported) {
  EXPECT_EQ(ErrorSummary("SELECT VALUE COUNT(1) FROM (SELECT DISTINCT VALUE c.tags FROM c) AS t"),
            "SC2000 27-69: Subqueries over the container that aggregate, sort, de-duplicate or "
            "page are not supported by this Orrery version.");
  EXPECT_EQ(ErrorSummary("SELECT VALUE n FROM (SELECT VALUE COUNT(1) FROM c) AS n"),
            "SC2000 20-55: Subqueries over the container that aggregate, sort, de-duplicate or "
            "page are not supported by this Orrery version.");
}

// ---- x IN (subquery) ----

TEST(SubqueryTest, InOverASubqueryIteratesEachArrayRow) {
  // One array row per item: x takes its elements; item 4's "x" is not an array.
  EXPECT_EQ(Items("SELECT VALUE [c.id, x] FROM c JOIN x IN (SELECT VALUE c.tags)"),
            R"([["1","a"],["1","b"],["1","b"],["2","b"]])");
  // Every array row is iterated, in row order.
  EXPECT_EQ(Items("SELECT VALUE x FROM c JOIN x IN (SELECT VALUE [k.name, k.grade] FROM k IN "
                  "c.kids WHERE k.grade = 5)"),
            R"(["Bo",5,"Di",5])");
}

TEST(SubqueryTest, InOverASubqueryIgnoresRowsThatAreNotArrays) {
  EXPECT_EQ(Items("SELECT VALUE x FROM c JOIN x IN (SELECT VALUE k.name FROM k IN c.kids)"), "[]");
  // Without VALUE each row is an object.
  EXPECT_EQ(Items("SELECT VALUE x FROM c JOIN x IN (SELECT k.name FROM k IN c.kids)"), "[]");
  EXPECT_EQ(Items("SELECT VALUE x FROM c JOIN x IN (SELECT VALUE c.missing)"), "[]");
}

TEST(SubqueryTest, InOverASubqueryIsCorrelatedAndFilters) {
  EXPECT_EQ(Items("SELECT c.id, n FROM c JOIN k IN c.kids JOIN n IN (SELECT VALUE "
                  "ARRAY(SELECT VALUE t FROM t IN c.tags WHERE t != k.name)) WHERE n = 'b'"),
            R"([{"id":"1","n":"b"},{"id":"1","n":"b"},{"id":"1","n":"b"},{"id":"1","n":"b"},)"
            R"({"id":"1","n":"b"},{"id":"1","n":"b"}])");
  EXPECT_EQ(Items("SELECT VALUE COUNT(1) FROM c JOIN x IN (SELECT VALUE c.tags) WHERE x = 'b'"),
            "[3]");
}

TEST(SubqueryTest, InOverASubqueryAsTheFirstSource) {
  EXPECT_EQ(Items("SELECT VALUE t FROM t IN (SELECT VALUE c.tags FROM c WHERE c.id != '2')"),
            R"(["a","b","b"])");
  EXPECT_EQ(Items("SELECT VALUE k.name FROM k IN (SELECT VALUE c.kids FROM c) "
                  "JOIN g IN (SELECT VALUE [k.grade]) WHERE g > 5"),
            R"(["Cy"])");
  EXPECT_EQ(ErrorSummary("SELECT VALUE t FROM t IN (SELECT VALUE COUNT(1) FROM c)"),
            "SC2000 20-55: Subqueries over the container that aggregate, sort, de-duplicate or "
            "page are not supported by this Orrery version.");
}

TEST(SubqueryTest, InOverASubqueryResolvesNamesLikeAnAliasedSubquery) {
  EXPECT_EQ(ErrorSummary("SELECT VALUE x FROM c JOIN x IN (SELECT VALUE t FROM t IN d.tags)"),
            "SC2001 58-59: Identifier 'd' could not be resolved.");
  // The iteration variable is not in scope inside its own subquery.
  EXPECT_EQ(ErrorSummary("SELECT VALUE x FROM c JOIN x IN (SELECT VALUE x)"),
            "SC2001 46-47: Identifier 'x' could not be resolved.");
  EXPECT_EQ(ErrorSummary("SELECT VALUE 1 FROM c JOIN c IN (SELECT VALUE c.tags)"),
            "SC2000 27-28: The alias 'c' is used more than once.");
}

TEST(SubqueryTest, InOverASubqueryStopsEarlyInsideExists) {
  EXPECT_EQ(Items("SELECT VALUE c.id FROM c WHERE EXISTS(SELECT VALUE 1 FROM t IN c.tags "
                  "JOIN x IN (SELECT VALUE [t, t]) WHERE x = 'b')"),
            R"(["1","2"])");
  EXPECT_EQ(Items("SELECT VALUE ARRAY(SELECT TOP 3 VALUE x FROM x IN (SELECT VALUE c.tags) "
                  "JOIN y IN (SELECT VALUE [1, 2])) FROM c WHERE c.id = '1'"),
            R"([["a","a","b"]])");
}

// ---- Where subqueries may not appear ----

TEST(SubqueryTest, AggregateOfASubqueryIsRejected) {
  EXPECT_EQ(ErrorSummary("SELECT VALUE SUM((SELECT VALUE COUNT(1) FROM t IN c.tags)) FROM c"),
            "SC2000 17-57: Cannot perform an aggregate function on an expression containing an "
            "aggregate or a subquery.");
}

TEST(SubqueryTest, GroupByASubqueryIsRejected) {
  EXPECT_EQ(ErrorSummary("SELECT VALUE 1 FROM c GROUP BY (SELECT VALUE COUNT(1) FROM t IN c.tags)"),
            "SC2000 31-71: Subqueries are not allowed in the GROUP BY clause.");
}

TEST(SubqueryTest, OrderByASubqueryIsNotAPath) {
  EXPECT_EQ(ErrorSummary("SELECT VALUE 1 FROM c ORDER BY (SELECT VALUE 1)"),
            "2206 31-47: ORDER BY item expression could not be mapped to a document path.");
}

TEST(SubqueryTest, CorrelatedSubqueryInAGroupedSelectIsRejected) {
  EXPECT_EQ(
      ErrorSummary("SELECT COUNT(1) AS n, ARRAY(SELECT VALUE t FROM t IN c.tags) AS t FROM c"),
      "SC2000 22-60: A subquery that refers to the row is invalid in the select list because "
      "it is not contained in either an aggregate function or the GROUP BY clause.");
}

TEST(SubqueryTest, UncorrelatedSubqueryInAGroupedSelectIsAConstant) {
  EXPECT_EQ(Items("SELECT VALUE {n: COUNT(1), one: (SELECT VALUE 1)} FROM c"),
            R"([{"n":4,"one":1}])");
}

TEST(SubqueryTest, AggregateQueryWithExistsInWhere) {
  EXPECT_EQ(Items("SELECT VALUE COUNT(1) FROM c WHERE EXISTS(SELECT VALUE k FROM k IN c.kids)"),
            "[2]");
}

TEST(SubqueryTest, DuplicateAliasInsideASubqueryIsRejected) {
  EXPECT_EQ(ErrorSummary("SELECT VALUE ARRAY(SELECT VALUE 1 FROM t IN c.tags JOIN t IN c.kids) "
                         "FROM c"),
            "SC2000 56-57: The alias 't' is used more than once.");
}

TEST(SubqueryTest, TopWithOffsetInASubqueryIsRejected) {
  EXPECT_EQ(ErrorSummary("SELECT VALUE ARRAY(SELECT TOP 1 VALUE t FROM t IN c.tags "
                         "OFFSET 0 LIMIT 1) FROM c"),
            "SC2000 30-31: TOP cannot be combined with OFFSET LIMIT in the same query.");
}

TEST(SubqueryTest, CompiledQueryWithSubqueriesIsReusable) {
  auto compiled = Compile("SELECT VALUE ARRAY(SELECT VALUE t FROM t IN c.tags) FROM c", {});
  ASSERT_TRUE(compiled.ok());
  for (int i = 0; i < 2; ++i) {
    std::vector<Row> rows;
    ASSERT_TRUE((*compiled)->EvaluateDocument(testing::J(R"({"tags": [1, 2]})"), rows).ok());
    auto values = (*compiled)->Finish(std::move(rows));
    ASSERT_TRUE(values.ok());
    EXPECT_EQ(testing::WriteArray(*values), "[[1,2]]");
  }
}

}  // namespace
}  // namespace orrery::query
