// The limits of limits.h: every construct that nests, at and beyond its limit, and the
// long associative chains that have no limit. Deep queries run on a thread with the
// stack the server gives its request threads (common/stack.h), as they would there;
// one test runs them on a small stack to show the stack guard answering instead.

#include "query/limits.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "common/stack.h"
#include "query/deepest_queries.h"
#include "query/errors.h"
#include "query/parser.h"
#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::ErrorSummary;
using testing::Execute;
using testing::QueryRun;
using testing::RunQuery;

std::string Repeat(std::string_view piece, size_t times) { return RepeatText(piece, times); }
std::string Nest(std::string_view open, std::string_view core, std::string_view close, size_t n) {
  return NestText(open, core, close, n);
}

// Runs `body` on a stack like a request thread's.
void OnRequestStack(const std::function<void()>& body) {
  RunWithStack(kRequestThreadStackBytes, body);
}

QueryRun RunDeep(const std::string& query, std::string_view items = "[]") {
  QueryRun run;
  OnRequestStack([&] { run = RunQuery(query, items); });
  return run;
}

// The message of the first compile error (empty when the query compiled).
std::string ErrorMessage(const std::string& query) {
  std::string summary;
  OnRequestStack([&] {
    if (Compile(query, {}).ok()) {
      return;
    }
    summary = ErrorSummary(query);
  });
  const size_t colon = summary.find(": ");
  return colon == std::string::npos ? summary : summary.substr(colon + 2);
}

const std::string kNestingMessage =
    "The SQL query nests parentheses, brackets, braces, function calls, subqueries and prefix "
    "operators more than 2000 levels deep.";
const std::string kDepthPrefix =
    "An expression of the SQL query is more than 1000 operators, property accesses or function "
    "calls deep.";

bool IsDepthError(const std::string& message) { return message.rfind(kDepthPrefix, 0) == 0; }

TEST(QueryLimitsTest, TheLimitsAreTheDocumentedOnes) {
  EXPECT_EQ(kMaxExpressionDepth, 1000u);
  EXPECT_EQ(kMaxNestingDepth, 2000u);
}

// The issue's query: 1,000 levels work, as before; the nesting limit is exact.
TEST(QueryLimitsTest, ParenthesesUpToTheNestingLimitWork) {
  const std::string items = R"([{"id":"a","n":7},{"id":"b","n":8}])";
  for (size_t levels : {1000u, 2000u}) {
    const QueryRun run =
        RunDeep("SELECT VALUE c.id FROM c WHERE " + Nest("(", "c.n = 7", ")", levels), items);
    ASSERT_TRUE(run.status.ok()) << levels << ": " << run.status.ToString();
    EXPECT_EQ(run.text(), R"(["a"])") << levels;
  }
  EXPECT_EQ(ErrorMessage("SELECT * FROM c WHERE " + Nest("(", "c.n = 7", ")", 2001)),
            kNestingMessage);
}

