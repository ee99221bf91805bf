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

// Long strings in range-index entries: their first kIndexedStringBytes bytes and a
// marker, placed among whole strings as the strings themselves sort.
std::string Indexed(const json::Value& value) {
  std::string key;
  AppendIndexedValue(key, value);
  return key;
}

std::string Whole(const json::Value& value) {
  std::string key;
  AppendValue(key, value);
  return key;
}

TEST(AppendIndexedValueTest, HoldsShortValuesWholeAndLongStringsBounded) {
  const std::string exact(kIndexedStringBytes, 'k');
  for (const json::Value& value : {json::Value::String(exact), json::Value::String("short"),
                                   json::Value::Int(7), json::Value::Bool(true), json::Value()}) {
    EXPECT_EQ(Indexed(value), Whole(value));
    EXPECT_FALSE(IsBoundedString(Indexed(value)));
    EXPECT_FALSE(BoundedGroupOf(Whole(value) + "0A1B\0item"));
  }
  const std::string long_text = exact + std::string(900, 'x');
  const std::string bounded = Indexed(json::Value::String(long_text));
  EXPECT_TRUE(IsBoundedString(bounded));
  // The tag, the bytes held and the 2-byte marker: what an entry of a 1 KB string holds.
  EXPECT_EQ(bounded.size(), 1 + kIndexedStringBytes + 2);
  EXPECT_EQ(bounded, Indexed(json::Value::String(exact + "y")));
  // A position (the whole encoding and an item key) names its group.
  EXPECT_EQ(BoundedGroupOf(Whole(json::Value::String(long_text)) + "0A1B" + '\0' + "item"),
            bounded);
  EXPECT_EQ(Whole(json::Value::String(long_text)).size(), long_text.size() + 3);
}

TEST(AppendIndexedValueTest, AGroupSortsWhereItsStringsDo) {
  const std::string held(kIndexedStringBytes, 'k');
  std::string before = held;
  before[100] = 'j';
  std::string after = held;
  after[100] = 'l';
  const std::string group = Indexed(json::Value::String(held + "zzz"));
  // Strings below every string of the group, down to the held bytes themselves.
  for (const std::string& below :
       {before + "zzzz", before, held, held.substr(0, 127), std::string("a")}) {
    EXPECT_LT(Indexed(json::Value::String(below)), group) << below.size();
  }
  // Strings above every string of the group.
  for (const std::string& above : {after, after + "a", std::string("l")}) {
    EXPECT_GT(Indexed(json::Value::String(above)), group);
  }
  // Entries of the group's strings are together in key order, whatever follows the held
  // bytes, and parse back to the group.
  const std::string prefix = PathPrefix(7, 3, std::vector<std::string>{"s"});
  std::string entry = prefix;
  AppendIndexedEntry(entry, json::Value::String(held + std::string(1, '\0') + "tail"), "0A1B",
                     "item-1");
  const std::optional<EntryView> view = ParseEntry(std::string_view(entry).substr(prefix.size()));
  ASSERT_TRUE(view);
  EXPECT_EQ(view->value, group);
  EXPECT_EQ(view->epk, "0A1B");
  EXPECT_EQ(view->id, "item-1");
}

TEST(AppendIndexedValueTest, ANulAmongTheHeldBytesStaysEscaped) {
  std::string text(kIndexedStringBytes + 20, 'q');
  text[5] = '\0';
  const std::string bounded = Indexed(json::Value::String(text));
  EXPECT_TRUE(IsBoundedString(bounded));
  EXPECT_EQ(bounded.size(), 1 + kIndexedStringBytes + 1 + 2);  // the NUL escaped as 2 bytes
  EXPECT_EQ(BoundedGroupOf(Whole(json::Value::String(text))), bounded);
  // Between the strings with one more NUL and with a greater byte after it, as the
  // strings sort.
  std::string smaller = text;
  smaller.insert(6, 1, '\0');
  std::string greater = text;
  greater[6] = 'r';
  EXPECT_GT(bounded, Indexed(json::Value::String(smaller)));
  EXPECT_LT(bounded, Indexed(json::Value::String(greater)));
}

}  // namespace
}  // namespace orrery::index
