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

  void Write(std::string body) {
    ItemWriteRequest r;
    r.partition_key = {partition::PartitionKeyComponent::String("p1")};
    bodies_.push_back(std::move(body));
    r.body = bodies_.back();
    ASSERT_TRUE(container_->WriteItem(r).ok());
  }

  static std::vector<std::string> Ids(const FeedPage& page) {
    std::vector<std::string> ids;
    for (const std::string& doc : page.documents) ids.push_back(J(doc).Find("id")->as_string());
    return ids;
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

TEST_F(QueryChargeTest, BothBoundsOfARangeNarrowTheLookup) {
  FeedPage page = Run("SELECT c.id FROM c WHERE c.n >= 100 AND c.n < 110");
  EXPECT_EQ(page.documents.size(), 10u);
  EXPECT_EQ(page.loaded_count, 10u);
}

TEST_F(QueryChargeTest, OrderByWithARangeOnItsPathReadsOnlyTheRowsItNeeds) {
  // Neither can match c.n >= 1500, nor c.n < 100: one has no n, the other a string.
  Write(R"({"id":"no-n","pk":"p1"})");
  Write(R"({"id":"text-n","pk":"p1","n":"1600"})");
  FeedPage ascending = Run("SELECT TOP 3 c.id FROM c WHERE c.n >= 1500 ORDER BY c.n");
  EXPECT_EQ(Ids(ascending), (std::vector<std::string>{"item1500", "item1501", "item1502"}));
  EXPECT_LE(ascending.loaded_count, 4u);
  FeedPage descending = Run("SELECT TOP 2 c.id FROM c WHERE c.n < 100 ORDER BY c.n DESC");
  EXPECT_EQ(Ids(descending), (std::vector<std::string>{"item99", "item98"}));
  EXPECT_LE(descending.loaded_count, 3u);
  // Without a bound, ascending order starts with the item that has no n, which only a
  // read of every item finds under the default policy.
  FeedPage unbounded = Run("SELECT TOP 2 c.id FROM c ORDER BY c.n");
  EXPECT_EQ(Ids(unbounded), (std::vector<std::string>{"no-n", "item0"}));
}

}  // namespace
}  // namespace orrery::engine
