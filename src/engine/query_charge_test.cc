// The charges of real queries over a real container against ru-model.md a.2: the
// 2,000-item scan of row 16, TOP's early stop (row 17) and OFFSET's growing cost (row
// 18), each within 10% where the reference gives a figure.

#include <gtest/gtest.h>

#include <deque>

#include "engine/account.h"
#include "engine/query_work.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

class QueryChargeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    AccountOptions options;
    options.store.in_memory = true;
    options.background_ttl_purge = false;
    account_ = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(
        account_->CreateContainer("db", J(R"({"id":"c","partitionKey":{"paths":["/pk"]}})"), {})
            .ok());
    container_ = *account_->GetContainer("db", "c");
    // 2,000 items of about 563 bytes as stored (with their system properties).
    for (int i = 0; i < 2000; ++i) {
      bodies_.push_back(R"({"id":"item)" + std::to_string(i) + R"(","pk":"p)" +
                        std::to_string(i % 10) + R"(","n":)" + std::to_string(i) + R"(,"pad":")" +
                        std::string(314, 'x') + R"("})");
      ItemWriteRequest r;
      r.partition_key = {partition::PartitionKeyComponent::String("p" + std::to_string(i % 10))};
      r.body = bodies_.back();
      ASSERT_TRUE(container_->WriteItem(r).ok());
    }
  }

  FeedPage Run(std::string_view text, int max_items = 1000) {
    auto query = query::Compile(text, {});
    EXPECT_TRUE(query.ok());
    auto page = container_->Query(**query, container_->FullScope(), max_items, "");
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    return page.ok() ? std::move(*page) : FeedPage{};
  }

  std::unique_ptr<Account> account_;
  std::shared_ptr<Container> container_;
  std::deque<std::string> bodies_;
};

TEST_F(QueryChargeTest, AScanOfTwoThousandItemsCostsWhatTheServiceCharges) {
  // row 16: 2,000 items loaded (1,125,600 bytes), 604.42 RU.
  FeedPage page = Run("SELECT c.id FROM c WHERE CONTAINS(c.pad, 'nothing matches')");
  EXPECT_EQ(page.loaded_count, 2000u);
  EXPECT_NEAR(static_cast<double>(page.loaded_bytes), 1125600, 1125600 * 0.10);
  EXPECT_NEAR(FeedPageCharge(page, throughput::kQueryBaseCharge), 604.42, 60.4);
}

TEST_F(QueryChargeTest, TopStopsLoadingOnceItHasEnough) {
  // row 17: TOP 100 loads 101 items (one to know whether to go on).
  FeedPage page = Run("SELECT TOP 100 c.id FROM c WHERE c.pad != ''");
  EXPECT_EQ(page.documents.size(), 100u);
  EXPECT_NEAR(static_cast<double>(page.loaded_count), 101, 10.1);
}

TEST_F(QueryChargeTest, OffsetCostsGrowWithTheRowsSkipped) {
  // row 18: the skipped rows are still produced.
  const double near = FeedPageCharge(Run("SELECT c.id FROM c WHERE c.pad != '' OFFSET 0 LIMIT 10"),
                                     throughput::kQueryBaseCharge);
  const double far =
      FeedPageCharge(Run("SELECT c.id FROM c WHERE c.pad != '' OFFSET 1000 LIMIT 10"),
                     throughput::kQueryBaseCharge);
  EXPECT_GT(far, near * 5);
}

}  // namespace
}  // namespace orrery::engine
