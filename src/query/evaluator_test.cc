#include "query/evaluator.h"

#include <gtest/gtest.h>

#include "query/aggregate.h"
#include "query/like.h"
#include "query/ordering.h"
#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::Eval;
using testing::J;
using testing::Params;

// ---- Arithmetic and string operators (query-language.md §1, §4.1) ----

TEST(EvaluatorTest, ArithmeticIsDoubleWithIntegralResultsKept) {
  EXPECT_EQ(Eval("10 / 4"), "[2.5]");
  EXPECT_EQ(Eval("1 + 2 * 3"), "[7]");
  EXPECT_EQ(Eval("0.1 + 0.2"), "[0.30000000000000004]");
  EXPECT_EQ(Eval("IS_INTEGER(6 / 3)"), "[true]");
}

TEST(EvaluatorTest, ModuloTakesTheDividendsSign) {
  EXPECT_EQ(Eval("-7 % 2"), "[-1]");
  EXPECT_EQ(Eval("7 % -2"), "[1]");
  EXPECT_EQ(Eval("5.5 % 2"), "[1.5]");
}

TEST(EvaluatorTest, ArithmeticOnNonNumbersIsUndefined) {
  EXPECT_EQ(Eval("'1' + 1"), "[]");
  EXPECT_EQ(Eval("null + 1"), "[]");
  EXPECT_EQ(Eval("-'a'"), "[]");
  EXPECT_EQ(Eval("true * 2"), "[]");
}

TEST(EvaluatorTest, DivisionByZeroIsInfinite) {
  EXPECT_EQ(Eval("IS_FINITE_NUMBER(8.9 / 0.0)"), "[false]");
  EXPECT_EQ(Eval("ToString(1 / 0)"), R"(["Infinity"])");
  EXPECT_EQ(Eval("ToString(NaN)"), R"(["NaN"])");
  EXPECT_EQ(Eval("ToString(Infinity)"), R"(["Infinity"])");
}

TEST(EvaluatorTest, ConcatenationNeedsTwoStrings) {
  EXPECT_EQ(Eval("'a' || 'b'"), R"(["ab"])");
  EXPECT_EQ(Eval("'a' || 1"), "[]");
}

TEST(EvaluatorTest, BitwiseOperatorsUseInt32LikeJavaScript) {
  EXPECT_EQ(Eval("[5 & 3, 5 | 3, 5 ^ 3, ~5, 1 << 3, -16 >> 2, -1 >>> 28]"), "[[1,7,6,-6,8,-4,15]]");
  EXPECT_EQ(Eval("4294967297 | 0"), "[1]");  // low 32 bits
  EXPECT_EQ(Eval("'a' & 1"), "[]");
}

// ---- Comparison and equality (§4.2) ----

TEST(EvaluatorTest, RelationalComparisonsNeedTheSameScalarType) {
  EXPECT_EQ(Eval("[1 < 2, 'a' < 'b', false < true, 2 >= 2.0]"), "[[true,true,true,true]]");
  EXPECT_EQ(Eval("1 < '2'"), "[]");
  EXPECT_EQ(Eval("null < 1"), "[]");
  EXPECT_EQ(Eval("[1] < [2]"), "[]");
  EXPECT_EQ(Eval("{} < {}"), "[]");
  EXPECT_EQ(Eval("undefined < 1"), "[]");
}

TEST(EvaluatorTest, NullRelationalComparisonWithNullIsUndefined) {
  // Not documented ([!] in the reference); Orrery follows the "same scalar type" rule.
  EXPECT_EQ(Eval("null <= null"), "[]");
}

TEST(EvaluatorTest, EqualityIsDeepAndNumericByValue) {
  EXPECT_EQ(Eval("1 = 1.0"), "[true]");
  EXPECT_EQ(Eval("null = null"), "[true]");
  EXPECT_EQ(Eval("{a: 1, b: [1, 2]} = {b: [1, 2], a: 1}"), "[true]");
  EXPECT_EQ(Eval("[1, 2] = [2, 1]"), "[false]");
}

