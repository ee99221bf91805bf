// The service returns a query's items without ORDER BY in creation order (_rid) within
// each physical partition, whatever their ids (issue 15): full scans, index lookups,
// one logical partition, pages, replaces, deletes, splits and data of before the lists.

#include "engine/creation_order.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "engine/account.h"
#include "engine/resource_id.h"
#include "engine/test_directory.h"
#include "json/json.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

TEST(CreationOrderKeysTest, TheNumberOfAnItemRidRoundTrips) {
  for (const uint64_t number :
       {uint64_t{1}, uint64_t{255}, uint64_t{1} << 40, uint64_t{123456789}}) {
    EXPECT_EQ(ItemNumberOfRid(ItemRid(ContainerRid(7, 3), number)), number);
  }
  EXPECT_FALSE(ItemNumberOfRid(ContainerRid(7, 3)).has_value());
  EXPECT_FALSE(ItemNumberOfRid("not base64!").has_value());
  EXPECT_EQ(ItemNumberOfJson(R"({"id":"x","nested":{"_rid":"zz"},"_rid":")" +
                             ItemRid(ContainerRid(1, 1), 42) + R"(","_ts":1})"),
            42u);
  // Keys sort by number within a partition, and partitions apart.
  EXPECT_LT(CreationKey(1, 0, 9), CreationKey(1, 0, 10));
  EXPECT_LT(CreationKey(1, 0, 1u << 20), CreationKey(1, 1, 1));
  EXPECT_LT(LogicalCreationKey(1, "0A", 300), LogicalCreationEnd(1, "0A"));
  EXPECT_LT(LogicalCreationEnd(1, "0A"), LogicalCreationKey(1, "0A0", 1));
  EXPECT_EQ(CreationNumberOf(CreationKey(1, 2, 77)), 77u);
  EXPECT_EQ(CreationNumberOf(LogicalCreationKey(1, "3F", 78)), 78u);
}

class CreationOrderTest : public ::testing::Test {
 protected:
  void Open(int initial_partitions = 1) {
    AccountOptions options;
    options.store.in_memory = true;
    options.initial_partitions = initial_partitions;
    options.background_ttl_purge = false;
    options.background_splits = false;
    options.partition_split_bytes = 4 * 1024;
    account_ = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(account_
                    ->CreateContainer(
                        "db", J(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2}})"), {})
                    .ok());
  }
  std::shared_ptr<Container> C() { return *account_->GetContainer("db", "c"); }

  Status Write(const std::string& id, const std::string& pk, int n = 0,
               WriteKind kind = WriteKind::kUpsert) {
    const std::string body = R"({"id":")" + id + R"(","pk":")" + pk + R"(","n":)" +
                             std::to_string(n) + R"(,"pad":")" + std::string(100, 'x') + R"("})";
    ItemWriteRequest r;
    r.kind = kind;
    r.url_id = id;
    r.partition_key = {partition::PartitionKeyComponent::String(pk)};
    r.body = body;
    return C()->WriteItem(r).status();
  }

  // The ids a query returns over `scope`, `page` at a time, following continuations.
  std::vector<std::string> Ids(const std::string& text, const ReadScope& scope, int page = 1000) {
    auto query = query::Compile(text, {});
    EXPECT_TRUE(query.ok());
    std::vector<std::string> ids;
    std::string continuation;
    for (int pages = 0; pages < 10000; ++pages) {
      auto result = C()->Query(**query, scope, page, continuation);
      EXPECT_TRUE(result.ok()) << result.status().ToString();
      if (!result.ok()) break;
      for (const std::string& doc : result->documents) ids.push_back(J(doc).as_string());
      if (!result->continuation) break;
      continuation = *result->continuation;
    }
    return ids;
  }

  ReadScope Logical(const std::string& pk) {
    ReadScope scope;
    scope.exact_epk = partition::EffectivePartitionKey(
        C()->settings().partition_key, {partition::PartitionKeyComponent::String(pk)});
    scope.range = EpkRange{*scope.exact_epk, *scope.exact_epk + "\x01"};
    return scope;
  }

  std::unique_ptr<Account> account_;
};

