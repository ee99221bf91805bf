// The store on a disk that fills up: a small tmpfs that each test mounts itself (root
// only; skipped where mounting is not permitted), with a ballast file taking most of it.

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "storage/keys.h"
#include "storage/store.h"
#include "storage/test_raw_database.h"
#include "storage/test_small_disk.h"

namespace orrery::storage {
namespace {

using std::chrono::steady_clock;

class StoreFullDiskTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!disk_.mounted()) {
      GTEST_SKIP() << "mounting a tmpfs is not permitted here (" << disk_.why_not()
                   << "); run as root to test a full disk";
    }
  }
  void TearDown() override { store_.reset(); }

  void OpenStore() {
    Result<std::unique_ptr<Store>> store = Store::Open({.path = disk_.path() + "/data"});
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(store).value();
  }

  // Writes batches of incompressible values until one fails; returns the keys of the
  // acknowledged ones (each value starts with its key), and the first failure.
  Status FillStore(std::vector<std::string>& acknowledged) {
    std::mt19937_64 random(42);
    for (int i = 0; i < 20000; ++i) {
      const std::string key = "key-" + std::to_string(acknowledged.size());
      std::string value(64 << 10, ' ');
      for (char& c : value) c = static_cast<char>('a' + random() % 26);
      WriteBatch batch;
      batch.Put(key, key + value);
      Status written = store_->Write(batch);
      if (!written.ok()) return written;
      acknowledged.push_back(key);
    }
    return Status::Internal("the disk never filled up");
  }

  void ExpectAllPresent(const std::vector<std::string>& keys) {
    for (const std::string& key : keys) {
      Result<std::optional<std::string>> value = store_->Get(key);
      ASSERT_TRUE(value.ok()) << value.status().ToString();
      ASSERT_TRUE(value->has_value()) << key << " was acknowledged but is gone";
      EXPECT_EQ((*value)->substr(0, key.size()), key);
    }
  }

  testing::SmallDisk disk_{40};
  std::unique_ptr<Store> store_;  // after disk_: closed before it is unmounted
};

