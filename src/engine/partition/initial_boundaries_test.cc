#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/partition/partition_key.h"

namespace orrery::partition {
namespace {

const PartitionKeyDefinition kV2{.paths = {"/pk"}, .version = 2, .version_given = true};
const PartitionKeyDefinition kMultiHash{
    .paths = {"/t", "/u"}, .kind = PartitionKind::kMultiHash, .version = 2};

// Index of the range holding `epk` (minInclusive <= epk < maxExclusive).
size_t RangeOf(const std::vector<std::string>& boundaries, const std::string& epk) {
  const auto it = std::upper_bound(boundaries.begin(), boundaries.end(), epk);
  return static_cast<size_t>(it - boundaries.begin()) - 1;
}

TEST(InitialBoundariesTest, OneRangeCoversEverything) {
  EXPECT_EQ(InitialBoundaries(kV2, 1), (std::vector<std::string>{"", "FF"}));
  EXPECT_EQ(InitialBoundaries(kV2, 0), (std::vector<std::string>{"", "FF"}));
}

TEST(InitialBoundariesTest, SplitsTheV2SpaceEvenly) {
  EXPECT_EQ(InitialBoundaries(kV2, 2),
            (std::vector<std::string>{"", "20000000000000000000000000000000", "FF"}));
  EXPECT_EQ(InitialBoundaries(kV2, 4),
            (std::vector<std::string>{"", "10000000000000000000000000000000",
                                      "20000000000000000000000000000000",
                                      "30000000000000000000000000000000", "FF"}));
  EXPECT_EQ(InitialBoundaries(kV2, 3),
            (std::vector<std::string>{"", "15555555555555555555555555555555",
                                      "2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "FF"}));
}

TEST(InitialBoundariesTest, BoundariesAreStrictlyIncreasing) {
  for (const int n : {2, 3, 5, 7, 10, 16, 25, 100, 1000}) {
    const std::vector<std::string> b = InitialBoundaries(kMultiHash, n);
    ASSERT_EQ(b.size(), static_cast<size_t>(n) + 1);
    EXPECT_EQ(b.front(), "");
    EXPECT_EQ(b.back(), "FF");
    for (size_t i = 1; i < b.size(); ++i) {
      EXPECT_LT(b[i - 1], b[i]) << "n=" << n << " i=" << i;
      if (i + 1 < b.size()) {
        EXPECT_EQ(b[i].size(), 32u);
        EXPECT_LE(b[i][0], '3');
      }
    }
  }
}

TEST(InitialBoundariesTest, KeysSpreadEvenlyOverTheRanges) {
  constexpr int kRanges = 5;
  constexpr int kKeys = 20000;
  const std::vector<std::string> boundaries = InitialBoundaries(kV2, kRanges);
  std::vector<int> counts(kRanges, 0);
  for (int i = 0; i < kKeys; ++i) {
    const std::string epk =
        EffectivePartitionKey(kV2, {PartitionKeyComponent::String("key-" + std::to_string(i))});
    ++counts[RangeOf(boundaries, epk)];
  }
  for (const int count : counts) {
    EXPECT_GT(count, kKeys / kRanges * 9 / 10);
    EXPECT_LT(count, kKeys / kRanges * 11 / 10);
  }
}

TEST(InitialBoundariesTest, HierarchicalKeysSpreadByTheirFirstLevel) {
  constexpr int kRanges = 4;
  const std::vector<std::string> boundaries = InitialBoundaries(kMultiHash, kRanges);
  std::vector<int> counts(kRanges, 0);
  for (int i = 0; i < 4000; ++i) {
    const std::string epk =
        EffectivePartitionKey(kMultiHash, {PartitionKeyComponent::String("t" + std::to_string(i)),
                                           PartitionKeyComponent::String("u")});
    ++counts[RangeOf(boundaries, epk)];
  }
  for (const int count : counts) {
    EXPECT_GT(count, 800);
    EXPECT_LT(count, 1200);
  }
}

// The service's pkranges of a V1 container with two ranges (recorded responses quoted
// in public SDK tests): the boundary is the hash 0x7FFFFFFF encoded as a number.
TEST(InitialBoundariesTest, V1ContainersSplitTheHashSpaceAsTheServiceDoes) {
  const PartitionKeyDefinition v1{.paths = {"/pk"}};
  EXPECT_EQ(InitialBoundaries(v1, 1), (std::vector<std::string>{"", "FF"}));
  EXPECT_EQ(InitialBoundaries(v1, 2), (std::vector<std::string>{"", "05C1DFFFFFFFFC", "FF"}));
  for (const int n : {3, 4, 7, 34}) {
    const std::vector<std::string> b = InitialBoundaries(v1, n);
    ASSERT_EQ(b.size(), static_cast<size_t>(n) + 1);
    for (size_t i = 1; i < b.size(); ++i) EXPECT_LT(b[i - 1], b[i]) << "n=" << n << " i=" << i;
  }
}

// Keys land in every V1 range, in proportion.
TEST(InitialBoundariesTest, V1KeysSpreadOverTheRanges) {
  const PartitionKeyDefinition v1{.paths = {"/pk"}};
  const std::vector<std::string> b = InitialBoundaries(v1, 4);
  std::vector<int> counts(4, 0);
  for (int i = 0; i < 4000; ++i) {
    ++counts[RangeOf(
        b, EffectivePartitionKey(v1, {PartitionKeyComponent::String("key-" + std::to_string(i))}))];
  }
  for (const int count : counts) {
    EXPECT_GT(count, 800);
    EXPECT_LT(count, 1200);
  }
}

}  // namespace
}  // namespace orrery::partition
