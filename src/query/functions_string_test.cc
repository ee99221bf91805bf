// String built-ins (query-language.md §5.4): UTF-16 positions, ignoreCase flags and
// undefined for wrong types.

#include <gtest/gtest.h>

#include <string>

#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::Eval;

// "😀" is one code point, two UTF-16 code units.
constexpr const char* kEmoji = "'\\uD83D\\uDE00'";

std::string WithEmoji(const std::string& before, const std::string& after) {
  return before + kEmoji + after;
}

TEST(StringFunctionsTest, ConcatNeedsStrings) {
  EXPECT_EQ(Eval("CONCAT('a', 'b', 'c')"), R"(["abc"])");
  EXPECT_EQ(Eval("CONCAT('a', 1)"), "[]");
  EXPECT_EQ(Eval("CONCAT('a', null)"), "[]");
}

TEST(StringFunctionsTest, ContainsStartsEndsWithIgnoreCase) {
  EXPECT_EQ(Eval("[CONTAINS('abc', 'b'), CONTAINS('abc', 'B'), CONTAINS('abc', 'B', true)]"),
            "[[true,false,true]]");
  EXPECT_EQ(Eval("[STARTSWITH('abc', 'A'), STARTSWITH('abc', 'A', true)]"), "[[false,true]]");
  EXPECT_EQ(Eval("[ENDSWITH('abc', 'BC'), ENDSWITH('abc', 'BC', true)]"), "[[false,true]]");
  EXPECT_EQ(Eval("CONTAINS('abc', 'b', 'yes')"), "[]");
  EXPECT_EQ(Eval("CONTAINS('abc', 1)"), "[]");
  EXPECT_EQ(Eval("STARTSWITH(null, 'a')"), "[]");
}

TEST(StringFunctionsTest, ContainsAllAndAny) {
  EXPECT_EQ(Eval("CONTAINS_ALL_CS('abcdef', 'ab', 'ef')"), "[true]");
  EXPECT_EQ(Eval("CONTAINS_ALL_CS('abcdef', 'AB', 'ef')"), "[false]");
  EXPECT_EQ(Eval("CONTAINS_ALL_CI('abcdef', 'AB', 'EF')"), "[true]");
  EXPECT_EQ(Eval("CONTAINS_ANY_CS('abcdef', 'x', 'cd')"), "[true]");
  EXPECT_EQ(Eval("CONTAINS_ANY_CS('abcdef', 'x', 'CD')"), "[false]");
  EXPECT_EQ(Eval("CONTAINS_ANY_CI('abcdef', 'x', 'CD')"), "[true]");
  EXPECT_EQ(Eval("CONTAINS_ANY_CI('abcdef', 'x', 1)"), "[]");
}

TEST(StringFunctionsTest, StringEquals) {
  EXPECT_EQ(Eval("[STRINGEQUALS('abc', 'abc'), STRINGEQUALS('abc', 'ABC')]"), "[[true,false]]");
  EXPECT_EQ(Eval("STRINGEQUALS('abc', 'ABC', true)"), "[true]");
  EXPECT_EQ(Eval("STRINGEQUALS('1', 1)"), "[]");
}

TEST(StringFunctionsTest, IndexOfCountsUtf16) {
  EXPECT_EQ(Eval("[INDEX_OF('abc', 'b'), INDEX_OF('abc', 'x'), INDEX_OF('abc', '')]"),
            "[[1,-1,0]]");
  EXPECT_EQ(Eval("[INDEX_OF('abcabc', 'b', 2), INDEX_OF('abc', 'a', -5), INDEX_OF('abc', 'a', 9)]"),
            "[[4,0,-1]]");
  EXPECT_EQ(Eval(WithEmoji("INDEX_OF(", " || 'x', 'x')")), "[2]");
  EXPECT_EQ(Eval("INDEX_OF('abc', 1)"), "[]");
  EXPECT_EQ(Eval("INDEX_OF('abc', 'a', '1')"), "[]");
}