TEST_F(CreationOrderTest, OnePartitionReturnsItemsInTheOrderTheyWereCreated) {
  Open();
  const std::vector<std::string> order = {"zeta", "alpha", "mid", "beta", "omega", "aa"};
  const std::vector<std::string> keys = {"p", "q", "p", "r", "q", "p"};
  for (size_t i = 0; i < order.size(); ++i) ASSERT_TRUE(Write(order[i], keys[i], int(i)).ok());
  const ReadScope all = C()->FullScope();
  // A full scan, an index lookup, and both a page at a time.
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c", all), order);
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c", all, 1), order);
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c WHERE c.n >= 0", all), order);
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c WHERE c.n >= 0", all, 2), order);
  // One logical partition: its items in creation order.
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c", Logical("p")),
            (std::vector<std::string>{"zeta", "mid", "aa"}));
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c", Logical("p"), 1),
            (std::vector<std::string>{"zeta", "mid", "aa"}));
  // Queries that keep the rows' order: OFFSET/LIMIT.
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c OFFSET 1 LIMIT 3", all),
            (std::vector<std::string>{"alpha", "mid", "beta"}));
  // DISTINCT without ORDER BY promises no order (the SDKs' "Unordered" distinct); on
  // an indexed path it comes in the index's order, so that its pages resume
  // (container_query_streams.cc). A computed expression keeps creation order.
  std::vector<std::string> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(Ids("SELECT DISTINCT VALUE c.id FROM c", all), sorted);
  EXPECT_EQ(Ids("SELECT DISTINCT VALUE CONCAT(c.id, '') FROM c", all), order);
}

// A partition whose matches fit in the page is read in key order and its rows sorted by
// creation; one whose matches do not is walked in creation order. Both give one order.
TEST_F(CreationOrderTest, FewMatchesAndManyMatchesComeInTheSameOrder) {
  Open();
  std::vector<std::string> created, sevens;
  for (int i = 0; i < 300; ++i) {
    const std::string id = "id-" + std::to_string((i * 113) % 300);
    created.push_back(id);
    if (i % 100 == 7) sevens.push_back(id);
    ASSERT_TRUE(Write(id, "k" + std::to_string(i % 10), i).ok());
  }
  const ReadScope all = C()->FullScope();
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c WHERE c.n % 100 = 7", all), sevens);
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c WHERE c.n % 100 = 7", all, 2), sevens);
  EXPECT_EQ(Ids("SELECT TOP 2 VALUE c.id FROM c WHERE c.n % 100 = 7", all),
            (std::vector<std::string>{sevens[0], sevens[1]}));
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c", all), created);
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c", all, 299), created);
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c", all, 300), created);
  // Each item is charged once, however the page was read.
  auto query = query::Compile("SELECT VALUE c.id FROM c", {});
  ASSERT_TRUE(query.ok());
  auto page = C()->Query(**query, all, 50, "");
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->documents.size(), 50u);
  EXPECT_LE(page->loaded_count, 51u);
}

TEST_F(CreationOrderTest, AReplaceKeepsItsPlaceAndARecreatedItemGoesLast) {
  Open();
  for (const char* id : {"c", "a", "b"}) ASSERT_TRUE(Write(id, "p").ok());
  ASSERT_TRUE(Write("c", "p", 5, WriteKind::kReplace).ok());
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c", C()->FullScope()),
            (std::vector<std::string>{"c", "a", "b"}));
  ASSERT_TRUE(
      C()->DeleteItem({partition::PartitionKeyComponent::String("p")}, "a", std::nullopt).ok());
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c", C()->FullScope()),
            (std::vector<std::string>{"c", "b"}));
  ASSERT_TRUE(Write("a", "p").ok());
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c", C()->FullScope()),
            (std::vector<std::string>{"c", "b", "a"}));
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c", Logical("p"), 1),
            (std::vector<std::string>{"c", "b", "a"}));
}