TEST_F(StoreFullDiskTest, WritesFailWithInsufficientStorageAndResumeOnceSpaceIsFreed) {
  OpenStore();
  disk_.PlaceBallast(4 << 20);
  std::vector<std::string> acknowledged;
  Status full = FillStore(acknowledged);
  ASSERT_EQ(full.code(), StatusCode::kInsufficientStorage) << full.ToString();
  EXPECT_NE(full.message().find("disk holding the data directory is full"), std::string::npos);
  EXPECT_TRUE(store_->OutOfSpace());
  EXPECT_FALSE(store_->ReadOnly());
  ASSERT_FALSE(acknowledged.empty());

  // Reads go on; every write is refused at once, whatever it is.
  ExpectAllPresent(acknowledged);
  WriteBatch small;
  small.Put("small", "1");
  EXPECT_EQ(store_->Write(small).code(), StatusCode::kInsufficientStorage);
  EXPECT_EQ(store_->WriteSynced(small).code(), StatusCode::kInsufficientStorage);

  // RocksDB polls the free space every 5 s and needs a write buffer's worth (16 MB).
  ASSERT_TRUE(disk_.RemoveBallast());
  const auto deadline = steady_clock::now() + std::chrono::seconds(20);
  Status written = store_->Write(small);
  while (!written.ok() && steady_clock::now() < deadline) {
    ASSERT_EQ(written.code(), StatusCode::kInsufficientStorage) << written.ToString();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    written = store_->Write(small);
  }
  ASSERT_TRUE(written.ok()) << "writes did not resume after space was freed: "
                            << written.ToString();
  const auto flag_deadline = steady_clock::now() + std::chrono::seconds(5);
  while (store_->OutOfSpace() && steady_clock::now() < flag_deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_FALSE(store_->OutOfSpace());
  ExpectAllPresent(acknowledged);
  EXPECT_EQ(store_->Get("small")->value_or(""), "1");
}

TEST_F(StoreFullDiskTest, OpensReadOnlyOnAFullDiskAndWritableAgainWithSpace) {
  OpenStore();
  std::vector<std::string> keys;
  for (int i = 0; i < 100; ++i) {
    WriteBatch batch;
    keys.push_back("key-" + std::to_string(i));
    batch.Put(keys.back(), keys.back() + std::string(1000, 'v'));
    ASSERT_TRUE(store_->Write(batch).ok());
  }
  // Closed with the writes in the WAL only: opening for writing replays them into a
  // table file, which a full disk cannot take.
  store_.reset();
  disk_.PlaceBallast(0);
  ASSERT_EQ(disk_.FreeBytes(), 0u);

  OpenStore();
  EXPECT_TRUE(store_->ReadOnly());
  EXPECT_TRUE(store_->OutOfSpace());
  ExpectAllPresent(keys);
  WriteBatch batch;
  batch.Put("after", "1");
  Status refused = store_->Write(batch);
  EXPECT_EQ(refused.code(), StatusCode::kInsufficientStorage);
  EXPECT_NE(refused.message().find("restart the server"), std::string::npos) << refused.message();
  EXPECT_EQ(store_->WriteSynced(batch).code(), StatusCode::kInsufficientStorage);

  store_.reset();
  ASSERT_TRUE(disk_.RemoveBallast());
  OpenStore();
  EXPECT_FALSE(store_->ReadOnly());
  EXPECT_FALSE(store_->OutOfSpace());
  EXPECT_TRUE(store_->Write(batch).ok());
  ExpectAllPresent(keys);
}

// A store whose index entries are still in the default family (column_families.h), left
// in the WAL, opened on a full disk: read-only, so nothing is moved, and its index entries
// are read where they are. Written by RocksDB alone: as before the derived family existed,
// or with the family created and part of the entries copied into it, as when a move was
// cut short.
void WriteDefaultFamilyStore(const std::string& dir, bool move_cut_short,
                             const std::vector<std::pair<std::string, std::string>>& entries) {
  std::unique_ptr<rocksdb::DB> db = OpenRawDatabase(dir);
  ASSERT_NE(db, nullptr);
  rocksdb::WriteBatch batch;
  for (const auto& [key, value] : entries) ASSERT_TRUE(batch.Put(key, value).ok());
  if (move_cut_short) {
    rocksdb::ColumnFamilyHandle* family = nullptr;
    ASSERT_TRUE(db->CreateColumnFamily(rocksdb::ColumnFamilyOptions(), "derived", &family).ok());
    ASSERT_TRUE(batch.Put(family, entries[1].first, entries[1].second).ok());
    ASSERT_TRUE(db->Write(rocksdb::WriteOptions(), &batch).ok());
    ASSERT_TRUE(db->DestroyColumnFamilyHandle(family).ok());
  } else {
    ASSERT_TRUE(db->Write(rocksdb::WriteOptions(), &batch).ok());
  }
  ASSERT_TRUE(db->Close().ok());
}

TEST_F(StoreFullDiskTest, IndexEntriesNotYetMovedAreReadWhereTheyAreWhileTheDiskIsFull) {
  const std::string item = std::string(1, keys::kItemSpace) + "item";
  const std::string entry = std::string(1, keys::kIndexSpace) + "entry";
  const std::string other = std::string(1, keys::kIndexSpace) + "other";
  const std::string creation = std::string(1, keys::kCreationOrderSpace) + "number";
  auto expect_all = [&](const Store& store) {
    EXPECT_EQ(store.Get(item)->value_or("").substr(0, 8), "the item");
    EXPECT_EQ(store.Get(entry)->value_or("absent"), "");
    EXPECT_EQ(store.Get(creation)->value_or(""), "item");
    std::vector<std::string> scanned;
    ASSERT_TRUE(store
                    .Scan(std::string(1, keys::kIndexSpace),
                          std::string(1, static_cast<char>(keys::kIndexSpace + 1)),
                          [&](std::string_view key, std::string_view) {
                            scanned.emplace_back(key);
                            return true;
                          })
                    .ok());
    EXPECT_EQ(scanned, (std::vector<std::string>{entry, other}));
  };
  for (bool move_cut_short : {false, true}) {
    SCOPED_TRACE(move_cut_short ? "a move cut short" : "a store from before the family");
    const std::string dir = disk_.path() + "/data";
    std::filesystem::remove_all(dir);
    WriteDefaultFamilyStore(dir, move_cut_short,
                            {{item, "the item" + std::string(1000, 'v')},
                             {entry, ""},
                             {other, ""},
                             {creation, "item"}});
    disk_.PlaceBallast(0);
    ASSERT_EQ(disk_.FreeBytes(), 0u);
    OpenStore();
    EXPECT_TRUE(store_->ReadOnly());
    expect_all(*store_);

    store_.reset();
    ASSERT_TRUE(disk_.RemoveBallast());
    OpenStore();  // writable: the entries move into the derived family
    EXPECT_FALSE(store_->ReadOnly());
    expect_all(*store_);
    store_.reset();
  }
}

}  // namespace
}  // namespace orrery::storage