TEST(StringFunctionsTest, LastIndexOf) {
  EXPECT_EQ(Eval("[LASTINDEXOF('abcabc', 'b'), LASTINDEXOF('abc', 'x')]"), "[[4,-1]]");
  EXPECT_EQ(Eval("LASTINDEXOF('abcabc', 'b', 5)"), "[-1]");
  EXPECT_EQ(Eval("LASTINDEXOF(1, 'b')"), "[]");
}

TEST(StringFunctionsTest, LeftAndRight) {
  EXPECT_EQ(Eval("[LEFT('abc', 2), RIGHT('abc', 2), LEFT('abc', 10), RIGHT('abc', 10)]"),
            R"([["ab","bc","abc","abc"]])");
  EXPECT_EQ(Eval("[LEFT('abc', 0), LEFT('abc', -1), RIGHT('abc', 1.9)]"), R"([["","","c"]])");
  EXPECT_EQ(Eval(WithEmoji("LENGTH(LEFT(", " || 'x', 2))")), "[2]");
  EXPECT_EQ(Eval("LEFT('abc', '1')"), "[]");
  EXPECT_EQ(Eval("RIGHT(1, 1)"), "[]");
}

TEST(StringFunctionsTest, LengthCountsUtf16CodeUnits) {
  EXPECT_EQ(Eval("LENGTH('')"), "[0]");
  EXPECT_EQ(Eval("LENGTH('é')"), "[1]");
  EXPECT_EQ(Eval(WithEmoji("LENGTH(", ")")), "[2]");
  EXPECT_EQ(Eval("LENGTH(null)"), "[]");
  EXPECT_EQ(Eval("LENGTH(0)"), "[]");
  EXPECT_EQ(Eval("LENGTH([1])"), "[]");
}

TEST(StringFunctionsTest, LowerAndUpper) {
  EXPECT_EQ(Eval("[LOWER('AbC'), UPPER('AbC')]"), R"([["abc","ABC"]])");
  EXPECT_EQ(Eval("LOWER(1)"), "[]");
}

TEST(StringFunctionsTest, TrimWhiteSpaceOrListedCharacters) {
  EXPECT_EQ(Eval("[LTRIM('  a  '), RTRIM('  a  '), TRIM('  a  ')]"), R"([["a  ","  a","a"]])");
  EXPECT_EQ(Eval("TRIM('\\t\\n a \\r')"), R"(["a"])");
  EXPECT_EQ(Eval("TRIM('\\u00A0a\\u3000')"), R"(["a"])");
  EXPECT_EQ(Eval("[TRIM('xxaxx', 'x'), LTRIM('xyaxy', 'yx'), RTRIM('xyaxy', 'xy')]"),
            R"([["a","axy","xya"]])");
  EXPECT_EQ(Eval("TRIM('ééaé', 'é')"), R"(["a"])");
  EXPECT_EQ(Eval("TRIM('   ')"), R"([""])");
  EXPECT_EQ(Eval("TRIM(1)"), "[]");
  EXPECT_EQ(Eval("TRIM('a', 1)"), "[]");
}

TEST(StringFunctionsTest, ReplaceEveryOccurrence) {
  EXPECT_EQ(Eval("REPLACE('This is a Test', 'Test', 'desk')"), R"(["This is a desk"])");
  EXPECT_EQ(Eval("REPLACE('aaa', 'a', 'bb')"), R"(["bbbbbb"])");
  EXPECT_EQ(Eval("REPLACE('aaaa', 'aa', 'b')"), R"(["bb"])");
  EXPECT_EQ(Eval("REPLACE('abc', '', 'x')"), R"(["abc"])");
  EXPECT_EQ(Eval("REPLACE('abc', 'a', 1)"), "[]");
}

TEST(StringFunctionsTest, ReplicateLimits) {
  EXPECT_EQ(Eval("REPLICATE('a', 3)"), R"(["aaa"])");
  EXPECT_EQ(Eval("REPLICATE('ab', 2.7)"), R"(["abab"])");
  EXPECT_EQ(Eval("REPLICATE('a', 0)"), R"([""])");
  EXPECT_EQ(Eval("REPLICATE('a', -1)"), "[]");
  EXPECT_EQ(Eval("LENGTH(REPLICATE('a', 10000))"), "[10000]");
  EXPECT_EQ(Eval("REPLICATE('a', 10001)"), "[]");
  EXPECT_EQ(Eval("REPLICATE('ab', 5001)"), "[]");
  EXPECT_EQ(Eval("REPLICATE('', 100000)"), R"([""])");
  EXPECT_EQ(Eval("REPLICATE(1, 2)"), "[]");
}