TEST_F(CreationOrderTest, PartitionsComeInEpkOrderEachInCreationOrderAcrossASplit) {
  Open(2);
  std::vector<std::string> created;
  for (int i = 0; i < 60; ++i) {
    const std::string id = "id-" + std::to_string((i * 37) % 60);
    created.push_back(id);
    ASSERT_TRUE(Write(id, "k" + std::to_string(i)).ok());
  }
  // What to expect, computed from the partition map: per partition, creation order.
  const auto expected = [&] {
    std::vector<std::string> out;
    for (const PhysicalPartition& p : C()->settings().partitions.partitions()) {
      for (int i = 0; i < 60; ++i) {
        const std::string epk = partition::EffectivePartitionKey(
            C()->settings().partition_key,
            {partition::PartitionKeyComponent::String("k" + std::to_string(i))});
        if (p.Contains(epk)) out.push_back(created[i]);
      }
    }
    return out;
  };
  const std::vector<std::string> before = expected();
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c", C()->FullScope(), 7), before);
  // Begin paging, split, then finish: nothing missed or repeated, and each piece in order.
  auto query = query::Compile("SELECT VALUE c.id FROM c", {});
  ASSERT_TRUE(query.ok());
  auto first = C()->Query(**query, C()->FullScope(), 10, "");
  ASSERT_TRUE(first.ok() && first->continuation);
  ASSERT_TRUE(account_->SplitWhereNeeded().ok());
  ASSERT_GT(C()->settings().partitions.partitions().size(), 2u);
  std::vector<std::string> ids;
  for (const std::string& doc : first->documents) ids.push_back(J(doc).as_string());
  std::string continuation = *first->continuation;
  while (!continuation.empty()) {
    auto page = C()->Query(**query, C()->FullScope(), 10, continuation);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    for (const std::string& doc : page->documents) ids.push_back(J(doc).as_string());
    continuation = page->continuation.value_or("");
  }
  std::vector<std::string> sorted_ids = ids, sorted_created = created;
  std::sort(sorted_ids.begin(), sorted_ids.end());
  std::sort(sorted_created.begin(), sorted_created.end());
  EXPECT_EQ(sorted_ids, sorted_created);
  EXPECT_EQ(Ids("SELECT VALUE c.id FROM c", C()->FullScope(), 7), expected());
}

TEST(CreationOrderMigrationTest, DataOfBeforeTheListsIsListedAtOpen) {
  const std::string dir = FreshTestDirectory("orrery-creation-order-test");
  AccountOptions options;
  options.store.path = dir;
  options.background_ttl_purge = false;
  options.background_splits = false;
  std::string marker;
  {
    auto account = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(account
                    ->CreateContainer(
                        "db", J(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2}})"), {})
                    .ok());
    auto container = *account->GetContainer("db", "c");
    for (const char* id : {"z", "y", "x"}) {
      const std::string body = std::string(R"({"id":")") + id + R"(","pk":"p"})";
      ItemWriteRequest r{.partition_key = {partition::PartitionKeyComponent::String("p")},
                         .body = body};
      ASSERT_TRUE(container->WriteItem(r).ok());
    }
    marker = container->CreationMarkerKey();
  }
  {
    // As an earlier version left it: no lists, no marker.
    auto store = std::move(storage::Store::Open(options.store)).value();
    storage::WriteBatch batch;
    batch.DeleteRange(std::string(1, storage::keys::kCreationOrderSpace),
                      std::string(1, storage::keys::kCreationOrderSpace + 1));
    batch.Delete(marker);
    ASSERT_TRUE(store->WriteSynced(batch).ok());
  }
  auto account = std::move(Account::Open(options)).value();
  auto container = *account->GetContainer("db", "c");
  auto query = query::Compile("SELECT VALUE c.id FROM c", {});
  ASSERT_TRUE(query.ok());
  auto page = container->Query(**query, container->FullScope(), 100, "");
  ASSERT_TRUE(page.ok());
  std::vector<std::string> ids;
  for (const std::string& doc : page->documents) ids.push_back(J(doc).as_string());
  EXPECT_EQ(ids, (std::vector<std::string>{"z", "y", "x"}));
  account.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace orrery::engine
