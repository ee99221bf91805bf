// End-to-end tests through Compile / EvaluateDocument / Finish, checking documented
// service behaviour (query-language.md; section numbers below refer to it).

#include "query/query.h"

#include <gtest/gtest.h>

#include <string>

#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::ErrorSummary;
using testing::Execute;
using testing::Params;
using testing::RunSorted;

constexpr std::string_view kPeople = R"([
  {"id": "1", "name": "Ann", "age": 30, "city": "Oslo", "tags": ["a", "b"],
   "address": {"city": "Oslo", "zip": "0150"},
   "kids": [{"name": "Bo", "grade": 5}, {"name": "Cy", "grade": 8}], "flag": true},
  {"id": "2", "name": "Bob", "age": 25, "city": "Rome", "tags": ["b"],
   "address": {"city": "Rome"}, "kids": [], "flag": false},
  {"id": "3", "name": "Cid", "age": null, "city": "Oslo", "tags": [], "flag": "true"},
  {"id": "4", "name": "Dee", "age": "40", "address": {"city": "Paris"}}
])";

std::string People(std::string_view query) { return Execute(query, kPeople); }

// ---- SELECT shapes (§3, §4.5) ----

TEST(QueryTest, SelectStarReturnsWholeItemsInStoredOrder) {
  EXPECT_EQ(People("SELECT * FROM c"), testing::WriteArray(testing::J(kPeople).as_array()));
}

TEST(QueryTest, SelectStarKeepsMemberOrderAndSystemProperties) {
  constexpr std::string_view kItem = R"([{"id":"x","_rid":"r","_ts":5,"b":1,"a":2}])";
  EXPECT_EQ(Execute("SELECT * FROM c", kItem), R"([{"id":"x","_rid":"r","_ts":5,"b":1,"a":2}])");
}

TEST(QueryTest, ContainerNameIsJustAnAlias) {
  EXPECT_EQ(People(R"(SELECT * FROM root r WHERE r.id = "2")"),
            R"([{"id":"2","name":"Bob","age":25,"city":"Rome","tags":["b"],)"
            R"("address":{"city":"Rome"},"kids":[],"flag":false}])");
}

TEST(QueryTest, SelectValueOfTheAliasEqualsSelectStar) {
  EXPECT_EQ(People(R"(SELECT VALUE c FROM c WHERE c.id = "2")"),
            People(R"(SELECT * FROM c WHERE c.id = "2")"));
}

TEST(QueryTest, PathItemsAreNamedAfterTheirLastSegment) {
  EXPECT_EQ(People("SELECT c.name FROM c"),
            R"([{"name":"Ann"},{"name":"Bob"},{"name":"Cid"},{"name":"Dee"}])");
  EXPECT_EQ(People("SELECT c.address.city FROM c"),
            R"([{"city":"Oslo"},{"city":"Rome"},{},{"city":"Paris"}])");
  EXPECT_EQ(People(R"(SELECT c["address"]["zip"] FROM c WHERE c.id = "1")"), R"([{"zip":"0150"}])");
}

TEST(QueryTest, MissingFieldsLeaveEmptyObjects) {
  EXPECT_EQ(People("SELECT c.missing FROM c"), "[{},{},{},{}]");
}

TEST(QueryTest, SelectValueOfUndefinedEmitsNoRow) {
  EXPECT_EQ(People("SELECT VALUE c.missing FROM c"), "[]");
}

TEST(QueryTest, UnnamedItemsAreNumberedAmongThemselves) {
  EXPECT_EQ(People(R"(SELECT c.age + 1, UPPER(c.name), c.id FROM c WHERE c.id = "1")"),
            R"([{"$1":31,"$2":"ANN","id":"1"}])");
}

TEST(QueryTest, AliasesWithAndWithoutAs) {
  EXPECT_EQ(People(R"(SELECT c.name AS n, c.id i FROM c WHERE c.id = "2")"),
            R"([{"n":"Bob","i":"2"}])");
}

