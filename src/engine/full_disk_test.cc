// The engine on a disk that fills up (a small tmpfs each test mounts; root only,
// skipped elsewhere): an index rebuild waits for room and finishes once there is some,
// and an account opened on a full disk serves reads and refuses writes.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "engine/account.h"
#include "json/json.h"
#include "storage/test_small_disk.h"

namespace orrery::engine {
namespace {

using std::chrono::steady_clock;

json::Value J(std::string_view text) { return *json::Parse(text); }

// Indexes nothing, then everything: the rebuild writes many entries per item.
constexpr const char* kIndexesNothing =
    R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2},"indexingPolicy":{
        "indexingMode":"consistent","includedPaths":[],"excludedPaths":[{"path":"/*"}]}})";
constexpr const char* kIndexesAll =
    R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2},"indexingPolicy":{
        "indexingMode":"consistent","includedPaths":[{"path":"/*"}],"excludedPaths":[]}})";

// An item of 50 string properties, each a term of the range index.
Status WriteItem(Container& container, int i) {
  const std::string pk = "p" + std::to_string(i % 7);
  std::string body = R"({"id":")" + std::to_string(i) + R"(","pk":")" + pk + R"(")";
  for (int p = 0; p < 50; ++p) {
    body += ",\"f" + std::to_string(p) + "\":\"v" + std::to_string(i * 50 + p) + "\"";
  }
  body += "}";
  ItemWriteRequest request;
  request.kind = WriteKind::kUpsert;
  request.partition_key = {partition::PartitionKeyComponent::String(pk)};
  request.body = body;
  return container.WriteItem(request).status();
}

class EngineFullDiskTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!disk_.mounted()) {
      GTEST_SKIP() << "mounting a tmpfs is not permitted here (" << disk_.why_not()
                   << "); run as root to test a full disk";
    }
    options_.store.path = disk_.path() + "/data";
    options_.background_ttl_purge = false;
    options_.background_splits = false;
  }
  void TearDown() override { account_.reset(); }

  void OpenAccount() {
    Result<std::unique_ptr<Account>> account = Account::Open(options_);
    ASSERT_TRUE(account.ok()) << account.status().ToString();
    account_ = std::move(account).value();
  }
  std::shared_ptr<Container> TheContainer() const { return *account_->GetContainer("db", "c"); }

  storage::testing::SmallDisk disk_{48};
  AccountOptions options_;
  std::unique_ptr<Account> account_;  // after disk_: closed before it is unmounted
};

TEST_F(EngineFullDiskTest, AnIndexRebuildWaitsForRoomAndFinishes) {
  OpenAccount();
  ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
  ASSERT_TRUE(account_->CreateContainer("db", J(kIndexesNothing), {}).ok());
  constexpr int kItems = 5000;
  for (int i = 0; i < kItems; ++i) ASSERT_TRUE(WriteItem(*TheContainer(), i).ok());
  // Small writes still fit (the write-ahead log has room set aside); the rebuild's
  // 250,000 index entries do not.
  disk_.PlaceBallast(1 << 20);
  ASSERT_TRUE(account_->ReplaceContainer("db", "c", J(kIndexesAll), std::nullopt).ok());

  bool found_full = false;
  for (auto deadline = steady_clock::now() + std::chrono::seconds(20);
       !found_full && steady_clock::now() < deadline;
       std::this_thread::sleep_for(std::chrono::milliseconds(20))) {
    Status written = WriteItem(*TheContainer(), 0);
    found_full = written.code() == StatusCode::kInsufficientStorage;
    ASSERT_TRUE(written.ok() || found_full) << written.ToString();
  }
  ASSERT_TRUE(found_full) << "the rebuild never filled the disk";
  EXPECT_FALSE(TheContainer()->write_state()->index_ready);
  // Waiting, not failing or spinning: still not ready a while later.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  EXPECT_FALSE(TheContainer()->write_state()->index_ready);
  EXPECT_LT(TheContainer()->IndexTransformationProgress(), 100);

  ASSERT_TRUE(disk_.RemoveBallast());
  const auto deadline = steady_clock::now() + std::chrono::seconds(30);
  while (!(TheContainer()->write_state()->index_ready &&
           TheContainer()->IndexTransformationProgress() == 100) &&
         steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(TheContainer()->write_state()->index_ready) << "the rebuild did not finish";
  // The index is complete: a query served by it finds the one item with the value.
  auto query = query::Compile(R"(SELECT VALUE c.id FROM c WHERE c.f7 = "v249857")", {});
  ASSERT_TRUE(query.ok());
  auto page = TheContainer()->Query(**query, TheContainer()->FullScope(), 100, "");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  ASSERT_EQ(page->documents.size(), 1u);
  EXPECT_EQ(page->documents[0], R"("4997")");
  EXPECT_GT(page->index_entries, 0u);
  EXPECT_EQ(page->loaded_count, 1u);
}

TEST_F(EngineFullDiskTest, AnAccountOpenedOnAFullDiskServesReadsAndRefusesWrites) {
  OpenAccount();
  ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
  ASSERT_TRUE(account_->CreateContainer("db", J(kIndexesAll), {}).ok());
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(WriteItem(*TheContainer(), i).ok());
  account_.reset();
  disk_.PlaceBallast(0);

  OpenAccount();
  auto read =
      TheContainer()->ReadItem({partition::PartitionKeyComponent::String("p3")}, "3", std::nullopt);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_NE(read->item.json.find(R"("f0":"v150")"), std::string::npos);
  Status written = WriteItem(*TheContainer(), 100);
  EXPECT_EQ(written.code(), StatusCode::kInsufficientStorage) << written.ToString();
  EXPECT_EQ(account_->CreateDatabase(J(R"({"id":"db2"})"), {}).status().code(),
            StatusCode::kInsufficientStorage);
  EXPECT_EQ(account_->DeleteContainer("db", "c").code(), StatusCode::kInsufficientStorage);
  EXPECT_TRUE(TheContainer()->write_state()->index_ready);

  account_.reset();
  ASSERT_TRUE(disk_.RemoveBallast());
  OpenAccount();
  EXPECT_TRUE(WriteItem(*TheContainer(), 100).ok());
  EXPECT_TRUE(TheContainer()
                  ->ReadItem({partition::PartitionKeyComponent::String("p3")}, "3", std::nullopt)
                  .ok());
}

}  // namespace
}  // namespace orrery::engine