TEST(QueryLimitsTest, EveryNestingConstructIsRefusedBeyondTheLimit) {
  struct Construct {
    const char* name;
    std::function<std::string(size_t)> query;
  };
  const std::vector<Construct> constructs = {
      {"parentheses",
       [](size_t n) { return "SELECT * FROM c WHERE " + Nest("(", "c.n = 7", ")", n); }},
      {"NOT", [](size_t n) { return "SELECT * FROM c WHERE " + Repeat("NOT ", n) + "c.b"; }},
      {"unary minus", [](size_t n) { return "SELECT VALUE " + Repeat("- ", n) + "1"; }},
      {"unary plus", [](size_t n) { return "SELECT VALUE " + Repeat("+", n) + "1"; }},
      {"bitwise not", [](size_t n) { return "SELECT VALUE " + Repeat("~", n) + "1"; }},
      {"function calls", [](size_t n) { return "SELECT VALUE " + Nest("ABS(", "1", ")", n); }},
      {"array literals", [](size_t n) { return "SELECT VALUE " + Nest("[", "1", "]", n); }},
      {"object literals", [](size_t n) { return "SELECT VALUE " + Nest("{a:", "1", "}", n); }},
      {"scalar subqueries",
       [](size_t n) { return "SELECT VALUE " + Nest("(SELECT VALUE ", "1", ")", n); }},
      {"EXISTS",
       [](size_t n) { return "SELECT VALUE " + Nest("EXISTS(SELECT VALUE ", "1", ")", n); }},
      {"ARRAY",
       [](size_t n) { return "SELECT VALUE " + Nest("ARRAY(SELECT VALUE ", "1", ")", n); }},
      {"FROM subqueries",
       [](size_t n) { return Nest("SELECT VALUE x FROM (", "SELECT VALUE 1", ") x", n); }},
      {"IN lists", [](size_t n) { return "SELECT VALUE " + Nest("1 IN (", "1", ")", n); }},
      {"indexers", [](size_t n) { return "SELECT VALUE " + Nest("c[", "0", "]", n) + " FROM c"; }},
      {"ternaries", [](size_t n) { return "SELECT VALUE " + Repeat("true ? 1 : ", n) + "2"; }},
      {"properties", [](size_t n) { return "SELECT VALUE c" + Repeat(".a", n) + " FROM c"; }},
      {"string indexers",
       [](size_t n) { return "SELECT VALUE c" + Repeat("[\"a\"]", n) + " FROM c"; }},
      {"FROM paths", [](size_t n) { return "SELECT VALUE 1 FROM c" + Repeat(".a", n) + " x"; }},
      {"additions", [](size_t n) { return "SELECT VALUE 1" + Repeat("+1", n); }},
      {"multiplications", [](size_t n) { return "SELECT VALUE 1" + Repeat("*1", n); }},
      {"comparisons", [](size_t n) { return "SELECT VALUE 1" + Repeat("=1", n); }},
      {"bitwise ors", [](size_t n) { return "SELECT VALUE 1" + Repeat("|1", n); }},
  };
  for (const Construct& construct : constructs) {
    for (size_t levels : {10'000u, 100'000u}) {
      const std::string query = construct.query(levels);
      const std::string message = ErrorMessage(query);
      if (query.size() > kMaxQueryCharacters) {
        // Longer than the service accepts: refused before it is parsed.
        EXPECT_EQ(message, "The SQL query text exceeded the maximum limit of 524288 characters.")
            << construct.name << " x" << levels;
        continue;
      }
      EXPECT_TRUE(message == kNestingMessage || IsDepthError(message))
          << construct.name << " x" << levels << ": " << message;
    }
  }
}

TEST(QueryLimitsTest, TreeDepthUpToTheLimitWorks) {
  EXPECT_EQ(RunDeep("SELECT VALUE " + Nest("ABS(", "-3", ")", 999)).text(), "[3]");
  EXPECT_EQ(RunDeep("SELECT VALUE 0" + Repeat("+1", 1000)).text(), "[1000]");
  EXPECT_TRUE(IsDepthError(ErrorMessage("SELECT VALUE 0" + Repeat("+1", 1001))));
  EXPECT_EQ(RunDeep("SELECT VALUE " + Nest("[", "1", "]", 1000)).status.ToString(), "OK");
  EXPECT_TRUE(IsDepthError(ErrorMessage("SELECT VALUE " + Nest("[", "1", "]", 1001))));
  const std::string deep_item = "[{\"id\":\"x\",\"a\":" + Nest("{\"a\":", "5", "}", 99) + "}]";
  EXPECT_EQ(RunDeep("SELECT VALUE c" + Repeat(".a", 100) + " FROM c", deep_item).text(), "[5]");
}

// The position of the error is where the limit was crossed, inside the text.
TEST(QueryLimitsTest, TheErrorPointsIntoTheQuery) {
  std::string summary;
  const std::string query = "SELECT VALUE " + Nest("(", "1", ")", 3000);
  OnRequestStack([&] { summary = ErrorSummary(query); });
  EXPECT_EQ(summary.substr(0, 7), "SC2000 ");
  const size_t start = std::stoul(summary.substr(7));
  EXPECT_EQ(start, std::string("SELECT VALUE ").size() + 2000);
}

