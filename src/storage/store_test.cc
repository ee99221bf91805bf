#include "storage/store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "storage/keys.h"
#include "storage/test_data_directory.h"

namespace orrery::storage {
namespace {

std::unique_ptr<Store> OpenInMemory() {
  auto store = Store::Open({.in_memory = true});
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  return std::move(store).value();
}

TEST(StoreTest, PutGetDelete) {
  auto store = OpenInMemory();
  WriteBatch batch;
  batch.Put("a", "1");
  batch.Put("b", "2");
  ASSERT_TRUE(store->Write(batch).ok());
  EXPECT_EQ(store->Get("a")->value_or("missing"), "1");
  WriteBatch del;
  del.Delete("a");
  ASSERT_TRUE(store->Write(del).ok());
  EXPECT_FALSE(store->Get("a")->has_value());
  EXPECT_EQ(store->Get("b")->value_or("missing"), "2");
}

TEST(StoreTest, ScanVisitsHalfOpenRangeInOrder) {
  auto store = OpenInMemory();
  WriteBatch batch;
  for (std::string k : {"k3", "k1", "k2", "k4"}) {
    batch.Put(k, k);
  }
  ASSERT_TRUE(store->Write(batch).ok());
  std::vector<std::string> seen;
  ASSERT_TRUE(store
                  ->Scan("k1", "k4",
                         [&](std::string_view k, std::string_view) {
                           seen.emplace_back(k);
                           return true;
                         })
                  .ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"k1", "k2", "k3"}));
}

TEST(StoreTest, ScanReverseVisitsHalfOpenRangeBackwards) {
  auto store = OpenInMemory();
  WriteBatch batch;
  for (std::string k : {"k3", "k1", "k2", "k4", "k5"}) {
    batch.Put(k, k);
  }
  ASSERT_TRUE(store->Write(batch).ok());
  std::vector<std::string> seen;
  ASSERT_TRUE(store
                  ->ScanReverse("k2", "k5",
                                [&](std::string_view k, std::string_view) {
                                  seen.emplace_back(k);
                                  return seen.size() < 2;
                                })
                  .ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"k4", "k3"}));
}

TEST(StoreTest, DeleteRangeRemovesOneContainersItems) {
  auto store = OpenInMemory();
  WriteBatch batch;
  batch.Put(keys::Item(7, "0A", "x"), "1");
  batch.Put(keys::Item(7, "3F", "y"), "2");
  batch.Put(keys::Item(8, "00", "z"), "3");
  ASSERT_TRUE(store->Write(batch).ok());
  WriteBatch drop;
  drop.DeleteRange(keys::ItemsFrom(7, ""), keys::ItemsEnd(7));
  ASSERT_TRUE(store->Write(drop).ok());
  EXPECT_FALSE(store->Get(keys::Item(7, "0A", "x"))->has_value());
  EXPECT_TRUE(store->Get(keys::Item(8, "00", "z"))->has_value());
}

TEST(KeysTest, ItemKeysOrderByEpkThenId) {
  EXPECT_LT(keys::Item(1, "05C1", "b"), keys::Item(1, "05C1AB", "a"));
  EXPECT_LT(keys::Item(1, "0A", "zzz"), keys::Item(1, "0B", "a"));
  EXPECT_LT(keys::Item(1, "FFFF", "a"), keys::ItemsEnd(1));
  std::string_view epk, id;
  const std::string key = keys::Item(3, "1F2E", "my id");  // the views point into it
  ASSERT_TRUE(keys::ParseItem(key, epk, id));
  EXPECT_EQ(epk, "1F2E");
  EXPECT_EQ(id, "my id");
}

TEST(StoreTest, DataSurvivesReopenAndLockIsExclusive) {
  std::string dir =
      std::filesystem::temp_directory_path() / ("orrery-store-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  {
    auto store = Store::Open({.path = dir});
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    WriteBatch batch;
    batch.Put("k", "v");
    ASSERT_TRUE((*store)->Write(batch).ok());
    auto second = Store::Open({.path = dir});
    ASSERT_FALSE(second.ok());
    EXPECT_NE(second.status().message().find("in use by another process"), std::string::npos)
        << second.status().message();
  }
  auto reopened = Store::Open({.path = dir});
  ASSERT_TRUE(reopened.ok());
  EXPECT_EQ((*reopened)->Get("k")->value_or(""), "v");
  reopened = Status::Internal("close");
  std::filesystem::remove_all(dir);
}

class SyncedStoreTest : public DataDirectoryTest {};

// With sync_writes, writers that wait at once share a sync, and a WAL group writes while
// the one before it is applied (pipelined writes): every write is acknowledged and is
// there after a reopen.
TEST_F(SyncedStoreTest, ConcurrentSyncedWritesAreAllAcknowledgedAndKept) {
  constexpr int kThreads = 8;
  constexpr int kWritesEach = 50;
  {
    auto store = Store::Open({.path = dir_, .sync_writes = true});
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    std::vector<std::thread> writers;
    std::vector<int> acknowledged(kThreads, 0);
    for (int t = 0; t < kThreads; ++t) {
      writers.emplace_back([&, t] {
        for (int i = 0; i < kWritesEach; ++i) {
          WriteBatch batch;
          batch.Put("k" + std::to_string(t) + "-" + std::to_string(i), std::to_string(i));
          if ((*store)->Write(batch).ok()) ++acknowledged[t];
        }
      });
    }
    for (std::thread& writer : writers) writer.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(acknowledged[t], kWritesEach) << "thread " << t;
  }
  auto reopened = Store::Open({.path = dir_});
  ASSERT_TRUE(reopened.ok()) << reopened.status().ToString();
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kWritesEach; ++i) {
      auto value = (*reopened)->Get("k" + std::to_string(t) + "-" + std::to_string(i));
      ASSERT_TRUE(value.ok());
      EXPECT_EQ(value->value_or("missing"), std::to_string(i)) << t << "-" << i;
    }
  }
}

}  // namespace
}  // namespace orrery::storage
