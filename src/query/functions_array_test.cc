// Array built-ins (query-language.md §5.5).

#include <gtest/gtest.h>

#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::Eval;

TEST(ArrayFunctionsTest, ConcatNeedsArrays) {
  EXPECT_EQ(Eval("ARRAY_CONCAT([1, 2], [3], [])"), "[[1,2,3]]");
  EXPECT_EQ(Eval("ARRAY_CONCAT([1], 'a')"), "[]");
  EXPECT_EQ(Eval("ARRAY_CONCAT([1], null)"), "[]");
}

TEST(ArrayFunctionsTest, ContainsWithPartialMatch) {
  EXPECT_EQ(Eval("ARRAY_CONTAINS([1, 'a', {b: 1}], 'a')"), "[true]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([1, 2], 1.0)"), "[true]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([[1, 2]], [1, 2])"), "[true]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([{a: 1, b: 2}], {a: 1})"), "[false]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([{a: 1, b: 2}], {a: 1}, true)"), "[true]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([{a: 1, b: 2}], {a: 2}, true)"), "[false]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([1], 1, 'yes')"), "[]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS('x', 1)"), "[]");
}

TEST(ArrayFunctionsTest, ContainsAnyAndAll) {
  EXPECT_EQ(Eval("ARRAY_CONTAINS_ANY([1, 2, 3], 4, 2)"), "[true]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS_ANY([1, 2, 3], 4, 5)"), "[false]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS_ALL([1, 2, {a: [1]}], 2, {a: [1]})"), "[true]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS_ALL([1, 2, 3], 1, 4)"), "[false]");
  EXPECT_EQ(Eval("ARRAY_CONTAINS_ALL('abc', 'a')"), "[]");
}

TEST(ArrayFunctionsTest, Length) {
  EXPECT_EQ(Eval("[ARRAY_LENGTH([1, 2, 3]), ARRAY_LENGTH([])]"), "[[3,0]]");
  EXPECT_EQ(Eval("ARRAY_LENGTH('abc')"), "[]");
}

TEST(ArrayFunctionsTest, SliceMatchesTheDocsExamples) {
  const char* fruit = "['apples', 'strawberries', 'bananas']";
  auto slice = [&](const std::string& args) {
    return Eval("ARRAY_SLICE(" + std::string(fruit) + ", " + args + ")");
  };
  EXPECT_EQ(slice("1"), R"([["strawberries","bananas"]])");
  EXPECT_EQ(slice("1, 1"), R"([["strawberries"]])");
  EXPECT_EQ(slice("-2, 1"), R"([["strawberries"]])");
  EXPECT_EQ(slice("-2, 2"), R"([["strawberries","bananas"]])");
  EXPECT_EQ(slice("1, 0"), "[[]]");
  EXPECT_EQ(slice("1, 1000"), R"([["strawberries","bananas"]])");
  EXPECT_EQ(slice("1, -100"), "[[]]");
  EXPECT_EQ(slice("0, -1"), R"([["apples","strawberries"]])");
  EXPECT_EQ(slice("-10"), R"([["apples","strawberries","bananas"]])");
  EXPECT_EQ(slice("10"), "[[]]");
  EXPECT_EQ(slice("'1'"), "[]");
  EXPECT_EQ(Eval("ARRAY_SLICE('abc', 1)"), "[]");
}

TEST(ArrayFunctionsTest, MinAndMaxUseTheTypeOrder) {
  EXPECT_EQ(Eval("[ARRAY_MIN([3, 1, 2]), ARRAY_MAX([3, 1, 2])]"), "[[1,3]]");
  EXPECT_EQ(Eval("[ARRAY_MIN([1, 'a', null, true]), ARRAY_MAX([1, 'a', null, true])]"),
            R"([[null,"a"]])");
  EXPECT_EQ(Eval("ARRAY_MAX([])"), "[]");
  EXPECT_EQ(Eval("ARRAY_MIN('a')"), "[]");
}

TEST(ArrayFunctionsTest, NumericReductions) {
  EXPECT_EQ(Eval("[ARRAY_SUM([1, 2, 3]), ARRAY_SUM([1.5, 2]), ARRAY_SUM([])]"), "[[6,3.5,0]]");
  EXPECT_EQ(Eval("ARRAY_SUM([1, 'a'])"), "[]");
  EXPECT_EQ(Eval("[ARRAY_AVG([1, 2]), ARRAY_AVG([2, 4])]"), "[[1.5,3]]");
  EXPECT_EQ(Eval("ARRAY_AVG([])"), "[]");
  EXPECT_EQ(Eval("[ARRAY_MEDIAN([3, 1, 2]), ARRAY_MEDIAN([4, 1, 2, 3])]"), "[[2,2.5]]");
  EXPECT_EQ(Eval("ARRAY_MEDIAN([])"), "[]");
  EXPECT_EQ(Eval("ARRAY_MEDIAN(null)"), "[]");
}

TEST(ArrayFunctionsTest, ChooseIsOneBased) {
  EXPECT_EQ(Eval("CHOOSE(2, 'a', 'b', 'c')"), R"(["b"])");
  EXPECT_EQ(Eval("CHOOSE(1, {x: 1})"), R"([{"x":1}])");
  EXPECT_EQ(Eval("CHOOSE(0, 'a')"), "[]");
  EXPECT_EQ(Eval("CHOOSE(4, 'a', 'b', 'c')"), "[]");
  EXPECT_EQ(Eval("CHOOSE(1.5, 'a')"), "[]");
  EXPECT_EQ(Eval("CHOOSE('1', 'a')"), "[]");
}

TEST(ArrayFunctionsTest, ObjectToArray) {
  EXPECT_EQ(Eval("ObjectToArray({a: 1, b: [2]})"), R"([[{"k":"a","v":1},{"k":"b","v":[2]}]])");
  EXPECT_EQ(Eval("ObjectToArray({a: 1}, 'key')"), R"([[{"key":"a","v":1}]])");
  EXPECT_EQ(Eval("ObjectToArray({a: 1}, 'key', 'value')"), R"([[{"key":"a","value":1}]])");
  EXPECT_EQ(Eval("ObjectToArray({})"), "[[]]");
  EXPECT_EQ(Eval("ObjectToArray([1])"), "[]");
  EXPECT_EQ(Eval("ObjectToArray({a: 1}, 1)"), "[]");
}

TEST(ArrayFunctionsTest, SetOperationsHaveNoDuplicates) {
  EXPECT_EQ(Eval("SetIntersect([1, 2, 2, 3, {a: 1}], [2, 3, 4, {a: 1}])"), R"([[2,3,{"a":1}]])");
  EXPECT_EQ(Eval("SetUnion([1, 1, 2], [2, 3, 1.0])"), "[[1,2,3]]");
  EXPECT_EQ(Eval("SetDifference([1, 2, 2, 3], [3])"), "[[1,2]]");
  EXPECT_EQ(Eval("[SetEqual([1, 2, 2], [2, 1]), SetEqual([1], [1, 2])]"), "[[true,false]]");
  EXPECT_EQ(Eval("SetIntersect([1], 'a')"), "[]");
  EXPECT_EQ(Eval("SetUnion(null, [1])"), "[]");
  EXPECT_EQ(Eval("SetEqual([1], {})"), "[]");
}

}  // namespace
}  // namespace orrery::query
