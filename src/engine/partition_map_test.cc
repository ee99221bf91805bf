#include "engine/partition_map.h"

#include <gtest/gtest.h>

namespace orrery::engine {
namespace {

TEST(PartitionMapTest, ASplitRetiresTheParentAndKeepsTheCover) {
  const PartitionMap map = PartitionMap::FromBoundaries({"", "20", "FF"});
  EXPECT_EQ(map.NextNumber(), 2u);
  const PartitionMap split = map.Split(1, "30", 2, 3);
  ASSERT_EQ(split.partitions().size(), 3u);
  EXPECT_EQ(split.partitions()[1].id, "2");
  EXPECT_EQ(split.partitions()[1].min_inclusive, "20");
  EXPECT_EQ(split.partitions()[1].max_exclusive, "30");
  EXPECT_EQ(split.partitions()[2].min_inclusive, "30");
  EXPECT_EQ(split.partitions()[2].max_exclusive, "FF");
  EXPECT_EQ(split.partitions()[2].parents, std::vector<std::string>{"1"});
  EXPECT_EQ(split.Owner("25").number, 2u);
  EXPECT_EQ(split.Owner("35").number, 3u);
  // The retired parent still resolves, and numbers are never reused.
  ASSERT_NE(split.FindById("1"), nullptr);
  EXPECT_EQ(split.FindById("1")->max_exclusive, "FF");
  EXPECT_EQ(split.NextNumber(), 4u);
  // Grandchildren list every ancestor.
  const PartitionMap again = split.Split(3, "40", 4, 5);
  EXPECT_EQ(again.FindById("5")->parents, (std::vector<std::string>{"1", "3"}));
  // The retired ones survive a round trip through the container record.
  std::optional<PartitionMap> read = PartitionMap::FromJson(again.ToJson());
  ASSERT_TRUE(read);
  EXPECT_EQ(read->partitions().size(), 4u);
  EXPECT_EQ(read->retired().size(), 2u);
  EXPECT_EQ(read->NextNumber(), 6u);
}

TEST(PartitionMapTest, OverlappingIdsAreThePartitionsARangeReaches) {
  const PartitionMap map = PartitionMap::FromBoundaries({"", "20", "40", "FF"});
  EXPECT_EQ(map.OverlappingIds(EpkRange{"", "FF"}), (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(map.OverlappingIds(EpkRange{"25", "30"}), std::vector<std::string>{"1"});
  // A range ending where a partition begins does not reach it.
  EXPECT_EQ(map.OverlappingIds(EpkRange{"10", "40"}), (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(map.CountOverlapping(EpkRange{"10", "40"}), 2);
}

}  // namespace
}  // namespace orrery::engine