TEST(QueryTest, ObjectConstructorDropsUndefinedMembers) {
  EXPECT_EQ(People(R"(SELECT {name: c.name, n: c.missing} AS o FROM c WHERE c.id = "1")"),
            R"([{"o":{"name":"Ann"}}])");
}

TEST(QueryTest, ArrayConstructorDropsUndefinedElements) {
  EXPECT_EQ(People(R"(SELECT VALUE [c.name, c.missing, c.age] FROM c WHERE c.id = "4")"),
            R"([["Dee","40"]])");
}

TEST(QueryTest, IndexIntoArrays) {
  EXPECT_EQ(People("SELECT VALUE c.kids[1].name FROM c"), R"(["Cy"])");
}

TEST(QueryTest, QueriesWithoutFromReturnOneRow) {
  EXPECT_EQ(Execute("SELECT 1 + 2"), R"([{"$1":3}])");
  EXPECT_EQ(Execute("SELECT VALUE {a: 1, b: 'x'}"), R"([{"a":1,"b":"x"}])");
}

TEST(QueryTest, NonFiniteNumbersLeaveResultsLikeUndefined) {
  EXPECT_EQ(Execute("SELECT VALUE 1 / 0"), "[]");
  EXPECT_EQ(Execute("SELECT 1 / 0 AS x, 1 AS y"), R"([{"y":1}])");
  EXPECT_EQ(Execute("SELECT VALUE [1, 0 / 0, {a: -1 / 0, b: 2}]"), R"([[1,{"b":2}]])");
}

TEST(QueryTest, KeywordsAreCaseInsensitiveButLiteralsAreNot) {
  EXPECT_EQ(People("SeLeCt VaLuE c.id FrOm c WhErE c.flag = true"), R"(["1"])");
  EXPECT_EQ(ErrorSummary("SELECT VALUE c.id FROM c WHERE c.flag = TRUE"),
            "SC2001 40-44: Identifier 'TRUE' could not be resolved.");
}

TEST(QueryTest, LineCommentsAreIgnored) {
  EXPECT_EQ(People("SELECT VALUE c.id -- the id\nFROM c -- all\nWHERE c.id = '1'"), R"(["1"])");
}

// ---- WHERE (§4.2, §4.3) ----

TEST(QueryTest, WhereKeepsOnlyExactlyTrue) {
  EXPECT_EQ(People("SELECT VALUE c.id FROM c WHERE c.flag"), R"(["1"])");
  EXPECT_EQ(People("SELECT VALUE c.id FROM c WHERE c.flag = 'true'"), R"(["3"])");
}

TEST(QueryTest, WhereNotMatchesOnlyExactlyFalse) {
  EXPECT_EQ(People("SELECT VALUE c.id FROM c WHERE NOT c.flag"), R"(["2"])");
}

TEST(QueryTest, MissingIsNotNull) {
  EXPECT_EQ(People("SELECT VALUE c.id FROM c WHERE c.missing = null"), "[]");
  EXPECT_EQ(People("SELECT VALUE c.id FROM c WHERE c.age = null"), R"(["3"])");
}

TEST(QueryTest, RangeComparisonsSkipOtherTypes) {
  EXPECT_EQ(People("SELECT VALUE c.id FROM c WHERE c.age > 26"), R"(["1"])");
}

// Like every comparison across types, != is undefined there: null and "40" do not match.
TEST(QueryTest, NotEqualIsUndefinedAcrossTypes) {
  EXPECT_EQ(People("SELECT VALUE c.id FROM c WHERE c.age != 30"), R"(["2"])");
}

