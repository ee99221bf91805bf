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

}  // namespace
}  // namespace orrery::index