TEST(EvaluatorTest, CrossTypeEqualityIsUndefinedAndUndefinedPropagates) {
  EXPECT_EQ(Eval("1 = '1'"), "[]");
  EXPECT_EQ(Eval("1 != '1'"), "[]");
  EXPECT_EQ(Eval("null = 0"), "[]");
  EXPECT_EQ(Eval("'1' IN (1, 2)"), "[false]");
  EXPECT_EQ(Eval("undefined = undefined"), "[]");
  EXPECT_EQ(Eval("1 != undefined"), "[]");
  EXPECT_EQ(Eval("1 <> 2"), "[true]");
}

TEST(EvaluatorTest, StringsCompareByCodePoint) {
  EXPECT_EQ(Eval("'B' < 'a'"), "[true]");
  EXPECT_EQ(Eval("'z' < '\\u00e9'"), "[true]");
}

// ---- Logic (§4.3) ----

TEST(EvaluatorTest, ThreeValuedLogic) {
  EXPECT_EQ(Eval("true OR undefined"), "[true]");
  EXPECT_EQ(Eval("false AND undefined"), "[false]");
  EXPECT_EQ(Eval("undefined AND false"), "[false]");
  EXPECT_EQ(Eval("true AND undefined"), "[]");
  EXPECT_EQ(Eval("false OR undefined"), "[]");
  EXPECT_EQ(Eval("NOT undefined"), "[]");
  EXPECT_EQ(Eval("NOT false"), "[true]");
}

TEST(EvaluatorTest, NonBooleanLogicOperandsCountAsUndefined) {
  EXPECT_EQ(Eval("true AND 1"), "[]");
  EXPECT_EQ(Eval("null OR false"), "[]");
  EXPECT_EQ(Eval("NOT 'true'"), "[]");
}

TEST(EvaluatorTest, InAndBetween) {
  EXPECT_EQ(Eval("2 IN (1, 2, 3)"), "[true]");
  EXPECT_EQ(Eval("'2' IN (1, 2)"), "[false]");
  EXPECT_EQ(Eval("2 NOT IN (1, 3)"), "[true]");
  EXPECT_EQ(Eval("undefined IN (1)"), "[]");
  EXPECT_EQ(Eval("5 BETWEEN 1 AND 5"), "[true]");
  EXPECT_EQ(Eval("5 NOT BETWEEN 1 AND 4"), "[true]");
  EXPECT_EQ(Eval("5 BETWEEN 'a' AND 9"), "[]");
  EXPECT_EQ(Eval("'b' BETWEEN 'a' AND 'c'"), "[true]");
}

// ---- Conditional and coalesce (§4.4) ----

TEST(EvaluatorTest, ConditionalTakesTheFalseBranchForNonBooleans) {
  EXPECT_EQ(Eval("true ? 1 : 2"), "[1]");
  EXPECT_EQ(Eval("'yes' ? 1 : 2"), "[2]");
  EXPECT_EQ(Eval("undefined ? 1 : 2"), "[2]");
  EXPECT_EQ(Eval("IIF(null, 1, 2)"), "[2]");
}

TEST(EvaluatorTest, CoalesceReplacesOnlyUndefined) {
  EXPECT_EQ(Eval("undefined ?? 'd'"), R"(["d"])");
  EXPECT_EQ(Eval("null ?? 'd'"), "[null]");
  EXPECT_EQ(Eval("0 ?? 'd'"), "[0]");
}

// ---- Constructors and access (§4.5) ----

TEST(EvaluatorTest, ConstructorsDropUndefined) {
  EXPECT_EQ(Eval("[1, undefined, 2]"), "[[1,2]]");
  EXPECT_EQ(Eval("{a: 1, b: undefined, c: null}"), R"([{"a":1,"c":null}])");
}

