// The change feed in latest-version mode reads two lists: a version written by a create
// through its creation-order entry (whose number is its LSN), later versions through
// change-feed entries. Each current version is read once, in LSN order, across pages,
// replaces, deletes and re-creates, and in stores written when creates had both entries.

#include "engine/change_feed.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/account.h"
#include "engine/partition/partition_key.h"
#include "engine/test_directory.h"
#include "json/json.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

class ChangeFeedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshTestDirectory("orrery-change-feed-test");
    options_.store.path = dir_;
    options_.background_ttl_purge = false;
    options_.background_splits = false;
    account_ = std::move(Account::Open(options_)).value();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(account_
                    ->CreateContainer(
                        "db", J(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2}})"), {})
                    .ok());
  }
  void TearDown() override {
    account_.reset();
    std::filesystem::remove_all(dir_);
  }
  std::shared_ptr<Container> C() { return *account_->GetContainer("db", "c"); }

  // Writes item `id` (partition key "p" + id) with `rev`; returns its LSN.
  uint64_t Write(const std::string& id, int rev, WriteKind kind = WriteKind::kUpsert) {
    ItemWriteRequest r;
    r.kind = kind;
    if (kind == WriteKind::kReplace) r.url_id = id;
    r.partition_key = {partition::PartitionKeyComponent::String("p" + id)};
    const std::string body =
        R"({"id":")" + id + R"(","pk":"p)" + id + R"(","rev":)" + std::to_string(rev) + "}";
    r.body = body;
    auto written = C()->WriteItem(r);
    EXPECT_TRUE(written.ok()) << written.status().ToString();
    return written.ok() ? written->lsn : 0;
  }
  void Delete(const std::string& id) {
    ASSERT_TRUE(
        C()->DeleteItem({partition::PartitionKeyComponent::String("p" + id)}, id, std::nullopt)
            .ok());
  }

  // "id:rev" of every change after `after`, read in pages of `page_size`.
  std::vector<std::string> Feed(uint64_t after = 0, int page_size = 100) {
    std::vector<std::string> out;
    for (int pages = 0; pages < 1000; ++pages) {
      auto page = C()->ReadChangeFeed(C()->FullScope(), after, std::nullopt, page_size);
      EXPECT_TRUE(page.ok()) << page.status().ToString();
      if (!page.ok() || page->documents.empty()) break;
      EXPECT_LE(page->documents.size(), static_cast<size_t>(page_size));
      uint64_t previous_lsn = after;
      for (const std::string& doc : page->documents) {
        const json::Value item = J(doc);
        const uint64_t lsn = static_cast<uint64_t>(item.Find("_lsn")->as_double());
        EXPECT_GT(lsn, previous_lsn) << "changes come in LSN order";
        previous_lsn = lsn;
        out.push_back(item.Find("id")->as_string() + ":" +
                      std::to_string(static_cast<int>(item.Find("rev")->as_double())));
      }
      after = page->last_lsn;
    }
    return out;
  }

  // The container's entries in the change-feed key space, after closing the account.
  size_t ChangeFeedEntriesAfterClose() {
    const uint32_t number = C()->settings().number;
    account_.reset();
    auto store = std::move(storage::Store::Open(options_.store)).value();
    size_t entries = 0;
    EXPECT_TRUE(store
                    ->Scan(ChangeFeedContainerBegin(number), ChangeFeedContainerEnd(number),
                           [&](std::string_view, std::string_view) {
                             ++entries;
                             return true;
                           })
                    .ok());
    store.reset();
    account_ = std::move(Account::Open(options_)).value();
    return entries;
  }

  std::string dir_;
  AccountOptions options_;
  std::unique_ptr<Account> account_;
};

TEST_F(ChangeFeedTest, CreatesAreReadThroughTheirCreationOrderEntries) {
  Write("a", 1, WriteKind::kCreate);
  Write("b", 1, WriteKind::kCreate);
  Write("c", 1);  // an upsert that creates
  EXPECT_EQ(Feed(), (std::vector<std::string>{"a:1", "b:1", "c:1"}));
  // A create writes no change-feed entry of its own: only replaces do.
  EXPECT_EQ(ChangeFeedEntriesAfterClose(), 0u);
  EXPECT_EQ(Feed(), (std::vector<std::string>{"a:1", "b:1", "c:1"}));
  Write("b", 2, WriteKind::kReplace);
  EXPECT_EQ(ChangeFeedEntriesAfterClose(), 1u);
}

