#include "json/json.h"

#include <gtest/gtest.h>

#include <string>

namespace orrery::json {
namespace {

std::string RoundTrip(std::string_view text) {
  Result<Value> parsed = Parse(text);
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  return parsed.ok() ? Write(*parsed) : "";
}

TEST(JsonTest, RoundTripsKeepingMemberOrder) {
  EXPECT_EQ(RoundTrip(R"({"b":1,"a":[true,false,null],"c":{"x":"y"}})"),
            R"({"b":1,"a":[true,false,null],"c":{"x":"y"}})");
}

TEST(JsonTest, NumbersPrintLikeJavaScript) {
  EXPECT_EQ(RoundTrip("[1.0,0.5,-2,1e21,1e-7,123456789012,1.5e300,0.1,-0.0]"),
            "[1,0.5,-2,1e+21,1e-7,123456789012,1.5e+300,0.1,0]");
  EXPECT_EQ(RoundTrip("[100000000000000000000,0.000001]"), "[100000000000000000000,0.000001]");
  EXPECT_EQ(RoundTrip("9007199254740993"), "9007199254740993");
}

TEST(JsonTest, HugeUnsignedIntegersBecomeDoubles) {
  EXPECT_EQ(RoundTrip("18446744073709551615"), "18446744073709552000");
}

TEST(JsonTest, IntegersBeyond64BitsBecomeDoublesAndTheOthersStayIntegers) {
  Value v = *Parse(R"({"big":123456789012345678901234,"neg":-9223372036854775809,)"
                   R"("min":-9223372036854775808,"n":7})");
  EXPECT_FALSE(v.Find("big")->is_integer());
  EXPECT_DOUBLE_EQ(v.Find("big")->as_double(), 1.2345678901234568e23);
  EXPECT_FALSE(v.Find("neg")->is_integer());
  EXPECT_TRUE(v.Find("min")->is_integer());
  EXPECT_TRUE(v.Find("n")->is_integer());
  EXPECT_EQ(v.Find("n")->as_int(), 7);
}

TEST(JsonTest, StringsEscapeControlCharactersAndKeepUtf8) {
  EXPECT_EQ(RoundTrip(R"(["a\"b\\c\n\u0001","ü日本","\u00fc"])"),
            "[\"a\\\"b\\\\c\\n\\u0001\",\"ü日本\",\"ü\"]");
}

// JSON.stringify's escapes, one byte at a time: the reference for AppendQuoted, which
// skips plain text eight bytes at a time.
std::string ReferenceQuoted(std::string_view s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"') {
      out += "\\\"";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '\b') {
      out += "\\b";
    } else if (c == '\f') {
      out += "\\f";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20) {
      static constexpr char kHexDigits[] = "0123456789abcdef";
      out += "\\u00";
      out += kHexDigits[c >> 4];
      out += kHexDigits[c & 0xF];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

TEST(JsonTest, EscapesEverySpecialByteAtEveryPositionOfAWord) {
  // Each special byte, and bytes next to the tests' edges (0x1f, 0x20, 0x21, 0x23,
  // 0x5b, 0x5d, 0x7f, 0x80, 0xff), at every offset of strings up to 40 bytes long.
  const std::string specials = std::string("\"\\\b\f\n\r\t\x01\x1f", 9) + std::string(1, '\0');
  const std::string neighbours = "\x20\x21\x23\x5b\x5d\x7f\x80\xff";
  for (const std::string& set : {specials, neighbours}) {
    for (const char special : set) {
      for (size_t length = 1; length <= 40; ++length) {
        for (size_t at = 0; at < length; ++at) {
          std::string text(length, 'x');
          text[at] = special;
          std::string out;
          AppendQuoted(out, text);
          ASSERT_EQ(out, ReferenceQuoted(text))
              << "byte " << static_cast<int>(static_cast<unsigned char>(special)) << " at " << at
              << " of " << length;
        }
      }
    }
  }
  std::string mixed;
  for (int i = 0; i < 1000; ++i) mixed += static_cast<char>((i * 37) % 256);
  std::string out;
  AppendQuoted(out, mixed);
  EXPECT_EQ(out, ReferenceQuoted(mixed));
}

TEST(JsonTest, RejectsMalformedText) {
  for (std::string_view bad : {"{", "{\"a\":}", "[1,]", "nul", "{\"a\":1} x", ""}) {
    Result<Value> parsed = Parse(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().code(), StatusCode::kBadRequest);
    EXPECT_NE(parsed.status().message().find("payload is invalid"), std::string::npos);
  }
}

TEST(JsonTest, RejectsInvalidUtf8) { EXPECT_FALSE(Parse("\"\xff\xfe\"").ok()); }

TEST(JsonTest, EnforcesNestingDepth) {
  std::string ok_text(128, '[');
  ok_text += std::string(128, ']');
  EXPECT_TRUE(Parse(ok_text).ok());
  std::string deep(129, '[');
  deep += std::string(129, ']');
  Result<Value> parsed = Parse(deep);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("nesting"), std::string::npos);
  // The depth counts containers, whatever sits innermost: a scalar, an empty array or
  // an empty object, in arrays or in objects.
  const auto nested = [](int n, std::string_view open, std::string_view core,
                         std::string_view close) {
    std::string text;
    for (int i = 0; i < n; ++i) text += open;
    text += core;
    for (int i = 0; i < n; ++i) text += close;
    return text;
  };
  for (std::string_view core : {"1", "\"s\"", "null", "[]", "{}"}) {
    const int extra = core == "[]" || core == "{}" ? 1 : 0;
    EXPECT_TRUE(Parse(nested(128 - extra, "[", core, "]")).ok()) << core;
    EXPECT_FALSE(Parse(nested(129 - extra, "[", core, "]")).ok()) << core;
    EXPECT_TRUE(Parse(nested(128 - extra, "{\"k\":", core, "}")).ok()) << core;
    EXPECT_FALSE(Parse(nested(129 - extra, "{\"k\":", core, "}")).ok()) << core;
  }
  std::string very_deep(100000, '[');
  very_deep += std::string(100000, ']');
  EXPECT_FALSE(Parse(very_deep).ok());
}

TEST(ValueTest, SetFindRemove) {
  Value object = Value::MakeObject();
  object.Set("a", Value::Int(1));
  object.Set("b", Value::String("x"));
  object.Set("a", Value::Int(2));
  ASSERT_NE(object.Find("a"), nullptr);
  EXPECT_EQ(object.Find("a")->as_int(), 2);
  EXPECT_TRUE(object.Remove("a"));
  EXPECT_FALSE(object.Remove("a"));
  EXPECT_EQ(Write(object), R"({"b":"x"})");
}

TEST(ValueTest, EqualityIgnoresMemberOrderAndNumberForm) {
  EXPECT_EQ(*Parse(R"({"a":1,"b":[2.0]})"), *Parse(R"({"b":[2],"a":1.0})"));
  EXPECT_FALSE(*Parse(R"({"a":1})") == *Parse(R"({"a":"1"})"));
}

TEST(ValueTest, CopiesAreDeep) {
  Value a = *Parse(R"({"x":{"y":1}})");
  Value b = a;
  b.Find("x")->Set("y", Value::Int(2));
  EXPECT_EQ(Write(a), R"({"x":{"y":1}})");
  EXPECT_EQ(Write(b), R"({"x":{"y":2}})");
}

TEST(JsonTest, UndefinedMembersAreSkipped) {
  Value object = Value::MakeObject();
  object.Set("a", Value());
  object.Set("b", Value::Null());
  EXPECT_EQ(Write(object), R"({"b":null})");
}

}  // namespace
}  // namespace orrery::json
