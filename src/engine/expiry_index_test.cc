// The expiry index (expiry_index.h) that the TTL purge reads: kept by every write kind
// while TTL is on and by none while it is off, indifferent to defaultTtl values, listed
// when TTL is turned on (also under concurrent writes) and for data of before it, kept
// through splits and container deletes, and read by the purge only as far as entries
// are due.

#include "engine/expiry_index.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <deque>
#include <filesystem>
#include <thread>

#include "engine/account.h"
#include "json/json.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

using std::chrono::seconds;

json::Value J(std::string_view text) { return *json::Parse(text); }

TEST(ExpiryKeysTest, AnItemFilesUnderItsOwnTtlOrItsWriteTime) {
  auto own = ExpiryEntryOf(R"({"id":"a","ttl":30,"_ts":1000})");
  ASSERT_TRUE(own);
  EXPECT_TRUE(own->own_ttl);
  EXPECT_EQ(own->time, 1030);
  auto by_default = ExpiryEntryOf(R"({"id":"a","_ts":1000.0})");
  ASSERT_TRUE(by_default);
  EXPECT_FALSE(by_default->own_ttl);
  EXPECT_EQ(by_default->time, 1000);
  // A non-integer ttl is no ttl (the container's default applies), as in ExpiresAt.
  EXPECT_FALSE(ExpiryEntryOf(R"({"ttl":"5","_ts":1000})")->own_ttl);
  EXPECT_FALSE(ExpiryEntryOf(R"({"id":"a","ttl":-1,"_ts":1000})"));
  EXPECT_FALSE(ExpiryEntryOf(R"({"id":"a","ttl":0,"_ts":1000})"));
  EXPECT_FALSE(ExpiryEntryOf(R"({"id":"a"})"));

  const std::string key = ExpiryKey(7, {true, 1030}, "0A1B", "my id");
  std::string_view epk, id;
  ASSERT_TRUE(ParseExpiryKey(key, epk, id));
  EXPECT_EQ(epk, "0A1B");
  EXPECT_EQ(id, "my id");
  // Due at 1030 and after, not before; lists and containers apart.
  EXPECT_GE(key, ExpiryListBegin(7, true));
  EXPECT_LT(key, ExpiryListEnd(7, true, 1030));
  EXPECT_GE(key, ExpiryListEnd(7, true, 1029));
  EXPECT_LT(ExpiryListEnd(7, true, INT64_C(1) << 40), ExpiryListBegin(7, false));
  EXPECT_LT(ExpiryKey(7, {false, 1}, "", "x"), ExpiryContainerEnd(7));
  EXPECT_EQ(ExpiryListEnd(7, false, -5), ExpiryListBegin(7, false));
  EXPECT_FALSE(ParseExpiryKey("\x16short", epk, id));
}

class ExpiryIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("orrery-expiry-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    options_.store.path = dir_;
    options_.clock = &clock_;
    options_.background_ttl_purge = false;  // the tests purge by hand
    options_.background_splits = false;
    options_.partition_split_bytes = 4 * 1024;
    Reopen();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(account_
                    ->CreateContainer("db", J(R"({"id":"c","partitionKey":{"paths":["/pk"],
                        "version":2},"defaultTtl":100})"),
                                      {})
                    .ok());
  }
  void TearDown() override {
    account_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Reopen() {
    account_.reset();
    account_ = std::move(Account::Open(options_)).value();
  }
  std::shared_ptr<Container> C() { return *account_->GetContainer("db", "c"); }

  static partition::PartitionKeyValue Pk(const std::string& pk) {
    return {partition::PartitionKeyComponent::String(pk)};
  }
  void ReplaceTtl(const std::string& ttl_member) {
    auto result = account_->ReplaceContainer(
        "db", "c",
        J(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2})" + ttl_member + "}"),
        std::nullopt);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
  }
  bool MarkerInStore() {
    const std::string marker = C()->ExpiryMarkerKey();
    account_.reset();
    bool present = false;
    {
      auto store = std::move(storage::Store::Open(options_.store)).value();
      present = store->Get(marker)->has_value();
    }
    Reopen();
    return present;
  }
  Status Write(WriteKind kind, const std::string& id, const std::string& extra = "",
               const std::string& pk = "p") {
    bodies_.push_back(R"({"id":")" + id + R"(","pk":")" + pk + "\"" + extra + "}");
    ItemWriteRequest r;
    r.kind = kind;
    r.url_id = id;
    r.partition_key = Pk(pk);
    r.body = bodies_.back();
    return C()->WriteItem(r).status();
  }
  // Every entry of the store's expiry space (all containers), read with the account
  // closed; reopens it.
  size_t EntriesInStore() {
    account_.reset();
    size_t entries = 0;
    {
      auto store = std::move(storage::Store::Open(options_.store)).value();
      EXPECT_TRUE(store
                      ->Scan(std::string(1, storage::keys::kExpirySpace),
                             std::string(1, storage::keys::kExpirySpace + 1),
                             [&](std::string_view, std::string_view) {
                               ++entries;
                               return true;
                             })
                      .ok());
    }
    Reopen();
    return entries;
  }
  Container::PurgeCount Purge(size_t max_items = 100000) {
    auto count = C()->PurgeExpired(max_items);
    EXPECT_TRUE(count.ok()) << count.status().ToString();
    return count.ok() ? *count : Container::PurgeCount{};
  }
  int64_t ItemCount() {
    auto sizes = C()->LogicalPartitionSizes();
    EXPECT_TRUE(sizes.ok());
    int64_t items = 0;
    for (const auto& size : *sizes) items += size.items;
    return items;
  }
  size_t QueryCount(const std::string& text = "SELECT VALUE c.id FROM c") {
    auto query = query::Compile(text, {});
    auto page = C()->Query(**query, C()->FullScope(), 100000, "");
    EXPECT_TRUE(page.ok());
    return page.ok() ? page->documents.size() : 0;
  }

  ManualClock clock_{std::chrono::system_clock::time_point(seconds(1700000000))};
  std::string dir_;
  AccountOptions options_;
  std::unique_ptr<Account> account_;
  std::deque<std::string> bodies_;
};

TEST_F(ExpiryIndexTest, EveryWriteKindKeepsOneEntryPerItem) {
  ASSERT_TRUE(Write(WriteKind::kCreate, "created").ok());
  ASSERT_TRUE(Write(WriteKind::kCreate, "replaced").ok());
  ASSERT_TRUE(Write(WriteKind::kUpsert, "upserted").ok());
  ASSERT_TRUE(Write(WriteKind::kCreate, "deleted").ok());
  ASSERT_TRUE(Write(WriteKind::kCreate, "patched").ok());
  ASSERT_TRUE(Write(WriteKind::kCreate, "forever", R"(,"ttl":-1)").ok());
  EXPECT_EQ(EntriesInStore(), 5u);  // not "forever"
  clock_.Advance(seconds(50));
  // Rewrites move the entry to the new _ts (or to the new own ttl), leaving none behind.
  ASSERT_TRUE(Write(WriteKind::kReplace, "replaced").ok());
  ASSERT_TRUE(Write(WriteKind::kUpsert, "upserted", R"(,"ttl":500)").ok());
  ASSERT_TRUE(C()->DeleteItem(Pk("p"), "deleted", std::nullopt).ok());
  PatchRequest patch;
  patch.operations.push_back(
      {PatchOperation::Kind::kSet, "/ttl", {"ttl"}, {}, json::Value::Int(-1)});
  ASSERT_TRUE(C()->PatchItem(Pk("p"), "patched", patch, std::nullopt).ok());
  // A transactional batch: a create, a replace that gives "forever" a ttl, a delete.
  std::vector<BatchOperation> ops(3);
  ops[0].kind = BatchOperation::Kind::kCreate;
  ops[0].body = R"({"id":"batched","pk":"p"})";
  ops[1].kind = BatchOperation::Kind::kReplace;
  ops[1].id = "forever";
  ops[1].body = R"({"id":"forever","pk":"p","ttl":20})";
  ops[2].kind = BatchOperation::Kind::kDelete;
  ops[2].id = "created";
  auto results = C()->ExecuteBatch(Pk("p"), ops);
  ASSERT_TRUE(results.ok());
  for (const auto& result : *results) ASSERT_TRUE(result.status.ok()) << result.status.ToString();
  // replaced, upserted, batched, forever.
  EXPECT_EQ(EntriesInStore(), 4u);

  // Each due entry is read once and its item purged; nothing stale is read.
  clock_.Advance(seconds(20));  // forever (ttl 20 from t+50)
  auto count = Purge();
  EXPECT_EQ(count.purged, 1u);
  EXPECT_EQ(count.entries_read, 1u);
  clock_.Advance(seconds(80));  // replaced and batched (defaultTtl 100 from t+50)
  count = Purge();
  EXPECT_EQ(count.purged, 2u);
  EXPECT_EQ(count.entries_read, 2u);
  EXPECT_EQ(count.items_read, 2u);
  clock_.Advance(seconds(500));  // upserted
  count = Purge();
  EXPECT_EQ(count.purged, 1u);
  EXPECT_EQ(count.entries_read, 1u);
  EXPECT_EQ(EntriesInStore(), 0u);
  EXPECT_EQ(QueryCount(), 1u);  // patched, ttl -1
  EXPECT_EQ(ItemCount(), 1);
}

