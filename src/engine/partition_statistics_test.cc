// Partition statistics (partition_statistics.h): item and byte counts per physical
// partition from the logical partitions' sizes, kept and served again only when reading
// them was slow, with request units always current. Expected counts are the test's own.

#include "engine/partition_statistics.h"

#include <gtest/gtest.h>

#include <deque>

#include "engine/account.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

class PartitionStatisticsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    AccountOptions options;
    options.store.in_memory = true;
    options.initial_partitions = 2;
    account_ = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(
        account_->CreateContainer("db", J(R"({"id":"c","partitionKey":{"paths":["/pk"]}})"), {})
            .ok());
    container_ = *account_->GetContainer("db", "c");
  }
  void TearDown() override { SetStatisticsKeeping(DefaultStatisticsKeeping()); }

  void Write(int from, int to, const std::string& pk) {
    for (int i = from; i < to; ++i) {
      ItemWriteRequest r;
      r.kind = WriteKind::kCreate;
      r.partition_key = {partition::PartitionKeyComponent::String(pk)};
      bodies_.push_back(R"({"id":"i)" + std::to_string(i) + R"(","pk":")" + pk + R"("})");
      r.body = bodies_.back();
      ASSERT_TRUE(container_->WriteItem(r).ok());
    }
  }
  int64_t Items(size_t largest = 10) {
    Result<ContainerStatistics> s = StatisticsOf(*container_, largest);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? s->items : -1;
  }

  std::unique_ptr<Account> account_;
  std::shared_ptr<Container> container_;
  std::deque<std::string> bodies_;
};

TEST_F(PartitionStatisticsTest, QuickReadingsAreAlwaysFresh) {
  Write(0, 12, "a");
  EXPECT_EQ(Items(), 12);
  Write(12, 15, "b");
  EXPECT_EQ(Items(), 15);
  Result<ContainerStatistics> s = StatisticsOf(*container_, 10);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->logical_partitions, 2);
}

TEST_F(PartitionStatisticsTest, ASlowReadingIsServedAgainWithCurrentRequestUnits) {
  // Every reading counts as slow, and is kept a million times as long as it took.
  SetStatisticsKeeping({std::chrono::nanoseconds(0), 1'000'000});
  Write(0, 10, "a");
  EXPECT_EQ(Items(), 10);
  Write(10, 13, "b");
  EXPECT_EQ(Items(), 10) << "the kept reading";
  EXPECT_EQ(Items(0), 10) << "fewer largest partitions are cut from the kept reading";
  // Request units are not kept: a charge shows at once.
  container_->ChargeScope(container_->FullScope(), 42);
  Result<ContainerStatistics> s = StatisticsOf(*container_, 10);
  ASSERT_TRUE(s.ok());
  double charged = 0;
  for (const PhysicalPartitionStatistics& p : s->partitions) charged += p.request_charge;
  EXPECT_GT(charged, 0);
  // More largest partitions than are kept: read afresh.
  EXPECT_EQ(Items(11), 13);
}

TEST_F(PartitionStatisticsTest, AReadingIsNotKeptPastItsTime) {
  SetStatisticsKeeping({std::chrono::nanoseconds(0), 0});
  Write(0, 4, "a");
  EXPECT_EQ(Items(), 4);
  Write(4, 6, "a");
  EXPECT_EQ(Items(), 6);
}

}  // namespace
}  // namespace orrery::engine