// AND, OR, ?? and || are associative: long runs are balanced trees and evaluate at any
// length the text allows. The expected values are computed here, term by term.
TEST(QueryLimitsTest, LongAssociativeChainsEvaluate) {
  const size_t terms = 20'000;
  std::string and_chain = "c.n = 7";
  std::string or_chain = "c.n = 0";
  std::string coalesce_chain = "c.missing0";
  std::string concat_chain = "'s'";
  for (size_t i = 1; i < terms; ++i) {
    and_chain += " AND c.n >= " + std::to_string(i % 7);
    or_chain += " OR c.n = " + std::to_string(i);
    coalesce_chain += " ?? c.missing" + std::to_string(i);
    concat_chain += " || 's'";
  }
  coalesce_chain += " ?? c.n";
  const std::string items = R"([{"id":"a","n":7},{"id":"b","n":30000},{"id":"c","n":19999}])";
  EXPECT_EQ(RunDeep("SELECT VALUE c.id FROM c WHERE " + and_chain, items).text(), R"(["a"])");
  EXPECT_EQ(RunDeep("SELECT VALUE c.id FROM c WHERE " + or_chain, items).text(), R"(["a","c"])");
  EXPECT_EQ(RunDeep("SELECT VALUE " + coalesce_chain + " FROM c", items).text(), "[7,30000,19999]");
  const QueryRun concat = RunDeep("SELECT VALUE " + concat_chain);
  ASSERT_TRUE(concat.status.ok()) << concat.status.ToString();
  EXPECT_EQ(concat.values.front().as_string(), std::string(terms, 's'));
  // A false term anywhere decides AND; one true term decides OR.
  EXPECT_EQ(RunDeep("SELECT VALUE " + Repeat("true AND ", terms) + "false").text(), "[false]");
  EXPECT_EQ(RunDeep("SELECT VALUE " + Repeat("false OR ", terms) + "true").text(), "[true]");
  EXPECT_EQ(RunDeep("SELECT VALUE " + Repeat("undefined AND ", terms) + "false").text(), "[false]");
}

// Short runs stay left-deep, as written (the rewritten queries of the query plan
// keep their shape).
TEST(QueryLimitsTest, ShortRunsStayLeftDeep) {
  auto parsed = ParseExpression("a AND b AND c");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(ast::ToString(**parsed), "((a AND b) AND c)");
  auto long_run = ParseExpression("a" + Repeat(" AND a", 1000));
  ASSERT_TRUE(long_run.ok());
  EXPECT_LE((*long_run)->height, 11u);
}

// A tree at the depth limit, written back fully parenthesized, parses again: the query
// plan's rewritten queries come back as queries.
TEST(QueryLimitsTest, ToStringOfTheDeepestTreeParsesAgain) {
  for (const std::string& text :
       {"0" + Repeat("+1", 1000), Nest("-(", "1", ")", 999), Nest("[", "1", "]", 1000),
        Nest("(SELECT VALUE ", "1", ")", 999), Nest("c[", "0", "]", 999)}) {
    OnRequestStack([&] {
      auto parsed = ParseExpression(text);
      ASSERT_TRUE(parsed.ok()) << text.substr(0, 40) << ": " << parsed.status().ToString();
      const std::string printed = ast::ToString(**parsed);
      auto again = ParseExpression(printed);
      ASSERT_TRUE(again.ok()) << printed.substr(0, 40) << ": " << again.status().ToString();
      EXPECT_EQ(ast::ToString(**again), printed);
    });
  }
}

TEST(QueryLimitsTest, TenJoinsWorkAndMoreAreRefused) {
  const std::string item = R"([{"id":"a","t":[1]}])";
  std::string joins;
  for (int i = 0; i < 10; ++i) {
    joins += " JOIN t" + std::to_string(i) + " IN c.t";
  }
  EXPECT_EQ(RunDeep("SELECT VALUE c.id FROM c" + joins, item).text(), R"(["a"])");
  EXPECT_EQ(ErrorMessage("SELECT VALUE 1 FROM c" + Repeat(" JOIN t IN c.t", 10'000)),
            "The query exceeds the maximum of 10 JOINs.");
}

// The stack budget of README.md: the deepest query of each kind the limits admit runs
// within a quarter of a request thread's stack (in sanitizer builds too), so on the
// server the limits decide, never the stack guard.
TEST(QueryLimitsTest, TheDeepestQueriesFitInAQuarterOfARequestThreadsStack) {
  for (const DeepestQuery& deepest : DeepestQueries()) {
    QueryRun run;
    RunWithStack(kRequestThreadStackBytes / 4,
                 [&] { run = RunQuery(deepest.text, kDeepestQueryItems); });
    EXPECT_TRUE(run.status.ok()) << deepest.name << ": " << run.status.ToString();
    EXPECT_EQ(run.text(), deepest.expected) << deepest.name;
  }
}

// Below the limits, a thread with a small stack gets the stack guard's error, never a
// crash: the parser, binder and evaluator all check.
TEST(QueryLimitsTest, AThreadWithASmallStackGetsAnErrorNotACrash) {
  const std::string query = "SELECT VALUE " + Nest("ABS(", "1", ")", 999);
  Status status;
  RunWithStack(size_t{384} << 10, [&] { status = RunQuery(query).status; });
  EXPECT_EQ(status.code(), StatusCode::kBadRequest);
  EXPECT_NE(status.message().find(kStackExhaustedMessage), std::string::npos) << status.ToString();
}

}  // namespace
}  // namespace orrery::query