TEST_F(ExpiryIndexTest, ThePurgeReadsOnlyDueEntriesHoweverManyItemsLive) {
  // 3,000 items that do not expire yet (or ever), 10 that have.
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(Write(WriteKind::kCreate, "e" + std::to_string(i), R"(,"ttl":5)").ok());
  }
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(Write(WriteKind::kCreate, "n" + std::to_string(i), R"(,"ttl":-1)").ok());
    ASSERT_TRUE(Write(WriteKind::kCreate, "d" + std::to_string(i)).ok());
    ASSERT_TRUE(Write(WriteKind::kCreate, "o" + std::to_string(i), R"(,"ttl":3600)").ok());
  }
  clock_.Advance(seconds(10));
  auto count = Purge();
  EXPECT_EQ(count.purged, 10u);
  EXPECT_EQ(count.entries_read, 10u);
  EXPECT_EQ(count.items_read, 10u);
  count = Purge();
  EXPECT_EQ(count.entries_read, 0u);
  EXPECT_EQ(count.items_read, 0u);
  EXPECT_EQ(ItemCount(), 3000);
  // At most max_items a round; the rest in the next one.
  clock_.Advance(seconds(100));
  count = Purge(600);
  EXPECT_EQ(count.purged, 600u);
  EXPECT_EQ(count.entries_read, 600u);
  count = Purge(600);
  EXPECT_EQ(count.purged, 400u);
  EXPECT_EQ(ItemCount(), 2000);
  EXPECT_EQ(QueryCount("SELECT VALUE c.id FROM c WHERE STARTSWITH(c.id, 'd')"), 0u);
}

TEST_F(ExpiryIndexTest, DefaultTtlChangesApplyToEveryItem) {
  ASSERT_TRUE(Write(WriteKind::kCreate, "by-default").ok());
  ASSERT_TRUE(Write(WriteKind::kCreate, "own", R"(,"ttl":30)").ok());
  ASSERT_TRUE(Write(WriteKind::kCreate, "forever", R"(,"ttl":-1)").ok());
  auto replace = [&](const std::string& ttl) {
    auto result = account_->ReplaceContainer(
        "db", "c", J(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2})" + ttl + "}"),
        std::nullopt);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
  };
  clock_.Advance(seconds(20));
  // TTL off: nothing expires, nothing is purged; -1: only own ttls expire.
  replace("");
  EXPECT_EQ(Purge().entries_read, 0u);
  clock_.Advance(seconds(20));
  replace(R"(,"defaultTtl":-1)");
  auto count = Purge();
  EXPECT_EQ(count.purged, 1u);  // own
  EXPECT_EQ(count.entries_read, 1u);
  EXPECT_EQ(QueryCount(), 2u);
  // Down from 100 to 10 s: by-default, written 40 s ago, is due at once.
  replace(R"(,"defaultTtl":10)");
  count = Purge();
  EXPECT_EQ(count.purged, 1u);
  EXPECT_EQ(count.entries_read, 1u);
  EXPECT_EQ(QueryCount(), 1u);
  EXPECT_EQ(ItemCount(), 1);
}