TEST(QueryTest, WhereWithFunctionsInBetweenAndLike) {
  EXPECT_EQ(People("SELECT VALUE c.id FROM c WHERE IS_DEFINED(c.address)"), R"(["1","2","4"])");
  EXPECT_EQ(People("SELECT VALUE c.id FROM c WHERE c.city IN ('Oslo', 'Paris')"), R"(["1","3"])");
  EXPECT_EQ(People("SELECT VALUE c.id FROM c WHERE c.age BETWEEN 20 AND 30"), R"(["1","2"])");
  EXPECT_EQ(People("SELECT VALUE c.id FROM c WHERE c.name LIKE '%e%'"), R"(["4"])");
  EXPECT_EQ(People("SELECT VALUE c.id FROM c WHERE ARRAY_CONTAINS(c.tags, 'b')"), R"(["1","2"])");
}

TEST(QueryTest, ParametersInWhere) {
  EXPECT_EQ(
      Execute("SELECT VALUE c.id FROM c WHERE c.age > @min", kPeople, Params(R"({"@min": 26})")),
      R"(["1"])");
  EXPECT_EQ(Execute("SELECT VALUE c.id FROM c WHERE ARRAY_CONTAINS(@ids, c.id)", kPeople,
                    Params(R"({"@ids": ["2", "4"]})")),
            R"(["2","4"])");
}

TEST(QueryTest, ConditionalAndCoalesceInProjections) {
  EXPECT_EQ(People("SELECT VALUE c.age > 26 ? 'old' : 'young' FROM c"),
            R"(["old","young","young","young"])");
  EXPECT_EQ(People("SELECT VALUE c.nick ?? c.name FROM c WHERE c.id = '3'"), R"(["Cid"])");
}

TEST(QueryTest, BareWordsNaNAndInfinityAreNumbers) {
  EXPECT_EQ(Execute("SELECT VALUE [IS_NUMBER(NaN), IS_FINITE_NUMBER(Infinity)]"), "[[true,false]]");
}

// ---- FROM and JOIN (§3, §4.12) ----

TEST(QueryTest, JoinIteratesAnArrayInsideTheItem) {
  EXPECT_EQ(People("SELECT VALUE t FROM c JOIN t IN c.tags"), R"(["a","b","b"])");
  EXPECT_EQ(People("SELECT c.id, k.name FROM c JOIN k IN c.kids"),
            R"([{"id":"1","name":"Bo"},{"id":"1","name":"Cy"}])");
}

TEST(QueryTest, JoinWithFilterOnTheJoinedAlias) {
  EXPECT_EQ(People("SELECT VALUE k.name FROM c JOIN k IN c.kids WHERE k.grade > 6"), R"(["Cy"])");
}

TEST(QueryTest, TwoJoinsMultiplyRows) {
  EXPECT_EQ(People("SELECT VALUE [t, k.name] FROM c JOIN t IN c.tags JOIN k IN c.kids"),
            R"([["a","Bo"],["a","Cy"],["b","Bo"],["b","Cy"]])");
}

TEST(QueryTest, FromInIteratesAndSelectStarReturnsTheElements) {
  EXPECT_EQ(People("SELECT VALUE t FROM t IN c.tags"), R"(["a","b","b"])");
  EXPECT_EQ(People("SELECT * FROM t IN c.tags"), R"(["a","b","b"])");
}

TEST(QueryTest, FromAPathSkipsItemsWhereItIsMissing) {
  EXPECT_EQ(People("SELECT VALUE a.city FROM c.address a"), R"(["Oslo","Rome","Paris"])");
}

// ---- ORDER BY (§4.10) ----

TEST(QueryTest, OrderByDescending) {
  EXPECT_EQ(People("SELECT VALUE c.name FROM c ORDER BY c.name DESC"),
            R"(["Dee","Cid","Bob","Ann"])");
}

TEST(QueryTest, OrderByAcrossTypesUsesTheTypeOrder) {
  // null < numbers < strings
  EXPECT_EQ(People("SELECT VALUE c.id FROM c ORDER BY c.age"), R"(["3","2","1","4"])");
  EXPECT_EQ(People("SELECT VALUE c.id FROM c ORDER BY c.age DESC"), R"(["4","1","2","3"])");
}