TEST_F(ChangeFeedTest, AReplacedItemIsReadOnceAtItsLatestVersion) {
  Write("a", 1);
  Write("b", 1);
  const uint64_t c_created = Write("c", 1);
  Write("a", 2);
  Write("a", 3);
  EXPECT_EQ(Feed(), (std::vector<std::string>{"b:1", "c:1", "a:3"}));
  EXPECT_EQ(Feed(c_created), (std::vector<std::string>{"a:3"}));
  EXPECT_EQ(ChangeFeedEntriesAfterClose(), 1u);  // a's latest version only
}

TEST_F(ChangeFeedTest, PagesThroughBothListsInLsnOrder) {
  // Ten creates, then replaces of the odd ones: the expected order is computed here from
  // the writes, not asked of the feed.
  std::vector<std::string> expected;
  for (int i = 0; i < 10; ++i) Write("i" + std::to_string(i), 0);
  for (int i = 0; i < 10; i += 2) expected.push_back("i" + std::to_string(i) + ":0");
  for (int i = 1; i < 10; i += 2) {
    Write("i" + std::to_string(i), 1);
    expected.push_back("i" + std::to_string(i) + ":1");
  }
  for (const int page_size : {1, 2, 3, 4, 7, 100}) {
    EXPECT_EQ(Feed(0, page_size), expected) << "pages of " << page_size;
  }
}

TEST_F(ChangeFeedTest, DeletedItemsLeaveTheFeedAndRecreatedOnesComeBackAtTheirNewLsn) {
  Write("a", 1);
  Write("b", 1);
  Write("b", 2);
  Write("c", 1);
  Delete("a");
  Delete("b");
  EXPECT_EQ(Feed(), (std::vector<std::string>{"c:1"}));
  Write("a", 5, WriteKind::kCreate);
  EXPECT_EQ(Feed(), (std::vector<std::string>{"c:1", "a:5"}));
  EXPECT_EQ(ChangeFeedEntriesAfterClose(), 0u);
}

TEST_F(ChangeFeedTest, StoresWhoseCreatesHaveBothEntriesReadEachVersionOnce) {
  const uint64_t a = Write("a", 1);
  const uint64_t b = Write("b", 1);
  Write("c", 1);
  Write("c", 2);
  const ContainerSettings settings = C()->settings();
  {
    // As an earlier version wrote them: a change-feed entry for every create too.
    account_.reset();
    auto store = std::move(storage::Store::Open(options_.store)).value();
    storage::WriteBatch batch;
    for (const auto& [id, lsn] : {std::pair<std::string, uint64_t>{"a", a}, {"b", b}}) {
      const std::string epk = partition::EffectivePartitionKey(
          settings.partition_key, {partition::PartitionKeyComponent::String("p" + id)});
      batch.Put(ChangeFeedKey(settings.number, settings.partitions.Owner(epk).number, lsn),
                storage::keys::ItemSuffix(epk, id));
    }
    ASSERT_TRUE(store->WriteSynced(batch).ok());
    store.reset();
    account_ = std::move(Account::Open(options_)).value();
  }
  EXPECT_EQ(ChangeFeedEntriesAfterClose(), 3u);
  EXPECT_EQ(Feed(), (std::vector<std::string>{"a:1", "b:1", "c:2"}));
  EXPECT_EQ(Feed(0, 1), (std::vector<std::string>{"a:1", "b:1", "c:2"}));
  // Replacing such a version removes its old entry as before.
  Write("a", 2);
  EXPECT_EQ(Feed(), (std::vector<std::string>{"b:1", "c:2", "a:2"}));
  EXPECT_EQ(ChangeFeedEntriesAfterClose(), 3u);  // b's of before, c's and a's latest
}

}  // namespace
}  // namespace orrery::engine