TEST(EvaluatorTest, PropertyAndIndexAccessOnWrongTypesIsUndefined) {
  EXPECT_EQ(Eval("{a: {b: 2}}.a.b"), "[2]");
  EXPECT_EQ(Eval("{a: 1}.a.b"), "[]");
  EXPECT_EQ(Eval("[10, 20][1]"), "[20]");
  EXPECT_EQ(Eval("[10, 20][2]"), "[]");
  EXPECT_EQ(Eval("[10, 20][-1]"), "[]");
  EXPECT_EQ(Eval("{a: 1}['a']"), "[1]");
  EXPECT_EQ(Eval("{a: 1}[0]"), "[]");
  EXPECT_EQ(Eval("[1]['0']"), "[]");
}

TEST(EvaluatorTest, ParametersBindAnyJson) {
  EXPECT_EQ(Eval("@list[1] + @n", Params(R"({"@list": [1, 2], "@n": 3})")), "[5]");
  EXPECT_EQ(Eval("@o.a", Params(R"({"@o": {"a": "x"}})")), R"(["x"])");
}

// ---- LIKE (§4.2) ----

TEST(LikeTest, Wildcards) {
  EXPECT_TRUE(LikeMatches("apple", "a%", std::nullopt));
  EXPECT_TRUE(LikeMatches("apple", "%pl%", std::nullopt));
  EXPECT_TRUE(LikeMatches("apple", "_pple", std::nullopt));
  EXPECT_FALSE(LikeMatches("apple", "_ple", std::nullopt));
  EXPECT_FALSE(LikeMatches("Apple", "a%", std::nullopt));  // case-sensitive
  EXPECT_TRUE(LikeMatches("", "%", std::nullopt));
  EXPECT_TRUE(LikeMatches("abcabc", "%abc", std::nullopt));
}

TEST(LikeTest, BracketSetsAndEscapes) {
  EXPECT_TRUE(LikeMatches("b1", "[abc][0-9]", std::nullopt));
  EXPECT_FALSE(LikeMatches("d1", "[abc][0-9]", std::nullopt));
  EXPECT_TRUE(LikeMatches("d", "[^abc]", std::nullopt));
  EXPECT_TRUE(LikeMatches("50%", "50[%]", std::nullopt));
  EXPECT_TRUE(LikeMatches("a_b", "a[_]b", std::nullopt));
  EXPECT_TRUE(LikeMatches("[", "[[]", std::nullopt));
  EXPECT_TRUE(LikeMatches("100%", "100!%", U'!'));
  EXPECT_FALSE(LikeMatches("1000", "100!%", U'!'));
  EXPECT_TRUE(LikeMatches("\xC3\xA9t\xC3\xA9", "_t_", std::nullopt));  // by character
}

TEST(EvaluatorTest, LikeOnNonStringsIsUndefined) {
  EXPECT_EQ(Eval("'abc' LIKE 'a%'"), "[true]");
  EXPECT_EQ(Eval("'abc' NOT LIKE 'a%'"), "[false]");
  EXPECT_EQ(Eval("1 LIKE '1'"), "[]");
}

// ---- Ordering (§4.10) ----

TEST(OrderingTest, TypeOrderAcrossTypes) {
  const std::vector<json::Value> ascending = {json::Value(), J("null"), J("false"), J("true"),
                                              J("-1"),       J("2.5"),  J("\"\""),  J("\"a\""),
                                              J("[]"),       J("[1]"),  J("{}")};
  for (size_t i = 0; i + 1 < ascending.size(); ++i) {
    EXPECT_LT(CompareValues(ascending[i], ascending[i + 1]), 0) << i;
    EXPECT_GT(CompareValues(ascending[i + 1], ascending[i]), 0) << i;
  }
}