TEST(QueryTest, OrderByPutsUndefinedKeysFirstAscending) {
  constexpr std::string_view kItems = R"([{"id":"a","n":2},{"id":"b"},{"id":"c","n":1}])";
  EXPECT_EQ(Execute("SELECT VALUE c.id FROM c ORDER BY c.n", kItems), R"(["b","c","a"])");
  EXPECT_EQ(Execute("SELECT VALUE c.id FROM c ORDER BY c.n DESC", kItems), R"(["a","c","b"])");
}

TEST(QueryTest, OrderBySeveralKeys) {
  EXPECT_EQ(People("SELECT VALUE c.id FROM c ORDER BY c.city, c.age DESC"), R"(["4","1","3","2"])");
}

TEST(QueryTest, RowsCarryTheirSortKeys) {
  auto compiled = Compile("SELECT VALUE c.id FROM c ORDER BY c.age DESC, c.name", {});
  ASSERT_TRUE(compiled.ok());
  std::vector<Row> rows;
  ASSERT_TRUE((*compiled)->EvaluateDocument(testing::J(kPeople).as_array()[0], rows).ok());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(testing::WriteArray(rows[0].sort_keys), R"([30,"Ann"])");
}

TEST(QueryTest, OrderByKeyMustBeADocumentPath) {
  EXPECT_EQ(ErrorSummary("SELECT * FROM c ORDER BY LOWER(c.name)"),
            "2206 25-38: ORDER BY item expression could not be mapped to a document path.");
}

// ---- TOP, OFFSET LIMIT (§4.11) ----

TEST(QueryTest, TopLimitsRows) {
  EXPECT_EQ(People("SELECT TOP 2 VALUE c.id FROM c"), R"(["1","2"])");
  EXPECT_EQ(Execute("SELECT TOP @n VALUE c.id FROM c", kPeople, Params(R"({"@n": 3})")),
            R"(["1","2","3"])");
}

TEST(QueryTest, OffsetLimitPagesAfterSorting) {
  EXPECT_EQ(People("SELECT VALUE c.id FROM c ORDER BY c.id DESC OFFSET 1 LIMIT 2"), R"(["3","2"])");
  EXPECT_EQ(Execute("SELECT VALUE c.id FROM c OFFSET @o LIMIT @l", kPeople,
                    Params(R"({"@o": 3, "@l": 10})")),
            R"(["4"])");
}

TEST(QueryTest, OffsetPastTheEndIsEmpty) {
  EXPECT_EQ(People("SELECT * FROM c OFFSET 10 LIMIT 5"), "[]");
}

TEST(QueryTest, TopWithOffsetIsRejected) {
  EXPECT_EQ(ErrorSummary("SELECT TOP 1 * FROM c OFFSET 0 LIMIT 1"),
            "SC2000 11-12: TOP cannot be combined with OFFSET LIMIT in the same query.");
}

TEST(QueryTest, TopParameterMustBeANonNegativeInteger) {
  for (const char* value : {R"({"@n": -1})", R"({"@n": 1.5})", R"({"@n": "2"})"}) {
    EXPECT_EQ(ErrorSummary("SELECT TOP @n * FROM c", Params(value)),
              "SC2000 11-13: The TOP value must be a non-negative integer.")
        << value;
  }
}

// ---- DISTINCT (§4.9) ----

TEST(QueryTest, DistinctValue) {
  EXPECT_EQ(People("SELECT DISTINCT VALUE c.city FROM c"), R"(["Oslo","Rome"])");
}

TEST(QueryTest, DistinctKeepsTheEmptyObjectOfMissingFields) {
  EXPECT_EQ(People("SELECT DISTINCT c.city FROM c"), R"([{"city":"Oslo"},{"city":"Rome"},{}])");
}