TEST_F(ExpiryIndexTest, ARaisedDefaultTtlKeepsItemsLonger) {
  ASSERT_TRUE(Write(WriteKind::kCreate, "a").ok());
  auto result = account_->ReplaceContainer(
      "db", "c", J(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2},"defaultTtl":1000})"),
      std::nullopt);
  ASSERT_TRUE(result.ok());
  clock_.Advance(seconds(500));
  EXPECT_EQ(Purge().entries_read, 0u);
  EXPECT_EQ(QueryCount(), 1u);
  clock_.Advance(seconds(500));
  EXPECT_EQ(Purge().purged, 1u);
}

TEST_F(ExpiryIndexTest, DataOfBeforeTheIndexIsIndexedAtOpen) {
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(
        Write(WriteKind::kCreate, "i" + std::to_string(i), i % 2 ? R"(,"ttl":-1)" : "").ok());
  }
  const std::string marker = C()->ExpiryMarkerKey();
  account_.reset();
  {
    // As an earlier version left it: no entries, no marker.
    auto store = std::move(storage::Store::Open(options_.store)).value();
    storage::WriteBatch batch;
    batch.DeleteRange(std::string(1, storage::keys::kExpirySpace),
                      std::string(1, storage::keys::kExpirySpace + 1));
    batch.Delete(marker);
    ASSERT_TRUE(store->WriteSynced(batch).ok());
  }
  Reopen();
  EXPECT_EQ(EntriesInStore(), 10u);
  clock_.Advance(seconds(100));
  auto count = Purge();
  EXPECT_EQ(count.purged, 10u);
  EXPECT_EQ(count.entries_read, 10u);
  EXPECT_EQ(ItemCount(), 10);
}

TEST_F(ExpiryIndexTest, ItemsOfSplitPartitionsArePurgedFromEveryChild) {
  for (int i = 0; i < 200; ++i) {
    ASSERT_TRUE(Write(WriteKind::kCreate, "i" + std::to_string(i),
                      R"(,"pad":")" + std::string(100, 'x') + "\"" + (i % 4 ? "" : R"(,"ttl":-1)"),
                      "p" + std::to_string(i % 20))
                    .ok());
  }
  ASSERT_TRUE(account_->SplitWhereNeeded().ok());
  ASSERT_GT(C()->PartitionNumbers().size(), 1u);
  EXPECT_EQ(EntriesInStore(), 150u);
  clock_.Advance(seconds(100));
  auto count = Purge();
  EXPECT_EQ(count.purged, 150u);
  EXPECT_EQ(count.entries_read, 150u);
  EXPECT_EQ(ItemCount(), 50);
  EXPECT_EQ(QueryCount("SELECT VALUE c.id FROM c WHERE c.pad = '" + std::string(100, 'x') + "'"),
            50u);
  EXPECT_EQ(EntriesInStore(), 0u);
}

TEST_F(ExpiryIndexTest, DeletingTheContainerDropsItsEntries) {
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(Write(WriteKind::kCreate, "i" + std::to_string(i)).ok());
  EXPECT_EQ(EntriesInStore(), 5u);
  ASSERT_TRUE(account_->DeleteContainer("db", "c").ok());
  EXPECT_EQ(EntriesInStore(), 0u);
}