TEST(StringFunctionsTest, ReverseKeepsSurrogatePairs) {
  EXPECT_EQ(Eval("REVERSE('abc')"), R"(["cba"])");
  EXPECT_EQ(Eval(WithEmoji("REVERSE('a' || ", ") = (" + std::string(kEmoji) + " || 'a')")),
            "[true]");
  EXPECT_EQ(Eval(WithEmoji("LENGTH(REVERSE(", "))")), "[2]");
  EXPECT_EQ(Eval("REVERSE(null)"), "[]");
}

TEST(StringFunctionsTest, SubstringCountsUtf16) {
  EXPECT_EQ(Eval("SUBSTRING('abc', 1, 1)"), R"(["b"])");
  EXPECT_EQ(Eval("SUBSTRING('abc', 0, -1)"), R"([""])");
  EXPECT_EQ(Eval("SUBSTRING('abc', -1, 2)"), R"(["ab"])");
  EXPECT_EQ(Eval(WithEmoji("SUBSTRING(", " || 'x', 2, 1)")), R"(["x"])");
  EXPECT_EQ(Eval("SUBSTRING('abc', null, 1)"), "[]");
}

TEST(StringFunctionsTest, StringToArrayAndObjectParseStrictJson) {
  EXPECT_EQ(Eval("StringToArray('[1, \"a\", true]')"), R"([[1,"a",true]])");
  EXPECT_EQ(Eval("StringToArray('  [] ')"), "[[]]");
  EXPECT_EQ(Eval("StringToArray(\"['a']\")"), "[]");  // single quotes are not JSON
  EXPECT_EQ(Eval("StringToArray('{}')"), "[]");
  EXPECT_EQ(Eval("StringToArray([1])"), "[]");
  EXPECT_EQ(Eval("StringToObject('{\"a\": [1, 2]}')"), R"([{"a":[1,2]}])");
  EXPECT_EQ(Eval("StringToObject(\"{'a': 1}\")"), "[]");
  EXPECT_EQ(Eval("StringToObject('{a: 1}')"), "[]");
  EXPECT_EQ(Eval("StringToObject('[1]')"), "[]");
}

TEST(StringFunctionsTest, StringToBooleanAndNullAreExact) {
  EXPECT_EQ(Eval("[StringToBoolean('true'), StringToBoolean('  false ')]"), "[[true,false]]");
  EXPECT_EQ(Eval("StringToBoolean('TRUE')"), "[]");
  EXPECT_EQ(Eval("StringToBoolean('1')"), "[]");
  EXPECT_EQ(Eval("StringToBoolean(true)"), "[]");
  EXPECT_EQ(Eval("StringToNull(' null ')"), "[null]");
  EXPECT_EQ(Eval("StringToNull('NULL')"), "[]");
  EXPECT_EQ(Eval("StringToNull(null)"), "[]");
}

TEST(StringFunctionsTest, StringToNumber) {
  EXPECT_EQ(Eval("StringToNumber('   60   ')"), "[60]");
  EXPECT_EQ(Eval("StringToNumber('-1.79769e+308')"), "[-1.79769e+308]");
  EXPECT_EQ(Eval("StringToNumber('1.5')"), "[1.5]");
  EXPECT_EQ(Eval("StringToNumber('0x10')"), "[]");
  EXPECT_EQ(Eval("StringToNumber('NaN')"), "[]");
  EXPECT_EQ(Eval("StringToNumber('abc')"), "[]");
  EXPECT_EQ(Eval("StringToNumber(null)"), "[]");
  EXPECT_EQ(Eval("StringToNumber(5)"), "[]");
}