TEST(OrderingTest, EqualityAndHashAgree) {
  EXPECT_TRUE(ValuesEqual(J("1"), J("1.0")));
  EXPECT_EQ(HashValue(J("1")), HashValue(J("1.0")));
  EXPECT_TRUE(ValuesEqual(J(R"({"a":1,"b":2})"), J(R"({"b":2,"a":1})")));
  EXPECT_EQ(HashValue(J(R"({"a":1,"b":2})")), HashValue(J(R"({"b":2,"a":1})")));
  EXPECT_EQ(CompareValues(J(R"({"a":1,"b":2})"), J(R"({"b":2,"a":1})")), 0);
  EXPECT_FALSE(ValuesEqual(J("null"), json::Value()));
  EXPECT_FALSE(ValuesEqual(J("0"), J("false")));
}

// ---- Aggregates (§4.7) ----

json::Value Aggregate(AggregateKind kind, std::string_view inputs) {
  Aggregator aggregator(kind);
  const json::Value values = J(inputs);
  for (const json::Value& v : values.as_array()) {
    aggregator.Add(v);
  }
  return aggregator.Result();
}

TEST(AggregatorTest, CountCountsDefinedValuesIncludingNull) {
  EXPECT_EQ(json::Write(Aggregate(AggregateKind::kCount, "[1, null, \"a\", []]")), "4");
  EXPECT_EQ(json::Write(Aggregate(AggregateKind::kCount, "[]")), "0");
}

TEST(AggregatorTest, SumAndAverage) {
  EXPECT_EQ(json::Write(Aggregate(AggregateKind::kSum, "[1, 2, 3.5]")), "6.5");
  EXPECT_EQ(json::Write(Aggregate(AggregateKind::kSum, "[]")), "0");
  EXPECT_TRUE(Aggregate(AggregateKind::kSum, "[1, \"a\"]").is_undefined());
  EXPECT_TRUE(Aggregate(AggregateKind::kSum, "[1, null]").is_undefined());
  EXPECT_EQ(json::Write(Aggregate(AggregateKind::kAvg, "[1, 2]")), "1.5");
  EXPECT_TRUE(Aggregate(AggregateKind::kAvg, "[]").is_undefined());
  EXPECT_TRUE(Aggregate(AggregateKind::kAvg, "[1, true]").is_undefined());
}

TEST(AggregatorTest, MinMaxUseTheTypeOrder) {
  EXPECT_EQ(json::Write(Aggregate(AggregateKind::kMin, "[3, \"a\", null, true]")), "null");
  EXPECT_EQ(json::Write(Aggregate(AggregateKind::kMax, "[3, \"a\", null, true]")), "\"a\"");
  EXPECT_EQ(json::Write(Aggregate(AggregateKind::kMax, "[3, 10, 2]")), "10");
  EXPECT_TRUE(Aggregate(AggregateKind::kMax, "[1, [2]]").is_undefined());
  EXPECT_TRUE(Aggregate(AggregateKind::kMin, "[]").is_undefined());
}

// ---- Built-in functions (§5) ----

TEST(FunctionsTest, TypeChecksAlwaysReturnBooleans) {
  EXPECT_EQ(Eval("[IS_DEFINED(undefined), IS_DEFINED(null), IS_NULL(null), IS_NULL(undefined)]"),
            "[[false,true,true,false]]");
  EXPECT_EQ(Eval("[IS_STRING('a'), IS_NUMBER(1.5), IS_BOOL(false), IS_ARRAY([]), IS_OBJECT({})]"),
            "[[true,true,true,true,true]]");
  EXPECT_EQ(Eval("[IS_PRIMITIVE(null), IS_PRIMITIVE('x'), IS_PRIMITIVE([]), IS_PRIMITIVE({})]"),
            "[[true,true,false,false]]");
  EXPECT_EQ(Eval("[IS_INTEGER(9223372036854775807), IS_INTEGER(18446744073709551615)]"),
            "[[true,false]]");
}

TEST(FunctionsTest, NamesAreCaseInsensitive) {
  EXPECT_EQ(Eval("[upper('a'), Upper('b'), UPPER('c')]"), R"([["A","B","C"]])");
}

