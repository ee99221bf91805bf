// udf.<name>(...) in queries: the container's functions run per item in SELECT and
// WHERE, with the documented examples (how-to-use-stored-procedures-triggers-udfs.md,
// query/udfs.md); a missing argument skips the call, a throw fails the query, unknown
// names and more than ten references are refused at compile.

#include "query/user_functions.h"

#include <gtest/gtest.h>

#include "query/query_test_util.h"
#include "script/user_function.h"

namespace orrery::query {
namespace {

using testing::J;
using testing::WriteArray;

// The documented tax UDF.
constexpr const char* kTax = R"(function tax(income) {
  if (income == undefined) throw 'no input';
  if (income < 1000) return income * 0.1;
  else if (income < 10000) return income * 0.2;
  else return income * 0.4;
})";

// The documented REGEX_MATCH UDF.
constexpr const char* kRegexMatch = R"(function (input, pattern) {
  return input.match(pattern) !== null;
})";

UserFunctions Functions() {
  UserFunctions out;
  out.emplace("tax", std::make_shared<script::UserFunction>("tax", kTax));
  out.emplace("REGEX_MATCH", std::make_shared<script::UserFunction>("REGEX_MATCH", kRegexMatch));
  return out;
}

std::string RunWithUdfs(std::string_view query, std::string_view items) {
  UserFunctions functions = Functions();
  auto compiled = Compile(query, {}, nullptr, nullptr, nullptr,
                          spatial::CoordinateSystem::kGeography, &functions);
  if (!compiled.ok()) return compiled.status().ToString();
  std::vector<Row> rows;
  const json::Value all = J(items);
  for (const json::Value& item : all.as_array()) {
    Status status = (*compiled)->EvaluateDocument(item, rows);
    if (!status.ok()) return status.ToString();
  }
  auto finished = (*compiled)->Finish(std::move(rows));
  if (!finished.ok()) return finished.status().ToString();
  return WriteArray(*finished);
}

constexpr std::string_view kIncomes = R"([
  {"id": "a", "income": 500}, {"id": "b", "income": 5000},
  {"id": "c", "income": 50000}, {"id": "d"}
])";

TEST(UserFunctionsTest, InWhereAndSelect) {
  EXPECT_EQ(
      RunWithUdfs("SELECT VALUE t.id FROM Incomes t WHERE udf.tax(t.income) > 1000", kIncomes),
      R"(["c"])");
  EXPECT_EQ(RunWithUdfs("SELECT t.id, udf.tax(t.income) AS tax FROM t", kIncomes),
            R"([{"id":"a","tax":50},{"id":"b","tax":1000},{"id":"c","tax":20000},{"id":"d"}])");
}

TEST(UserFunctionsTest, DocumentedRegexMatchProjectsAsDollarOne) {
  constexpr std::string_view kFamilies =
      R"([{"address": {"city": "Seattle"}}, {"address": {"city": "NY"}}])";
  EXPECT_EQ(
      RunWithUdfs(R"(SELECT udf.REGEX_MATCH(Families.address.city, ".*eattle") FROM Families)",
                  kFamilies),
      R"([{"$1":true},{"$1":false}])");
}

TEST(UserFunctionsTest, ThrowFailsTheQuery) {
  // Called with an undefined argument the call is skipped; with null the UDF throws.
  EXPECT_EQ(RunWithUdfs("SELECT VALUE udf.tax(t.income) FROM t", R"([{"income": null}])"),
            "status 1: Encountered exception while executing function. Exception = no input");
}

TEST(UserFunctionsTest, UnknownFunctionsAndTooManyReferencesAreRefused) {
  EXPECT_NE(RunWithUdfs("SELECT VALUE udf.nope(1) FROM t", "[]").find("SC2005"), std::string::npos);
  std::string query = "SELECT VALUE [";
  for (int i = 0; i < 11; ++i) query += (i ? ",udf.tax(" : "udf.tax(") + std::to_string(i) + ")";
  query += "] FROM t";
  EXPECT_NE(RunWithUdfs(query, "[]").find("more than 10 user-defined functions"),
            std::string::npos);
}

TEST(UserFunctionsTest, CallsAreCounted) {
  UserFunctions functions = Functions();
  auto compiled = Compile("SELECT VALUE udf.tax(t.income) FROM t", {}, nullptr, nullptr, nullptr,
                          spatial::CoordinateSystem::kGeography, &functions);
  ASSERT_TRUE(compiled.ok());
  std::vector<Row> rows;
  const json::Value all = J(kIncomes);
  for (const json::Value& item : all.as_array()) {
    ASSERT_TRUE((*compiled)->EvaluateDocument(item, rows).ok());
  }
  EXPECT_EQ(functions.at("tax")->calls(), 3u) << "the item without income skips the call";
}

}  // namespace
}  // namespace orrery::query