TEST_F(ExpiryIndexTest, NoEntryIsWrittenWhileTtlIsOff) {
  ReplaceTtl("");
  EXPECT_EQ(EntriesInStore(), 0u);
  EXPECT_FALSE(MarkerInStore());
  ASSERT_TRUE(Write(WriteKind::kCreate, "a").ok());
  ASSERT_TRUE(Write(WriteKind::kCreate, "b", R"(,"ttl":5)").ok());
  ASSERT_TRUE(Write(WriteKind::kUpsert, "a", R"(,"x":1)").ok());
  ASSERT_TRUE(C()->DeleteItem(Pk("p"), "b", std::nullopt).ok());
  EXPECT_EQ(EntriesInStore(), 0u);
  // A container created without TTL has neither entries nor marker either.
  ASSERT_TRUE(account_
                  ->CreateContainer("db", J(R"({"id":"off","partitionKey":{"paths":["/pk"],
                      "version":2}})"),
                                    {})
                  .ok());
  auto off = *account_->GetContainer("db", "off");
  ItemWriteRequest r;
  r.kind = WriteKind::kCreate;
  r.partition_key = Pk("p");
  r.body = R"({"id":"x","pk":"p","ttl":3})";
  ASSERT_TRUE(off->WriteItem(r).ok());
  EXPECT_EQ(EntriesInStore(), 0u);
}

TEST_F(ExpiryIndexTest, TurningTtlOnListsTheItemsBeforeTheFirstPurge) {
  ReplaceTtl("");
  for (int i = 0; i < 30; ++i) {
    // Every third never expires, every third has its own 50 s, the rest follow the
    // container's defaultTtl.
    const char* ttl = i % 3 == 0 ? R"(,"ttl":-1)" : i % 3 == 1 ? R"(,"ttl":50)" : "";
    ASSERT_TRUE(Write(WriteKind::kCreate, "i" + std::to_string(i), ttl).ok());
  }
  ReplaceTtl(R"(,"defaultTtl":100)");
  // Listed by the purge, not by the replace (reopening would list them too, at open).
  EXPECT_FALSE(C()->write_state()->expiry_index_kept.load());
  ASSERT_TRUE(Write(WriteKind::kCreate, "late").ok());
  EXPECT_EQ(Purge().purged, 0u);  // lists, nothing due yet
  EXPECT_TRUE(C()->write_state()->expiry_index_kept.load());
  EXPECT_EQ(EntriesInStore(), 21u);
  EXPECT_TRUE(MarkerInStore());
  clock_.Advance(seconds(50));
  auto count = Purge();
  EXPECT_EQ(count.purged, 10u);
  EXPECT_EQ(count.entries_read, 10u);
  clock_.Advance(seconds(50));
  count = Purge();
  EXPECT_EQ(count.purged, 11u);  // the defaultTtl ones and "late"
  EXPECT_EQ(count.entries_read, 11u);
  EXPECT_EQ(ItemCount(), 10);
  EXPECT_EQ(QueryCount(), 10u);

  // Off again: the entries and the marker go, and writes file none.
  ASSERT_TRUE(Write(WriteKind::kCreate, "j", R"(,"ttl":5)").ok());
  ReplaceTtl("");
  EXPECT_EQ(EntriesInStore(), 0u);
  EXPECT_FALSE(MarkerInStore());
  ASSERT_TRUE(Write(WriteKind::kCreate, "k").ok());
  EXPECT_EQ(EntriesInStore(), 0u);
  // And on again, by a restart's listing this time: the store is reopened before any
  // purge, and the marker is not there, so the open lists the items.
  ReplaceTtl(R"(,"defaultTtl":100)");
  Reopen();
  EXPECT_EQ(EntriesInStore(), 2u);  // j (own ttl 5) and k; the 10 of ttl -1 have none
  clock_.Advance(seconds(100));
  EXPECT_EQ(Purge().purged, 2u);
  EXPECT_EQ(ItemCount(), 10);
}