TEST(StringFunctionsTest, ToStringWritesJavaScriptForms) {
  EXPECT_EQ(Eval("[ToString(0.1234), ToString(false), ToString([1,2,3]), ToString(null)]"),
            R"([["0.1234","false","[1,2,3]","null"]])");
  EXPECT_EQ(Eval("ToString({a: 'x'})"), R"(["{\"a\":\"x\"}"])");
  EXPECT_EQ(Eval("ToString(undefined)"), "[]");
}

TEST(StringFunctionsTest, RegexMatch) {
  EXPECT_EQ(Eval("REGEXMATCH('abcd', 'bc')"), "[true]");  // unanchored
  EXPECT_EQ(Eval("REGEXMATCH('abcd', '^bc')"), "[false]");
  EXPECT_EQ(Eval("REGEXMATCH('abcd', 'ABC')"), "[false]");
  EXPECT_EQ(Eval("REGEXMATCH('abcd', 'ABC', 'i')"), "[true]");
  EXPECT_EQ(Eval("REGEXMATCH('a\\nb', '^b', 'm')"), "[true]");
  EXPECT_EQ(Eval("REGEXMATCH('a\\nb', '^b')"), "[false]");
  EXPECT_EQ(Eval("REGEXMATCH('a\\nb', 'a.b')"), "[false]");
  EXPECT_EQ(Eval("REGEXMATCH('a\\nb', 'a.b', 's')"), "[true]");
  EXPECT_EQ(Eval("REGEXMATCH('a.b', 'a[.]b', 's')"), "[true]");
  EXPECT_EQ(Eval("REGEXMATCH('abc', 'a b c # letters', 'x')"), "[true]");
  EXPECT_EQ(Eval("REGEXMATCH('a b', 'a[ ]b', 'x')"), "[true]");
  EXPECT_EQ(Eval("REGEXMATCH('ABC', 'a b c', 'xi')"), "[true]");
  EXPECT_EQ(Eval("REGEXMATCH('abc', 'a', 'q')"), "[]");  // unknown modifier
  EXPECT_EQ(Eval("REGEXMATCH('abc', '(a')"), "[]");      // invalid pattern
  EXPECT_EQ(Eval("REGEXMATCH(1, 'a')"), "[]");
  EXPECT_EQ(Eval("REGEXMATCH('a', 'a', 1)"), "[]");
}

TEST(StringFunctionsTest, RegexMatchIsUnicodeAware) {
  EXPECT_EQ(Eval("REGEXMATCH('x\\uD83D\\uDE00y', '^x.y$')"), "[true]");
  EXPECT_EQ(Eval("REGEXMATCH('\u00C9t\u00E9', '^\u00E9', 'i')"), "[true]");
}

// Long subjects must neither exhaust the stack (as backtracking matchers that
// recurse per character do) nor run unbounded.
TEST(StringFunctionsTest, RegexMatchOnLongStringsEnds) {
  const std::string long_a(400'000, 'a');
  EXPECT_EQ(Eval("REGEXMATCH('" + long_a + "b', '^(a|b)*b$')"), "[true]");
  EXPECT_EQ(Eval("REGEXMATCH('" + long_a + "', '^.*c')"), "[false]");
  // Catastrophic backtracking stops at the match limit and yields undefined.
  EXPECT_EQ(Eval("REGEXMATCH('" + std::string(40, 'a') + "!', '^(a+)+$')"), "[]");
}

TEST(StringFunctionsTest, StringJoinAndSplit) {
  EXPECT_EQ(Eval("StringJoin(['a', 'b', 'c'], ', ')"), R"(["a, b, c"])");
  EXPECT_EQ(Eval("StringJoin([], ',')"), R"([""])");
  EXPECT_EQ(Eval("StringJoin(['a', 1], ',')"), "[]");
  EXPECT_EQ(Eval("StringJoin('a', ',')"), "[]");
  EXPECT_EQ(Eval("StringSplit('a,b,,c', ',')"), R"([["a","b","","c"]])");
  EXPECT_EQ(Eval("StringSplit('abc', '')"), R"([["abc"]])");
  EXPECT_EQ(Eval("StringSplit('a--b', '--')"), R"([["a","b"]])");
  EXPECT_EQ(Eval("StringSplit('a', 1)"), "[]");
}

}  // namespace
}  // namespace orrery::query
