#include "engine/partition/partition_key_path.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace orrery::partition {
namespace {

// The names joined by '|', or "error at <position>".
std::string Split(const std::string& path) {
  Result<std::vector<std::string>> names = ParsePartitionKeyPath(path);
  if (!names.ok()) {
    const std::string& m = names.status().message();
    const size_t at = m.find("position '");
    return "error at " + m.substr(at + 10, m.find('\'', at + 10) - at - 10);
  }
  std::string out;
  for (const std::string& n : *names) {
    out += (out.empty() ? "" : "|") + n;
  }
  return out;
}

TEST(PartitionKeyPathTest, SplitsNestedPaths) {
  EXPECT_EQ(Split("/pk"), "pk");
  EXPECT_EQ(Split("/address/zipCode"), "address|zipCode");
  EXPECT_EQ(Split("/_partitionKey"), "_partitionKey");
  EXPECT_EQ(Split("/tenant-id/$v"), "tenant-id|$v");
}

TEST(PartitionKeyPathTest, QuotedNamesKeepSpecialCharacters) {
  EXPECT_EQ(Split("/\"a b\""), "a b");
  EXPECT_EQ(Split("/'x.y'/z"), "x.y|z");
  EXPECT_EQ(Split("/\"a/b\""), "a/b");
  // As in the SDK, an escaped quote stays in the name with its backslash.
  EXPECT_EQ(Split("/\"a\\\"b\""), "a\\\"b");
}

TEST(PartitionKeyPathTest, TrimsUnquotedNamesLikeTheSdk) { EXPECT_EQ(Split("/ a /b"), "a|b"); }

TEST(PartitionKeyPathTest, ReportsTheServicesFailurePositions) {
  EXPECT_EQ(Split("pk"), "error at 0");
  EXPECT_EQ(Split("//Document/MyId"), "error at 1");
  EXPECT_EQ(Split("/asdwqr31 @#$#$WRadf"), "error at 10");
  EXPECT_EQ(Split("C:/Program Files/Git/temperatureStatus"), "error at 0");
}

TEST(PartitionKeyPathTest, RejectsTrailingSlashWildcardsAndIndexSyntax) {
  EXPECT_EQ(Split(""), "error at 0");
  EXPECT_EQ(Split("/"), "error at 0");
  EXPECT_EQ(Split("/a/"), "error at 2");
  EXPECT_EQ(Split("/a/*"), "error at 3");
  EXPECT_EQ(Split("/a/[]"), "error at 3");
  EXPECT_EQ(Split("/a/?"), "error at 3");
  EXPECT_EQ(Split("/\"unterminated"), "error at 1");
  EXPECT_EQ(Split("/\"a\"b"), "error at 4");
  EXPECT_EQ(Split("/\"\""), "error at 1");
}

}  // namespace
}  // namespace orrery::partition
