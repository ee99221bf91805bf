// Partition-key delete: the items of one logical partition that exist when it is asked
// are gone at once for reads, queries, writes and the change feed, the rest of the
// container is untouched, new items of that key are not in scope, and the background
// purge removes them, carrying on after a restart.

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>

#include "engine/account.h"
#include "json/json.h"
#include "storage/test_data_directory.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

partition::PartitionKeyValue Key(const std::string& value) {
  return {partition::PartitionKeyComponent::String(value)};
}

class PartitionDeleteTest : public storage::DataDirectoryTest {
 protected:
  void SetUp() override {
    DataDirectoryTest::SetUp();
    Open(/*create=*/true);
  }
  void TearDown() override {
    container_.reset();
    account_.reset();
    DataDirectoryTest::TearDown();
  }

  void Open(bool create) {
    AccountOptions options;
    options.store.in_memory = false;
    options.store.path = dir_;
    options.background_splits = false;
    options.background_ttl_purge = false;  // the tests purge by hand
    account_.reset();
    account_ = std::move(Account::Open(options)).value();
    if (create) {
      ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
      ASSERT_TRUE(account_
                      ->CreateContainer("db", J(R"({"id":"c","partitionKey":{"paths":["/pk"],
                          "version":2},"uniqueKeyPolicy":{"uniqueKeys":[{"paths":["/email"]}]}})"),
                                        {})
                      .ok());
    }
    container_ = *account_->GetContainer("db", "c");
  }

  Status Create(const std::string& pk, const std::string& id, const std::string& email) {
    bodies_.push_back(R"({"id":")" + id + R"(","pk":")" + pk + R"(","email":")" + email + R"("})");
    ItemWriteRequest r;
    r.kind = WriteKind::kCreate;
    r.partition_key = Key(pk);
    r.body = bodies_.back();
    return container_->WriteItem(r).status();
  }

  bool Readable(const std::string& pk, const std::string& id) {
    return container_->ReadItem(Key(pk), id, std::nullopt).ok();
  }

  std::vector<std::string> QueryIds(const std::string& text) {
    auto query = query::Compile(text, {});
    auto page = container_->Query(**query, container_->FullScope(), 100, "");
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    std::vector<std::string> ids;
    if (page.ok()) {
      for (const std::string& doc : page->documents) ids.push_back(J(doc).as_string());
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  }

  // What the items' feed (GET docs) lists.
  size_t ListedItems() {
    auto page = container_->ReadFeed(container_->FullScope(), 1000, "");
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    return page.ok() ? page->documents.size() : 0;
  }

  std::unique_ptr<Account> account_;
  std::shared_ptr<Container> container_;
  std::deque<std::string> bodies_;
};

TEST_F(PartitionDeleteTest, ItemsOfTheKeyAreGoneAtOnceAndPurgedLater) {
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(Create("a", "a" + std::to_string(i), "a" + std::to_string(i) + "@x").ok());
    ASSERT_TRUE(Create("b", "b" + std::to_string(i), "b" + std::to_string(i) + "@x").ok());
  }
  ASSERT_TRUE(container_->DeleteLogicalPartition(Key("a")).ok());
  EXPECT_TRUE(container_->partition_deletes_running());
  // Gone for reads, queries (scans and index lookups alike) and feeds ...
  EXPECT_FALSE(Readable("a", "a0"));
  EXPECT_TRUE(Readable("b", "b0"));
  EXPECT_EQ(QueryIds("SELECT VALUE c.id FROM c"),
            (std::vector<std::string>{"b0", "b1", "b2", "b3", "b4"}));
  EXPECT_EQ(QueryIds("SELECT VALUE c.id FROM c WHERE c.email = 'a1@x'"),
            std::vector<std::string>{});
  EXPECT_EQ(ListedItems(), 5u);
  // ... and for writes: the id and the unique value are free again, and a new item of
  // the key is not in the delete's scope.
  EXPECT_TRUE(Create("a", "a0", "a0@x").ok());
  EXPECT_TRUE(Readable("a", "a0"));
  EXPECT_EQ(container_->DeleteItem(Key("a"), "a1", std::nullopt).status().code(),
            StatusCode::kNotFound);

  Result<Container::PurgeCount> purged = container_->PurgeDeletedPartitions(1000);
  ASSERT_TRUE(purged.ok()) << purged.status().ToString();
  EXPECT_EQ(purged->purged, 4u);  // a1..a4; a0 was written again
  // A round that finds nothing left drops the mark.
  ASSERT_TRUE(container_->PurgeDeletedPartitions(1000).ok());
  EXPECT_FALSE(container_->partition_deletes_running());
  EXPECT_TRUE(Readable("a", "a0"));
  EXPECT_EQ(ListedItems(), 6u);
  EXPECT_EQ(QueryIds("SELECT VALUE c.id FROM c WHERE c.pk = 'a'"), std::vector<std::string>{"a0"});
}

TEST_F(PartitionDeleteTest, ADeleteCarriesOnAfterARestart) {
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(Create("a", "a" + std::to_string(i), "a" + std::to_string(i) + "@x").ok());
  }
  ASSERT_TRUE(Create("b", "b0", "b0@x").ok());
  ASSERT_TRUE(container_->DeleteLogicalPartition(Key("a")).ok());
  container_.reset();
  Open(/*create=*/false);
  EXPECT_TRUE(container_->partition_deletes_running());
  EXPECT_FALSE(Readable("a", "a2"));
  EXPECT_EQ(ListedItems(), 1u);
  ASSERT_TRUE(container_->PurgeDeletedPartitions(1000).ok());
  ASSERT_TRUE(container_->PurgeDeletedPartitions(1000).ok());
  EXPECT_FALSE(container_->partition_deletes_running());
  container_.reset();
  Open(/*create=*/false);
  EXPECT_FALSE(container_->partition_deletes_running());
  EXPECT_TRUE(Readable("b", "b0"));
  EXPECT_EQ(ListedItems(), 1u);
}

TEST_F(PartitionDeleteTest, AKeyWithoutItemsIsAcceptedAndLeavesNothingBehind) {
  ASSERT_TRUE(Create("b", "b0", "b0@x").ok());
  ASSERT_TRUE(container_->DeleteLogicalPartition(Key("nobody")).ok());
  ASSERT_TRUE(container_->PurgeDeletedPartitions(1000).ok());
  EXPECT_FALSE(container_->partition_deletes_running());
  EXPECT_TRUE(Readable("b", "b0"));
}

}  // namespace
}  // namespace orrery::engine