TEST(QueryTest, DistinctUsesDeepEquality) {
  constexpr std::string_view kItems =
      R"([{"p":{"a":1,"b":2}},{"p":{"b":2,"a":1}},{"p":{"a":1.0,"b":2}},{"p":{"a":2}}])";
  EXPECT_EQ(Execute("SELECT DISTINCT VALUE c.p FROM c", kItems), R"([{"a":1,"b":2},{"a":2}])");
}

TEST(QueryTest, DistinctAfterOrderBy) {
  EXPECT_EQ(People("SELECT DISTINCT VALUE c.city FROM c ORDER BY c.city DESC"),
            R"(["Rome","Oslo"])");
}

// ---- Aggregates (§4.7) ----

TEST(QueryTest, CountValueAndNamedForms) {
  EXPECT_EQ(People("SELECT VALUE COUNT(1) FROM c"), "[4]");
  EXPECT_EQ(People("SELECT COUNT(1) AS n FROM c"), R"([{"n":4}])");
  EXPECT_EQ(People("SELECT COUNT(1) FROM c"), R"([{"$1":4}])");
}

TEST(QueryTest, CountCountsDefinedValues) {
  EXPECT_EQ(People("SELECT VALUE [COUNT(c.age), COUNT(c.address), COUNT(c.missing)] FROM c"),
            "[[4,3,0]]");
}

TEST(QueryTest, SumOverMixedTypesIsUndefined) {
  EXPECT_EQ(People("SELECT VALUE SUM(c.age) FROM c"), "[]");
  EXPECT_EQ(People("SELECT VALUE SUM(c.age) FROM c WHERE IS_NUMBER(c.age)"), "[55]");
  EXPECT_EQ(People("SELECT VALUE AVG(c.age) FROM c WHERE IS_NUMBER(c.age)"), "[27.5]");
}

TEST(QueryTest, MinMaxAcrossTypes) {
  EXPECT_EQ(People("SELECT MIN(c.age) AS lo, MAX(c.age) AS hi FROM c"),
            R"([{"lo":null,"hi":"40"}])");
}

TEST(QueryTest, AggregatesOverAnEmptyScope) {
  EXPECT_EQ(Execute("SELECT VALUE COUNT(1) FROM c"), "[0]");
  EXPECT_EQ(Execute("SELECT VALUE SUM(c.x) FROM c"), "[0]");
  EXPECT_EQ(Execute("SELECT VALUE AVG(c.x) FROM c"), "[]");
  EXPECT_EQ(Execute("SELECT AVG(c.x) AS a FROM c"), "[{}]");
}

TEST(QueryTest, SeveralAggregatesOverAJoin) {
  EXPECT_EQ(People("SELECT COUNT(1) AS n, SUM(k.grade) AS total, MIN(k.name) AS first "
                   "FROM c JOIN k IN c.kids"),
            R"([{"n":2,"total":13,"first":"Bo"}])");
}

TEST(QueryTest, AggregatesInsideExpressions) {
  EXPECT_EQ(People("SELECT VALUE {n: COUNT(1), last: MAX(c.name)} FROM c"),
            R"([{"n":4,"last":"Dee"}])");
  EXPECT_EQ(People("SELECT VALUE COUNT(1) * 10 + 1 FROM c"), "[41]");
}

TEST(QueryTest, AggregateWithoutFromSeesOneRow) {
  EXPECT_EQ(Execute("SELECT VALUE COUNT(1)"), "[1]");
}

TEST(QueryTest, AggregateMixedWithAPathIsRejected) {
  EXPECT_EQ(ErrorSummary("SELECT c.name, COUNT(1) AS n FROM c"),
            "SC2000 7-13: Property reference 'c.name' is invalid in the select list because it "
            "is not contained in either an aggregate function or the GROUP BY clause.");
}

