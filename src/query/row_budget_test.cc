// RowBudget (query.h): what one page of a query may hold and enumerate. The limits are
// reached with small items whose JOINs multiply them, the way a hostile query would.

#include <gtest/gtest.h>

#include <string>

#include "query/query.h"
#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::QueryRun;
using testing::RunQuery;

// An item whose array `a` has n small elements.
std::string ItemWithArray(size_t n) {
  std::string item = R"([{"id":"x","a":[)";
  for (size_t i = 0; i < n; ++i) {
    item += (i > 0 ? "," : "") + std::to_string(i);
  }
  return item + "]}]";
}

TEST(RowBudgetTest, ChargesPassTheLimitsAndSaySo) {
  RowBudget budget;
  EXPECT_TRUE(budget.ChargeRow(kMaxItemRowBytes));
  EXPECT_FALSE(budget.exceeded());
  EXPECT_FALSE(budget.ChargeRow(1));
  EXPECT_TRUE(budget.exceeded());
  EXPECT_NE(budget.Error().message().find("64 MB of rows from one item"), std::string::npos);

  // What the page holds accumulates over items; the per-item share starts again.
  RowBudget page;
  for (size_t i = 0; i < kMaxPageRowBytes / kMaxItemRowBytes; ++i) {
    page.StartItem();
    EXPECT_TRUE(page.ChargeRow(kMaxItemRowBytes)) << i;
  }
  page.StartItem();
  EXPECT_FALSE(page.ChargeRow(1));
  EXPECT_NE(page.Error().message().find("1024 MB of rows for one page"), std::string::npos);

  // A refund gives back what a finished subquery held.
  RowBudget refunded;
  EXPECT_TRUE(refunded.ChargeRow(kMaxItemRowBytes));
  refunded.Refund(kMaxItemRowBytes);
  EXPECT_TRUE(refunded.ChargeRow(kMaxItemRowBytes));

  RowBudget bindings;
  for (size_t i = 0; i < kMaxItemBindings; ++i) {
    ASSERT_TRUE(bindings.ChargeBinding());
  }
  EXPECT_FALSE(bindings.ChargeBinding());
  EXPECT_NE(bindings.Error().message().find("16777216 combinations of JOINs"), std::string::npos);
}

// Four JOINs over 100 elements are 10^8 combinations: refused after 2^24, not run for
// minutes. Three (10^6) are within the budget, and each one is seen.
TEST(RowBudgetTest, JoinCombinationsAreBounded) {
  const std::string item = ItemWithArray(100);
  const QueryRun three = RunQuery(
      "SELECT VALUE [x, y, z] FROM c JOIN x IN c.a JOIN y IN c.a JOIN z IN c.a "
      "WHERE x * 10000 + y * 100 + z IN (0, 10203, 999999, 1000000)",
      item);
  EXPECT_EQ(three.text(), "[[0,0,0],[1,2,3],[99,99,99]]");
  const QueryRun four = RunQuery(
      "SELECT VALUE 1 FROM c JOIN x IN c.a JOIN y IN c.a JOIN z IN c.a JOIN w IN c.a WHERE false",
      item);
  EXPECT_EQ(four.status.code(), StatusCode::kBadRequest);
  EXPECT_NE(four.status.message().find("combinations of JOINs for one item"), std::string::npos)
      << four.status.ToString();
}

// Rows that copy a large item per combination pass the item's 64 MB long before memory
// runs short.
TEST(RowBudgetTest, RowsOneItemYieldsAreBounded) {
  std::string big = R"([{"id":"x","pad":")" + std::string(100'000, 'p') + R"(","a":[)";
  for (int i = 0; i < 1000; ++i) big += (i > 0 ? "," : "") + std::to_string(i);
  big += "]}]";
  const QueryRun run = RunQuery("SELECT c.pad FROM c JOIN x IN c.a", big);
  EXPECT_EQ(run.status.code(), StatusCode::kBadRequest);
  EXPECT_NE(run.status.message().find("64 MB of rows from one item"), std::string::npos)
      << run.status.ToString();
  // 100 rows of 100 KB are fine.
  const QueryRun fewer = RunQuery("SELECT c.pad FROM c JOIN x IN c.a WHERE x < 100", big);
  ASSERT_TRUE(fewer.status.ok()) << fewer.status.ToString();
  EXPECT_EQ(fewer.values.size(), 100u);
}

// A subquery's rows count while it runs: an ARRAY subquery over a cross product is
// refused the same way, and the error reaches the caller.
TEST(RowBudgetTest, SubqueryRowsAreBounded) {
  const std::string item = ItemWithArray(100);
  const QueryRun run = RunQuery(
      "SELECT VALUE ARRAY_LENGTH(ARRAY(SELECT VALUE [x, y, z, w] FROM x IN c.a JOIN y IN c.a "
      "JOIN z IN c.a JOIN w IN c.a)) FROM c",
      item);
  EXPECT_EQ(run.status.code(), StatusCode::kBadRequest);
  EXPECT_TRUE(run.status.message().find("one item") != std::string::npos) << run.status.ToString();
  // Within the budget the subquery's rows are all there.
  EXPECT_EQ(RunQuery("SELECT VALUE ARRAY_LENGTH(ARRAY(SELECT VALUE [x, y] FROM x IN c.a JOIN y "
                     "IN c.a)) FROM c",
                     item)
                .text(),
            "[10000]");
}

// A value built from many references to the item copies it once per reference: an
// array literal, a || chain or a function's result is refused past 64 MB instead of
// growing with the length of the query text.
TEST(RowBudgetTest, ValuesBuiltFromTheItemAreBounded) {
  const std::string item = R"([{"id":"x","pad":")" + std::string(100'000, 'p') + R"("}])";
  std::string array = "[c.pad";
  std::string concat = "c.pad";
  std::string call = "CONCAT(c.pad";
  for (int i = 1; i < 700; ++i) {  // 700 x 100 KB = 70 MB
    array += ", c.pad";
    concat += " || c.pad";
    call += ", c.pad";
  }
  array += "]";
  call += ")";
  for (const std::string& value : {array, "{a: " + array + "}", concat, call}) {
    const QueryRun run = RunQuery("SELECT VALUE " + value + " FROM c", item);
    EXPECT_EQ(run.status.code(), StatusCode::kBadRequest) << value.substr(0, 20);
    EXPECT_NE(run.status.message().find("builds a value of more than 64 MB"), std::string::npos)
        << run.status.ToString();
  }
  // Ten copies (1 MB) are built, each whole.
  const QueryRun ten = RunQuery(
      "SELECT VALUE LENGTH(c.pad || c.pad || c.pad || c.pad || c.pad || c.pad || c.pad || "
      "c.pad || c.pad || c.pad) FROM c",
      item);
  EXPECT_EQ(ten.text(), "[1000000]");
}

}  // namespace
}  // namespace orrery::query
