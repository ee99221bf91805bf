#include "index/index_key.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "index/composite_key.h"

namespace orrery::index {
namespace {

std::string Entry(const std::vector<std::string>& path, const json::Value& value) {
  return EntryKey(PathPrefix(7, 3, path), value, "0A1B", "item-1");
}

TEST(PathPrefixLengthTest, FindsThePathPrefixOfRangeEntries) {
  for (const std::vector<std::string>& path : std::vector<std::vector<std::string>>{
           {"n"},
           {"address", "city"},
           {std::string("nul\0in name", 11)},  // escaped as 0x00 0xFF
           {std::string("one\x01two", 7), "x"},
           {""},
       }) {
    const std::string prefix = PathPrefix(7, 3, path);
    for (const json::Value& value : {json::Value::Int(5), json::Value::String("a\x01\x02"),
                                     json::Value(), json::Value::Bool(true)}) {
      EXPECT_EQ(PathPrefixLength(Entry(path, value)), prefix.size()) << prefix;
      EXPECT_EQ(PathPrefixLength(Entry(path, value), /*names_only=*/true), prefix.size());
    }
  }
}

TEST(AppendValueTest, StringsEscapeEachNulAndEndWithTheTerminator) {
  const auto encoded = [](std::string_view text) {
    std::string key;
    AppendValue(key, json::Value::String(std::string(text)));
    return key;
  };
  EXPECT_EQ(encoded("ab"), std::string("\x40"
                                       "ab"
                                       "\x00\x01",
                                       5));
  EXPECT_EQ(encoded(std::string_view("a\0b", 3)), std::string("\x40"
                                                              "a\x00\xFF"
                                                              "b\x00\x01",
                                                              7));
  EXPECT_EQ(encoded(std::string_view("\0\0", 2)), std::string("\x40\x00\xFF\x00\xFF\x00\x01", 7));
  EXPECT_EQ(encoded(""), std::string("\x40\x00\x01", 3));
  // Byte order of the encodings is the ordinal order of the strings, NULs included.
  const std::vector<std::string> ordered = {"",
                                            std::string("\0", 1),
                                            std::string("\0a", 2),
                                            "a",
                                            std::string("a\0", 2),
                                            std::string("a\0\0", 3),
                                            std::string("a\x01", 2),
                                            "ab",
                                            "b"};
  for (size_t i = 1; i < ordered.size(); ++i) {
    EXPECT_LT(encoded(ordered[i - 1]), encoded(ordered[i])) << i;
  }
}

TEST(PathPrefixLengthTest, ArrayStepsOnlyWhenAsked) {
  const std::vector<std::string> path = {"tags", "[]"};
  const std::string key = Entry(path, json::Value::String("red"));
  EXPECT_EQ(PathPrefixLength(key), PathPrefix(7, 3, path).size());
  EXPECT_FALSE(PathPrefixLength(key, /*names_only=*/true));
}

TEST(PathPrefixLengthTest, OtherKeysHaveNone) {
  EXPECT_FALSE(PathPrefixLength(CompositePrefix(7, 3, 0) + "rest"));
  EXPECT_FALSE(PathPrefixLength(std::string("\x11\0\0\0\x07\0\0\0\x03\x05", 10) + "vector"));
  EXPECT_FALSE(PathPrefixLength("\x10item"));
  EXPECT_FALSE(PathPrefixLength(std::string("\x11\0\0\0\x07\0\0\0\x03\x02unterminated", 21)));
  EXPECT_FALSE(PathPrefixLength(""));
}

TEST(DecodeNumberTest, ReadsBackEveryEncodedNumber) {
  for (double d : {0.0, 1.0, -1.0, 42.0, 1e300, -1e-300, 0.5, -123456.75}) {
    std::string key;
    AppendValue(key, json::Value::Double(d));
    EXPECT_EQ(DecodeNumber(key), d);
  }
  std::string text;
  AppendValue(text, json::Value::String("a"));
  EXPECT_FALSE(DecodeNumber(text).has_value());
  EXPECT_FALSE(DecodeNumber("").has_value());
}

}  // namespace
}  // namespace orrery::index