TEST(QueryTest, AggregatesOnlyInSelect) {
  EXPECT_EQ(ErrorSummary("SELECT * FROM c WHERE COUNT(1) > 1"),
            "SC2000 22-30: Aggregate functions are only allowed in the SELECT clause.");
  EXPECT_EQ(ErrorSummary("SELECT VALUE COUNT(MAX(c.a)) FROM c"),
            "SC2000 19-27: Cannot perform an aggregate function on an expression containing an "
            "aggregate or a subquery.");
}

// ---- GROUP BY (§4.8) ----

TEST(QueryTest, GroupByWithCounts) {
  EXPECT_EQ(RunSorted("SELECT c.city, COUNT(1) AS n FROM c GROUP BY c.city", kPeople),
            R"([{"city":"Oslo","n":2},{"city":"Rome","n":1},{"n":1}])");
}

TEST(QueryTest, GroupByValueDropsTheUndefinedGroup) {
  EXPECT_EQ(RunSorted("SELECT VALUE c.city FROM c GROUP BY c.city", kPeople), R"(["Oslo","Rome"])");
}

TEST(QueryTest, GroupByAnExpression) {
  EXPECT_EQ(
      RunSorted("SELECT UPPER(c.city) AS u, COUNT(1) AS n FROM c GROUP BY UPPER(c.city)", kPeople),
      R"([{"n":1},{"u":"OSLO","n":2},{"u":"ROME","n":1}])");
}

TEST(QueryTest, GroupByOverNothingIsEmpty) {
  EXPECT_EQ(Execute("SELECT c.city, COUNT(1) AS n FROM c GROUP BY c.city"), "[]");
}

TEST(QueryTest, GroupByWithOrderByIsRejected) {
  EXPECT_EQ(ErrorSummary("SELECT c.city FROM c GROUP BY c.city ORDER BY c.city"),
            "SC2000 46-52: 'ORDER BY' is not supported in presence of GROUP BY.");
}

TEST(QueryTest, GroupBySelectMayOnlyUseKeysAggregatesAndConstants) {
  EXPECT_EQ(ErrorSummary("SELECT c.name FROM c GROUP BY c.city"),
            "SC2000 7-13: Property reference 'c.name' is invalid in the select list because it "
            "is not contained in either an aggregate function or the GROUP BY clause.");
  EXPECT_EQ(RunSorted("SELECT c.city, 'x' AS k FROM c GROUP BY c.city", kPeople),
            R"([{"city":"Oslo","k":"x"},{"city":"Rome","k":"x"},{"k":"x"}])");
}

// ---- Compile errors (§7) ----

TEST(QueryTest, SelectStarNeedsExactlyOneSource) {
  EXPECT_EQ(ErrorSummary("SELECT * FROM c JOIN t IN c.tags"),
            "SC2000 0-8: 'SELECT *' is only valid with a single input set.");
  EXPECT_EQ(ErrorSummary("SELECT *"),
            "SC2000 0-8: 'SELECT *' is not valid if FROM clause is omitted.");
}

TEST(QueryTest, UnknownAliasIsSC2001) {
  EXPECT_EQ(ErrorSummary("SELECT x.id FROM c"),
            "SC2001 7-8: Identifier 'x' could not be resolved.");
}

TEST(QueryTest, ContainerNameIsOutOfScopeAfterAliasing) {
  EXPECT_EQ(ErrorSummary("SELECT * FROM root r WHERE root.id = '1'"),
            "SC2001 27-31: Identifier 'root' could not be resolved.");
}

TEST(QueryTest, BareNameWithoutAliasIsSC2001) {
  EXPECT_EQ(ErrorSummary("SELECT name FROM c"),
            "SC2001 7-11: Identifier 'name' could not be resolved.");
}

TEST(QueryTest, UnknownFunctionIsSC2005) {
  EXPECT_EQ(ErrorSummary("SELECT VALUE FOO(1)"),
            "SC2005 13-16: 'FOO' is not a recognized built-in function name.");
}

