#include "query/lexer.h"

#include <gtest/gtest.h>

#include <string>

#include "query/query_test_util.h"

namespace orrery::query {
namespace {

// Renders the tokens as "kind(text)" separated by spaces, without the end token.
std::string Kinds(std::string_view text) {
  auto tokens = Lex(text);
  if (!tokens.ok()) {
    return "error: " + tokens.status().message();
  }
  std::string out;
  for (const Token& token : *tokens) {
    if (token.kind == TokenKind::kEnd) {
      break;
    }
    if (!out.empty()) {
      out += ' ';
    }
    out += TokenKindName(token.kind);
    if (token.kind == TokenKind::kIdentifier || token.kind == TokenKind::kNumber ||
        token.kind == TokenKind::kParameter) {
      out += "(" + std::string(token.text) + ")";
    } else if (token.kind == TokenKind::kString) {
      out += "(" + token.string_value + ")";
    }
  }
  return out;
}

Token Single(std::string_view text) {
  auto tokens = Lex(text);
  EXPECT_TRUE(tokens.ok()) << tokens.status().ToString();
  EXPECT_EQ(tokens->size(), 2u) << text;
  return tokens->front();
}

TEST(LexerTest, KeywordsAreCaseInsensitive) {
  EXPECT_EQ(Kinds("SELECT select SeLeCt"), "SELECT SELECT SELECT");
  EXPECT_EQ(Kinds("from Where order BY asc DESC"), "FROM WHERE ORDER BY ASC DESC");
  EXPECT_EQ(Kinds("value TOP distinct join in and or not between offset limit"),
            "VALUE TOP DISTINCT JOIN IN AND OR NOT BETWEEN OFFSET LIMIT");
}

TEST(LexerTest, LiteralKeywordsMustBeLowercase) {
  EXPECT_EQ(Kinds("true false null undefined udf"), "true false null undefined udf");
  EXPECT_EQ(Kinds("TRUE False NULL Undefined"),
            "identifier(TRUE) identifier(False) identifier(NULL) identifier(Undefined)");
}

TEST(LexerTest, AllFirstLastStayIdentifiers) {
  EXPECT_EQ(Kinds("ALL first Last"), "identifier(ALL) identifier(first) identifier(Last)");
}

TEST(LexerTest, IdentifiersAndParameters) {
  EXPECT_EQ(Kinds("c._ts c.Name2 @minPrice"),
            "identifier(c) . identifier(_ts) identifier(c) . identifier(Name2) "
            "parameter(@minPrice)");
  EXPECT_EQ(Single("@p_1").string_value, "@p_1");
}

TEST(LexerTest, IntegerAndDoubleNumbers) {
  Token t = Single("42");
  EXPECT_TRUE(t.is_integer);
  EXPECT_EQ(t.integer_value, 42);
  t = Single("1.5E-3");
  EXPECT_FALSE(t.is_integer);
  EXPECT_DOUBLE_EQ(t.number_value, 0.0015);
  t = Single(".5");
  EXPECT_FALSE(t.is_integer);
  EXPECT_DOUBLE_EQ(t.number_value, 0.5);
  t = Single("2e10");
  EXPECT_FALSE(t.is_integer);
  EXPECT_DOUBLE_EQ(t.number_value, 2e10);
  t = Single("9223372036854775807");
  EXPECT_TRUE(t.is_integer);
  EXPECT_EQ(t.integer_value, 9223372036854775807);
  // Past int64 the literal becomes a double.
  t = Single("18446744073709551615");
  EXPECT_FALSE(t.is_integer);
  EXPECT_DOUBLE_EQ(t.number_value, 18446744073709551615.0);
}

TEST(LexerTest, HexNumbers) {
  Token t = Single("0x1F");
  EXPECT_TRUE(t.is_integer);
  EXPECT_EQ(t.integer_value, 31);
  t = Single("0XfF");
  EXPECT_EQ(t.integer_value, 255);
}

TEST(LexerTest, MinusIsAnOperatorNotPartOfTheLiteral) {
  EXPECT_EQ(Kinds("c.a-1"), "identifier(c) . identifier(a) - number(1)");
  EXPECT_EQ(Kinds("-1.5"), "- number(1.5)");
}

TEST(LexerTest, StringsWithBothQuotesAndEscapes) {
  EXPECT_EQ(Kinds(R"('a\'b' "c\"d")"), R"(string(a'b) string(c"d))");
  EXPECT_EQ(Single(R"("\\ \/ \b\f\n\r\t")").string_value, "\\ / \b\f\n\r\t");
  EXPECT_EQ(Single(R"("\u00e9\u4E2D")").string_value, "\xC3\xA9\xE4\xB8\xAD");
  // A surrogate pair decodes to one code point.
  EXPECT_EQ(Single(R"("\uD83D\uDE00")").string_value, "\xF0\x9F\x98\x80");
  EXPECT_EQ(Single("'caf\xC3\xA9'").string_value, "caf\xC3\xA9");
}

TEST(LexerTest, OperatorsTakeTheLongestMatch) {
  EXPECT_EQ(Kinds(">>> >> >= > << <= <> < != = ?? ? || | & ^ ~"),
            ">>> >> >= > << <= != < != = ?? ? || | & ^ ~");
  EXPECT_EQ(Kinds("+-*/%,.:()[]{}"), "+ - * / % , . : ( ) [ ] { }");
}

TEST(LexerTest, LineCommentsAreSkipped) {
  EXPECT_EQ(Kinds("SELECT -- a comment\n 1 -- another"), "SELECT number(1)");
}

TEST(LexerTest, PositionsAreByteOffsets) {
  auto tokens = Lex("SELECT  c.id");
  ASSERT_TRUE(tokens.ok());
  const Token& c = (*tokens)[1];
  EXPECT_EQ(c.range.start, 8u);
  EXPECT_EQ(c.range.end, 9u);
  const Token& end = tokens->back();
  EXPECT_EQ(end.kind, TokenKind::kEnd);
  EXPECT_EQ(end.range.start, 12u);
}

TEST(LexerTest, StrayCharacterIsSyntaxError) {
  EXPECT_EQ(testing::ErrorSummary("SELECT # FROM c"),
            "SC1001 7-8: Syntax error, incorrect syntax near '#'.");
  EXPECT_EQ(testing::ErrorSummary("SELECT ! FROM c"),
            "SC1001 7-8: Syntax error, incorrect syntax near '!'.");
}

TEST(LexerTest, UnterminatedStringIsSyntaxError) {
  EXPECT_EQ(testing::ErrorSummary("SELECT 'abc"),
            "SC1001 7-11: Syntax error, incorrect syntax near ''abc'.");
}

TEST(LexerTest, BadEscapeIsSyntaxError) {
  EXPECT_EQ(testing::ErrorSummary(R"(SELECT "a\qb")"),
            R"(SC1001 9-11: Syntax error, incorrect syntax near '\q'.)");
  EXPECT_EQ(testing::ErrorSummary(R"(SELECT "\u12")"),
            R"(SC1001 8-13: Syntax error, incorrect syntax near '\u12"'.)");
}

TEST(LexerTest, UnescapedControlCharacterIsSyntaxError) {
  auto tokens = Lex("'a\tb'");
  ASSERT_FALSE(tokens.ok());
  EXPECT_NE(tokens.status().message().find("SC1001"), std::string::npos);
}

TEST(LexerTest, ParameterNeedsAName) {
  EXPECT_EQ(testing::ErrorSummary("SELECT @ FROM c"),
            "SC1001 7-8: Syntax error, incorrect syntax near '@'.");
}

}  // namespace
}  // namespace orrery::query
