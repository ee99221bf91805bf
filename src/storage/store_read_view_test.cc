// Store::ReadView against RocksDB's unordered writes: writers apply their batches in
// parallel, key by key; a read inside a view never sees part of one.

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "storage/store.h"

namespace orrery::storage {
namespace {

constexpr int kKeysPerBatch = 48;

std::unique_ptr<Store> OpenInMemory() {
  auto store = Store::Open({.in_memory = true});
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  return std::move(store).value();
}

std::string KeyOf(int writer, int k) {
  return "w" + std::to_string(writer) + "/" + std::to_string(1000 + k);
}

// Every key of a writer's batch carries the batch's number: a read that sees two
// numbers among one writer's keys saw part of a batch.
void WriteBatches(Store& store, int writer, int batches) {
  for (int b = 1; b <= batches; ++b) {
    WriteBatch batch;
    for (int k = 0; k < kKeysPerBatch; ++k) batch.Put(KeyOf(writer, k), std::to_string(b));
    ASSERT_TRUE(store.Write(batch).ok());
  }
}

// Values unlike the first: each is a key that another batch than the first's wrote.
int CountTorn(const std::vector<std::string>& values) {
  int torn = 0;
  for (const std::string& value : values) torn += value != values.front() ? 1 : 0;
  return torn;
}

TEST(StoreReadViewTest, AViewNeverSeesPartOfAWrite) {
  auto store = OpenInMemory();
  std::atomic<int> running{2};
  std::vector<std::thread> writers;
  for (int w = 0; w < 2; ++w) {
    writers.emplace_back([&, w] {
      WriteBatches(*store, w, 3000);
      --running;
    });
  }
  int reads = 0;
  int torn = 0;
  while (running.load() > 0) {
    const Store::ReadView view(*store);
    // A scan of writer 0's keys and point reads of writer 1's, in the same view.
    std::vector<std::string> scanned;
    ASSERT_TRUE(store
                    ->Scan("w0/", "w0/\xff",
                           [&](std::string_view, std::string_view value) {
                             scanned.emplace_back(value);
                             return true;
                           })
                    .ok());
    std::vector<std::string> got;
    for (int k = 0; k < kKeysPerBatch; k += 7) {
      Result<std::optional<std::string>> value = store->Get(KeyOf(1, k));
      ASSERT_TRUE(value.ok());
      got.push_back(value->value_or("none"));
    }
    torn += CountTorn(scanned) + CountTorn(got);
    ++reads;
  }
  for (std::thread& writer : writers) writer.join();
  EXPECT_GT(reads, 0);
  EXPECT_EQ(torn, 0) << "over " << reads << " reads";
}

TEST(StoreReadViewTest, AViewReadsThePointInTimeItWasOpenedAt) {
  auto store = OpenInMemory();
  WriteBatch first;
  first.Put("k", "1");
  ASSERT_TRUE(store->Write(first).ok());
  {
    const Store::ReadView view(*store);
    std::thread([&] {
      WriteBatch second;
      second.Put("k", "2");
      second.Put("new", "x");
      ASSERT_TRUE(store->Write(second).ok());
    }).join();
    EXPECT_EQ(store->Get("k")->value_or("none"), "1");
    EXPECT_FALSE(store->Get("new")->has_value());
    const Store::ReadView nested(*store);  // nested: the same point in time
    Result<std::vector<std::optional<std::string>>> both = store->MultiGet({"k", "new"});
    ASSERT_TRUE(both.ok());
    EXPECT_EQ((*both)[0].value_or("none"), "1");
    EXPECT_FALSE((*both)[1].has_value());
  }
  EXPECT_EQ(store->Get("k")->value_or("none"), "2");
  EXPECT_EQ(store->Get("new")->value_or("none"), "x");
}

TEST(StoreReadViewTest, LatestReadsSeeWritesAfterTheViewThenTheViewResumes) {
  auto store = OpenInMemory();
  WriteBatch first;
  first.Put("k", "1");
  ASSERT_TRUE(store->Write(first).ok());
  const Store::ReadView view(*store);
  std::thread([&] {
    WriteBatch second;
    second.Put("k", "2");
    ASSERT_TRUE(store->Write(second).ok());
  }).join();
  {
    const Store::LatestReads latest;
    EXPECT_EQ(store->Get("k")->value_or("none"), "2");
    int keys = 0;
    ASSERT_TRUE(store
                    ->Scan("k", "l",
                           [&](std::string_view, std::string_view value) {
                             EXPECT_EQ(value, "2");
                             return ++keys > 0;
                           })
                    .ok());
    EXPECT_EQ(keys, 1);
  }
  EXPECT_EQ(store->Get("k")->value_or("none"), "1");
}

}  // namespace
}  // namespace orrery::storage