TEST_F(ExpiryIndexTest, AnIndexLeftForATtlOffContainerIsDroppedAtOpen) {
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(Write(WriteKind::kCreate, "i" + std::to_string(i)).ok());
  const std::string marker = C()->ExpiryMarkerKey();
  const uint32_t number = C()->settings().number;
  ReplaceTtl("");
  account_.reset();
  {
    // As an Orrery that kept the index for every container left a TTL-off container:
    // its entries and the marker.
    auto store = std::move(storage::Store::Open(options_.store)).value();
    storage::WriteBatch batch;
    for (int i = 0; i < 5; ++i) {
      batch.Put(ExpiryKey(number, {false, 1700000000}, "00", "i" + std::to_string(i)), "");
    }
    batch.Put(marker, "1");
    ASSERT_TRUE(store->WriteSynced(batch).ok());
  }
  Reopen();
  EXPECT_EQ(EntriesInStore(), 0u);
  EXPECT_FALSE(MarkerInStore());
}

TEST_F(ExpiryIndexTest, TheListingMissesNoItemWrittenMeanwhile) {
  ReplaceTtl("");
  constexpr int kItems = 3000;
  for (int i = 0; i < kItems; ++i) {
    ASSERT_TRUE(Write(WriteKind::kCreate, "i" + std::to_string(i)).ok());
  }
  ReplaceTtl(R"(,"defaultTtl":100)");
  // Rewrites (each giving its item a new own ttl, so a new entry) race the listing.
  std::atomic<bool> stop{false};
  std::atomic<int> rewrites{0};
  std::thread writer([&] {
    std::deque<std::string> bodies;
    for (int round = 0; !stop.load() && round < 20; ++round) {
      for (int i = round; i < kItems && !stop.load(); i += 7) {
        bodies.push_back(R"({"id":"i)" + std::to_string(i) + R"(","pk":"p","ttl":)" +
                         std::to_string(101 + round) + "}");
        ItemWriteRequest r;
        r.kind = WriteKind::kUpsert;
        r.partition_key = Pk("p");
        r.body = bodies.back();
        if (C()->WriteItem(r).ok()) rewrites.fetch_add(1);
      }
    }
  });
  ASSERT_TRUE(C()->BuildExpiryIndex().ok());
  stop.store(true);
  writer.join();
  EXPECT_GT(rewrites.load(), 0);
  // Every item is listed under its current version (and stale entries, if any, are
  // dropped without purging anything): all of them go once due, none before.
  EXPECT_EQ(Purge().purged, 0u);
  clock_.Advance(seconds(200));
  size_t purged = 0;
  for (int round = 0; round < 10 && ItemCount() > 0; ++round) purged += Purge().purged;
  EXPECT_EQ(purged, static_cast<size_t>(kItems));
  EXPECT_EQ(ItemCount(), 0);
}

TEST_F(ExpiryIndexTest, DroppingTheContainerEndsItsListing) {
  ReplaceTtl("");
  for (int i = 0; i < 6000; ++i) {
    ASSERT_TRUE(Write(WriteKind::kCreate, "i" + std::to_string(i)).ok());
  }
  ReplaceTtl(R"(,"defaultTtl":100)");
  std::shared_ptr<Container> container = C();
  Status built;
  std::thread listing([&] { built = container->BuildExpiryIndex(); });
  ASSERT_TRUE(account_->DeleteContainer("db", "c").ok());
  listing.join();
  EXPECT_TRUE(built.ok()) << built.ToString();
  // Nothing written after the drop: no entry, no marker of the dropped container.
  const std::string marker = container->ExpiryMarkerKey();
  container.reset();
  EXPECT_EQ(EntriesInStore(), 0u);
  account_.reset();
  auto store = std::move(storage::Store::Open(options_.store)).value();
  EXPECT_FALSE(store->Get(marker)->has_value());
}

}  // namespace
}  // namespace orrery::engine