TEST(QueryTest, WrongArgumentCountIsSC2050) {
  EXPECT_EQ(ErrorSummary("SELECT VALUE ABS(1, 2)"),
            "SC2050 13-22: The ABS function requires 1 argument(s).");
  EXPECT_EQ(ErrorSummary("SELECT VALUE CONCAT('a')"),
            "SC2050 13-24: The CONCAT function requires at least 2 argument(s).");
}

TEST(QueryTest, MissingParameterIsRejected) {
  EXPECT_EQ(ErrorSummary("SELECT * FROM c WHERE c.a = @x"),
            "SC2001 28-30: Identifier '@x' could not be resolved.");
}

TEST(QueryTest, DuplicateOutputNamesAreRejected) {
  EXPECT_EQ(ErrorSummary("SELECT c.name, c.address.name FROM c"),
            "SC2000 15-29: Duplicate output property name 'name' in the SELECT list.");
}

TEST(QueryTest, DuplicateAliasIsRejected) {
  EXPECT_EQ(ErrorSummary("SELECT VALUE 1 FROM c JOIN c IN c.tags"),
            "SC2000 27-28: The alias 'c' is used more than once.");
}

TEST(QueryTest, UserFunctionCallsCompileWithoutTheContainersFunctions) {
  // What a query plan needs: unresolved, a call gives undefined (user_functions_test.cc).
  EXPECT_EQ(Execute("SELECT VALUE udf.tax(c.p) FROM c", R"([{"p":1}])"), "[]");
}

TEST(QueryTest, OverlongQueryIsSC3020) {
  const std::string query = "SELECT VALUE '" + std::string(524288, 'x') + "'";
  EXPECT_EQ(ErrorSummary(query),
            "SC3020 0-0: The SQL query text exceeded the maximum limit of 524288 characters.");
}

TEST(QueryTest, ErrorMessageIsTheServiceShape) {
  auto compiled = Compile("SELECT * FROM c WHERE", {});
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().message(),
            R"({"errors":[{"severity":"Error","location":{"start":21,"end":21},)"
            R"("code":"SC1002","message":"Syntax error, unexpected end-of-file."}]})");
}

// ---- What the engine needs to know (query.h) ----

TEST(QueryTest, StreamingAndFullResultFlags) {
  const auto flags = [](std::string_view text) {
    auto compiled = Compile(text, {});
    EXPECT_TRUE(compiled.ok()) << text;
    const auto& q = **compiled;
    return std::string(q.needs_full_result() ? "full" : "stream") +
           (q.top() ? " top=" + std::to_string(*q.top()) : "") +
           (q.reads_items() ? "" : " no-items");
  };
  EXPECT_EQ(flags("SELECT * FROM c"), "stream");
  EXPECT_EQ(flags("SELECT TOP 5 * FROM c WHERE c.a = 1"), "stream top=5");
  EXPECT_EQ(flags("SELECT * FROM c ORDER BY c.a"), "full");
  EXPECT_EQ(flags("SELECT DISTINCT c.a FROM c"), "full");
  EXPECT_EQ(flags("SELECT VALUE COUNT(1) FROM c"), "full");
  EXPECT_EQ(flags("SELECT * FROM c OFFSET 1 LIMIT 1"), "full");
  EXPECT_EQ(flags("SELECT VALUE 1"), "stream no-items");
}

TEST(QueryTest, CompiledQueryIsReusableAcrossDocuments) {
  auto compiled = Compile("SELECT VALUE c.n * 2 FROM c WHERE c.n > @min", Params(R"({"@min": 1})"));
  ASSERT_TRUE(compiled.ok());
  std::vector<Row> rows;
  for (int n = 0; n < 4; ++n) {
    json::Object item;
    item.emplace_back("n", json::Value::Int(n));
    ASSERT_TRUE((*compiled)->EvaluateDocument(json::Value::MakeObject(std::move(item)), rows).ok());
  }
  auto result = (*compiled)->Finish(std::move(rows));
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(testing::WriteArray(*result), "[4,6]");
}

}  // namespace
}  // namespace orrery::query
