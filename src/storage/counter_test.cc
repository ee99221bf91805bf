#include "storage/counter.h"

#include <gtest/gtest.h>

#include "storage/store.h"

namespace orrery::storage {
namespace {

TEST(CounterTest, EncodesAndDecodes) {
  std::optional<Counter> c = DecodeCounter(EncodeCounter({-3, 1 << 20, "[\"a\"]"}));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->count, -3);
  EXPECT_EQ(c->bytes, 1 << 20);
  EXPECT_EQ(c->label, "[\"a\"]");
  EXPECT_FALSE(DecodeCounter("short"));
}

TEST(CounterTest, DeltasAddUpInTheStoreAndKeepTheLatestLabel) {
  StoreOptions options;
  options.in_memory = true;
  std::unique_ptr<Store> store = std::move(Store::Open(options)).value();
  for (int i = 0; i < 3; ++i) {
    WriteBatch batch;
    batch.AddToCounter("k", {1, 100, i == 0 ? "first" : ""});
    ASSERT_TRUE(store->Write(batch).ok());
  }
  WriteBatch batch;
  batch.AddToCounter("k", {-1, -50, "second"});
  ASSERT_TRUE(store->Write(batch).ok());
  ASSERT_TRUE(store->CompactAll().ok());  // merged in the files too
  std::optional<std::string> value = *store->Get("k");
  ASSERT_TRUE(value);
  std::optional<Counter> c = DecodeCounter(*value);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->count, 2);
  EXPECT_EQ(c->bytes, 250);
  EXPECT_EQ(c->label, "second");
}

}  // namespace
}  // namespace orrery::storage
