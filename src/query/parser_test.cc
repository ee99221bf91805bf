#include "query/parser.h"

#include <gtest/gtest.h>

#include <string>

#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::ErrorSummary;

// The expression as the AST printer renders it (fully parenthesized).
std::string Expr(std::string_view text) {
  auto expr = ParseExpression(text);
  if (!expr.ok()) {
    return "error: " + expr.status().message();
  }
  return ast::ToString(**expr);
}

std::string Query(std::string_view text) {
  auto query = Parse(text);
  if (!query.ok()) {
    return "error: " + query.status().message();
  }
  return ast::ToString(**query);
}

TEST(ParserTest, MultiplicativeBindsTighterThanAdditive) {
  EXPECT_EQ(Expr("1 + 2 * 3 - 4 / 5 % 6"), "((1 + (2 * 3)) - ((4 / 5) % 6))");
}

TEST(ParserTest, BinaryOperatorsAreLeftAssociative) {
  EXPECT_EQ(Expr("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(Expr("a || b || c"), "((a || b) || c)");
}

TEST(ParserTest, PrecedenceLadderFromTheReference) {
  // shifts < additive; relational < shifts; equality < relational
  EXPECT_EQ(Expr("a << 1 + 2"), "(a << (1 + 2))");
  EXPECT_EQ(Expr("a < b >> 1"), "(a < (b >> 1))");
  EXPECT_EQ(Expr("a = b < c"), "(a = (b < c))");
  // & < equality, ^ < &, | < ^, || < |
  EXPECT_EQ(Expr("a & b = c"), "(a & (b = c))");
  EXPECT_EQ(Expr("a ^ b & c"), "(a ^ (b & c))");
  EXPECT_EQ(Expr("a | b ^ c"), "(a | (b ^ c))");
  EXPECT_EQ(Expr("a || b | c"), "(a || (b | c))");
}

TEST(ParserTest, LogicalOperatorsBindLooserThanComparisons) {
  EXPECT_EQ(Expr("a = 1 OR b = 2 AND c = 3"), "((a = 1) OR ((b = 2) AND (c = 3)))");
}

TEST(ParserTest, NotIsATightPrefixOperator) {
  // The SDK grammar puts NOT with unary minus: NOT a = b is (NOT a) = b.
  EXPECT_EQ(Expr("NOT a = b"), "((NOT a) = b)");
  EXPECT_EQ(Expr("NOT (a = b)"), "(NOT (a = b))");
  EXPECT_EQ(Expr("-a.b[0]"), "(-a.b[0])");
  EXPECT_EQ(Expr("~-+x"), "(~(-(+x)))");
}

TEST(ParserTest, CoalesceAndConditionalAreLoosest) {
  EXPECT_EQ(Expr("a OR b ?? c"), "((a OR b) ?? c)");
  EXPECT_EQ(Expr("a ?? b ? c : d"), "((a ?? b) ? c : d)");
  // The conditional associates to the right.
  EXPECT_EQ(Expr("a ? b : c ? d : e"), "(a ? b : (c ? d : e))");
}

TEST(ParserTest, InLikeBetween) {
  EXPECT_EQ(Expr("c.a IN (1, 'x', @p)"), R"((c.a IN (1, "x", @p)))");
  EXPECT_EQ(Expr("c.a NOT IN (1)"), "(c.a NOT IN (1))");
  EXPECT_EQ(Expr("c.n LIKE 'a%' ESCAPE '!'"), R"((c.n LIKE "a%" ESCAPE "!"))");
  EXPECT_EQ(Expr("c.n NOT LIKE 'a_'"), R"((c.n NOT LIKE "a_"))");
  // BETWEEN's AND is consumed by BETWEEN; the next AND is logical.
  EXPECT_EQ(Expr("c.a BETWEEN 1 AND 2 AND c.b"), "((c.a BETWEEN 1 AND 2) AND c.b)");
  EXPECT_EQ(Expr("c.a NOT BETWEEN 1 + 1 AND 5"), "(c.a NOT BETWEEN (1 + 1) AND 5)");
}

TEST(ParserTest, PropertyAndIndexAccess) {
  EXPECT_EQ(Expr(R"(c.a["my-prop"][0][c.i])"), R"(c.a["my-prop"][0][c.i])");
  EXPECT_EQ(Expr("c['value']"), R"(c["value"])");
}

TEST(ParserTest, ConstructorsAndCalls) {
  EXPECT_EQ(Expr("{a: 1, 'b c': [1, 2, []], \"d\": {}}"),
            R"({"a": 1, "b c": [1, 2, []], "d": {}})");
  EXPECT_EQ(Expr("upper(LEFT(c.a, 2))"), "upper(LEFT(c.a, 2))");
  EXPECT_EQ(Expr("udf.tax(c.price)"), "udf.tax(c.price)");
  EXPECT_EQ(Expr("PI()"), "PI()");
}

TEST(ParserTest, Literals) {
  EXPECT_EQ(Expr("[true, false, null, undefined, 1.5, 'x', 0x10]"),
            R"([true, false, null, undefined, 1.5, "x", 16])");
}

TEST(ParserTest, SelectForms) {
  EXPECT_EQ(Query("select * from c"), "SELECT * FROM c AS c");
  EXPECT_EQ(Query("SELECT VALUE c.id FROM c"), "SELECT VALUE c.id FROM c AS c");
  EXPECT_EQ(Query("SELECT DISTINCT TOP 5 c.id, c.n AS name, c.x y FROM c"),
            "SELECT DISTINCT TOP 5 c.id, c.n AS name, c.x AS y FROM c AS c");
  EXPECT_EQ(Query("SELECT TOP @n VALUE 1"), "SELECT TOP @n VALUE 1");
}

TEST(ParserTest, FromForms) {
  EXPECT_EQ(Query("SELECT * FROM root r"), "SELECT * FROM root AS r");
  EXPECT_EQ(Query("SELECT * FROM Families.children[0] AS ch"),
            "SELECT * FROM Families.children[0] AS ch");
  EXPECT_EQ(Query("SELECT * FROM c.children"), "SELECT * FROM c.children AS children");
  EXPECT_EQ(Query("SELECT t FROM t IN c.tags"), "SELECT t FROM t IN c.tags");
  EXPECT_EQ(Query("SELECT c.id, t FROM c JOIN t IN c.tags JOIN s IN t.sizes"),
            "SELECT c.id, t FROM c AS c JOIN t IN c.tags JOIN s IN t.sizes");
}

TEST(ParserTest, ClausesInOrder) {
  EXPECT_EQ(Query("SELECT c.a FROM c WHERE c.a > 1 ORDER BY c.a DESC, c.b OFFSET 1 LIMIT @l"),
            "SELECT c.a FROM c AS c WHERE (c.a > 1) ORDER BY c.a DESC, c.b ASC OFFSET 1 LIMIT @l");
  EXPECT_EQ(Query("SELECT c.city, COUNT(1) AS n FROM c GROUP BY c.city"),
            "SELECT c.city, COUNT(1) AS n FROM c AS c GROUP BY c.city");
}

TEST(ParserTest, Subqueries) {
  EXPECT_EQ(Query("SELECT VALUE EXISTS(SELECT VALUE t FROM t IN c.tags) FROM c"),
            "SELECT VALUE EXISTS(SELECT VALUE t FROM t IN c.tags) FROM c AS c");
  EXPECT_EQ(Query("SELECT (SELECT VALUE 1) AS one"), "SELECT (SELECT VALUE 1) AS one");
}

TEST(ParserTest, IterationOverASubquery) {
  EXPECT_EQ(Query("SELECT VALUE x FROM c JOIN x IN (SELECT VALUE i.p FROM i IN c.items)"),
            "SELECT VALUE x FROM c AS c JOIN x IN (SELECT VALUE i.p FROM i IN c.items)");
  EXPECT_EQ(Query("select value t from t in (select value c.tags from c) where t = 1"),
            "SELECT VALUE t FROM t IN (SELECT VALUE c.tags FROM c AS c) WHERE (t = 1)");
  // Beside the aliased form, which keeps its alias.
  EXPECT_EQ(Query("SELECT 1 FROM c JOIN (SELECT VALUE 1) one JOIN x IN (SELECT VALUE [one])"),
            "SELECT 1 FROM c AS c JOIN (SELECT VALUE 1) AS one JOIN x IN (SELECT VALUE [one])");
}

TEST(ParserTest, IterationOverASubqueryTakesNoAliasAndOnlyAQuery) {
  EXPECT_EQ(ErrorSummary("SELECT 1 FROM c JOIN x IN (SELECT VALUE c.a) AS y"),
            "SC1001 45-47: Syntax error, incorrect syntax near 'AS'.");
  EXPECT_EQ(ErrorSummary("SELECT 1 FROM c JOIN x IN (c.a)"),
            "SC1001 26-27: Syntax error, incorrect syntax near '('.");
  EXPECT_EQ(ErrorSummary("SELECT 1 FROM c JOIN x IN (SELECT VALUE c.a"),
            "SC1002 43-43: Syntax error, unexpected end-of-file.");
}

TEST(ParserTest, PrintedQueriesParseBackToTheSameText) {
  for (const char* text : {
           "SELECT DISTINCT VALUE {a: c.a ?? -1, b: [c.b, NOT c.c]} FROM c WHERE c.x IN (1, 2) "
           "AND c.y NOT BETWEEN 'a' AND 'z' ORDER BY c['my key'] DESC OFFSET 0 LIMIT 10",
           "SELECT t.name, COUNT(1) FROM c JOIN t IN c.tags WHERE (c.a || 'x') LIKE '%x' "
           "GROUP BY t.name",
           "SELECT VALUE [c.id, x] FROM c JOIN x IN (SELECT DISTINCT VALUE t.a FROM t IN c.tags "
           "JOIN u IN (SELECT VALUE t.b) ORDER BY t.a OFFSET 1 LIMIT 2) WHERE x > 0",
       }) {
    const std::string once = Query(text);
    EXPECT_EQ(Query(once), once) << text;
  }
}

TEST(ParserTest, ReservedWordAfterDotIsSyntaxError) {
  EXPECT_EQ(ErrorSummary("SELECT c.value FROM c"),
            "SC1001 9-14: Syntax error, incorrect syntax near 'value'.");
}

TEST(ParserTest, BlockCommentIsSyntaxError) {
  EXPECT_EQ(ErrorSummary("/* x */ SELECT * FROM c"),
            "SC1001 0-1: Syntax error, incorrect syntax near '/'.");
}

TEST(ParserTest, SelectValueStarIsSyntaxError) {
  EXPECT_EQ(ErrorSummary("SELECT VALUE * FROM c"),
            "SC1001 13-14: Syntax error, incorrect syntax near '*'.");
}

TEST(ParserTest, ReservedWordAsAliasIsSyntaxError) {
  // A query EF Core generated, with the error the service returned (dotnet/efcore#33858).
  EXPECT_EQ(ErrorSummary("SELECT c[\"CustomerID\"] AS Id, CONTAINS(c[\"CompanyName\"], "
                         "c[\"ContactName\"]) AS Value\nFROM root c"),
            "SC1001 78-83: Syntax error, incorrect syntax near 'Value'.");
}

TEST(ParserTest, EndOfInputIsSC1002) {
  EXPECT_EQ(ErrorSummary("SELECT * FROM c WHERE"),
            "SC1002 21-21: Syntax error, unexpected end-of-file.");
  EXPECT_EQ(ErrorSummary("SELECT (1 + 2"), "SC1002 13-13: Syntax error, unexpected end-of-file.");
}

TEST(ParserTest, OffsetRequiresLimit) {
  EXPECT_EQ(ErrorSummary("SELECT * FROM c OFFSET 1"),
            "SC1002 24-24: Syntax error, unexpected end-of-file.");
}

TEST(ParserTest, TopTakesAnIntegerOrParameter) {
  EXPECT_EQ(ErrorSummary("SELECT TOP -1 * FROM c"),
            "SC1001 11-12: Syntax error, incorrect syntax near '-'.");
  EXPECT_EQ(ErrorSummary("SELECT TOP 1.5 * FROM c"),
            "SC1001 11-14: Syntax error, incorrect syntax near '1.5'.");
}

TEST(ParserTest, ErrorOffsetsCountCharactersNotBytes) {
  // "é" is two bytes but one character; the service reports character offsets.
  EXPECT_EQ(ErrorSummary("SELECT '\xC3\xA9' #"),
            "SC1001 11-12: Syntax error, incorrect syntax near '#'.");
}

TEST(ParserTest, AtMostTenJoins) {
  std::string text = "SELECT VALUE 1 FROM c";
  for (int i = 0; i < 10; ++i) {
    text += " JOIN t" + std::to_string(i) + " IN c.a";
  }
  EXPECT_TRUE(Parse(text).ok());
  const auto eleventh = static_cast<int>(text.size()) + 1;
  text += " JOIN u IN c.a";
  EXPECT_EQ(ErrorSummary(text), "SC2000 " + std::to_string(eleventh) + "-" +
                                    std::to_string(eleventh + 4) +
                                    ": The query exceeds the maximum of 10 JOINs.");
}

TEST(ParserTest, InNeedsAParenthesizedList) {
  EXPECT_EQ(ErrorSummary("SELECT * FROM c WHERE c.a IN @list"),
            "SC1001 29-34: Syntax error, incorrect syntax near '@list'.");
}

}  // namespace
}  // namespace orrery::query