TEST(FunctionsTest, StringFunctions) {
  EXPECT_EQ(Eval("LENGTH('abc')"), "[3]");
  EXPECT_EQ(Eval("LENGTH('\\uD83D\\uDE00')"), "[2]");  // UTF-16 code units
  EXPECT_EQ(Eval("[LENGTH(null), LENGTH(0), LENGTH([])]"), "[[]]");
  EXPECT_EQ(Eval("LOWER('ÀBC')"), R"(["àbc"])");
  EXPECT_EQ(Eval("UPPER('straße é')"), R"(["STRAßE É"])");
  EXPECT_EQ(Eval("CONCAT('a', 'b', 'c')"), R"(["abc"])");
  EXPECT_EQ(Eval("CONCAT('a', 1)"), "[]");
  EXPECT_EQ(Eval("[CONTAINS('abc', 'b'), CONTAINS('abc', 'B'), CONTAINS('abc', 'B', true)]"),
            "[[true,false,true]]");
  EXPECT_EQ(Eval("[STARTSWITH('abc', 'ab'), ENDSWITH('abc', 'bc'), STARTSWITH('abc', 'AB', true)]"),
            "[[true,true,true]]");
  EXPECT_EQ(Eval("CONTAINS('abc', 1)"), "[]");
}

TEST(FunctionsTest, SubstringClampsItsRange) {
  EXPECT_EQ(Eval("SUBSTRING('abc', 1, 1)"), R"(["b"])");
  EXPECT_EQ(Eval("SUBSTRING('abc', 0, -1)"), R"([""])");
  EXPECT_EQ(Eval("SUBSTRING('abc', 1, 100)"), R"(["bc"])");
  EXPECT_EQ(Eval("SUBSTRING('abc', 5, 1)"), R"([""])");
  EXPECT_EQ(Eval("SUBSTRING('abc', '1', 1)"), "[]");
}

TEST(FunctionsTest, MathFunctions) {
  EXPECT_EQ(Eval("[ABS(-5), ABS(-2.5), FLOOR(2.7), CEILING(2.1), FLOOR(-2.5)]"),
            "[[5,2.5,2,3,-3]]");
  EXPECT_EQ(Eval("[ROUND(2.5), ROUND(-2.4), ROUND(-2.6), ROUND(-2.5)]"), "[[3,-2,-3,-3]]");
  EXPECT_EQ(Eval("ABS('1')"), "[]");
  EXPECT_EQ(Eval("FLOOR(null)"), "[]");
}

TEST(FunctionsTest, ArrayFunctions) {
  EXPECT_EQ(Eval("ARRAY_LENGTH([1, 2, 3])"), "[3]");
  EXPECT_EQ(Eval("ARRAY_LENGTH('abc')"), "[]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([1, 'a', {b: 1}], 'a')"), "[true]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([1, 2], 1.0)"), "[true]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([{a: 1, b: 2}], {a: 1})"), "[false]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([{a: 1, b: 2}], {a: 1}, true)"), "[true]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS('x', 1)"), "[]");
}

TEST(FunctionsTest, ToStringWritesJavaScriptForms) {
  EXPECT_EQ(Eval("ToString(0.1234)"), R"(["0.1234"])");
  EXPECT_EQ(Eval("ToString(false)"), R"(["false"])");
  EXPECT_EQ(Eval("ToString(null)"), R"(["null"])");
  EXPECT_EQ(Eval("ToString([1, 2, 3])"), R"(["[1,2,3]"])");
  EXPECT_EQ(Eval("ToString({a: 'x'})"), R"(["{\"a\":\"x\"}"])");
  EXPECT_EQ(Eval("ToString(1e21)"), R"(["1e+21"])");
  EXPECT_EQ(Eval("ToString(undefined)"), "[]");
}

}  // namespace
}  // namespace orrery::query
