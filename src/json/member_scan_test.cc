#include "json/member_scan.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace orrery::json {
namespace {

// What a full parse keeps of the wanted members, in text order.
Value Expected(std::string_view text, const std::vector<std::string>& wanted) {
  Value full = *Parse(text);
  Object kept;
  for (const Member& m : full.as_object()) {
    if (std::find(wanted.begin(), wanted.end(), m.first) != wanted.end()) kept.push_back(m);
  }
  return Value::MakeObject(std::move(kept));
}

void ExpectSameAsFullParse(std::string_view text, std::vector<std::string> wanted) {
  std::sort(wanted.begin(), wanted.end());
  std::optional<Value> scanned = ParseTopLevelMembers(text, wanted);
  ASSERT_TRUE(scanned.has_value()) << text;
  const Value expected = Expected(text, wanted);
  EXPECT_EQ(Write(*scanned), Write(expected)) << text;
  // Integer or not survives too (Write prints both alike).
  for (size_t i = 0; i < expected.as_object().size(); ++i) {
    const Value& a = scanned->as_object()[i].second;
    const Value& b = expected.as_object()[i].second;
    EXPECT_EQ(a.type(), b.type()) << text;
    if (a.is_number()) {
      EXPECT_EQ(a.is_integer(), b.is_integer()) << text;
    }
  }
}

TEST(MemberScanTest, KeepsOnlyTheWantedMembersAsAFullParseWould) {
  const std::string text =
      R"({"id":"a1","skip":{"deep":[1,{"x":"}"}],"s":"\"]"},"n":-12,"f":1.5e3,)"
      R"("big":123456789012345678901234,"z":-0,"t":true,"u":null,"arr":[1,"two",[3]],)"
      R"("esc":"line\nbreak \u00e9 \"q\"","o":{"k":"v"}})";
  ExpectSameAsFullParse(text, {"id"});
  ExpectSameAsFullParse(text, {"n", "f", "big", "z"});
  ExpectSameAsFullParse(text, {"t", "u", "arr", "esc", "o"});
  ExpectSameAsFullParse(text, {"absent"});
  ExpectSameAsFullParse(text, {"id", "skip", "n", "f", "big", "z", "t", "u", "arr", "esc", "o"});
}

TEST(MemberScanTest, WhitespaceAnywhere) {
  ExpectSameAsFullParse(" {\n \"a\" : 1 ,\t\"b\" : [ 1 , 2 ] , \"c\" : \"x\" \r\n} ", {"a", "c"});
  ExpectSameAsFullParse("{}", {"a"});
  ExpectSameAsFullParse(R"({"a":"ends with backslash\\","b":2})", {"b"});
  // Escaped quotes before and after the first 24 characters of a string.
  ExpectSameAsFullParse(R"({"a":"x\"y and then a long stretch \" of text \\\" more\"","b":[1]})",
                        {"a", "b"});
  ExpectSameAsFullParse(R"({"a":"a long stretch of text first, \"then\" quotes","b":3})", {"b"});
}

TEST(MemberScanTest, LeavesTheUnusualToTheFullParser) {
  EXPECT_FALSE(ParseTopLevelMembers("[1,2]", {"a"}).has_value());
  EXPECT_FALSE(ParseTopLevelMembers(R"({"a\u0062":1})", {"ab"}).has_value());
  EXPECT_FALSE(ParseTopLevelMembers(R"({"a":"unterminated)", {"a"}).has_value());
  EXPECT_FALSE(ParseTopLevelMembers(R"({"a":[1,2)", {"a"}).has_value());
  EXPECT_FALSE(ParseTopLevelMembers(R"({"a":1 "b":2})", {"b"}).has_value());
}

TEST(MemberScanTest, StopsOnceEveryWantedMemberWasSeen) {
  // What follows the last wanted member is not read, malformed or not; a duplicate
  // name later on would not be found by Value::Find anyway.
  std::optional<Value> v = ParseTopLevelMembers(R"({"a":1,"b":"x","a":2,"c":[1,)", {"a", "b"});
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(Write(*v), R"({"a":1,"b":"x"})");
}

TEST(MemberScanTest, ParseUsesItThroughOnlyMembers) {
  const std::vector<std::string> wanted{"b"};
  ParseOptions options;
  options.only_members = &wanted;
  Result<Value> parsed = Parse(R"({"a":{"x":[1,2,3]},"b":"kept"})", options);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(Write(*parsed), R"({"b":"kept"})");
  // Not an object: parsed whole.
  EXPECT_EQ(Write(*Parse("[1,2]", options)), "[1,2]");
}

}  // namespace
}  // namespace orrery::json
