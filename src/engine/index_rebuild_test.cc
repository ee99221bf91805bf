// The online re-index after an indexing-policy change: writers switch to the new
// policy at once, queries give complete answers throughout, and once the rebuild ends
// the index serves the new paths — also when a restart cut the rebuild short.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "engine/account.h"
#include "engine/test_directory.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

constexpr const char* kExcludesX =
    R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2},"indexingPolicy":{
        "indexingMode":"consistent","includedPaths":[{"path":"/*"}],
        "excludedPaths":[{"path":"/x/?"},{"path":"/\"_etag\"/?"}]}})";
constexpr const char* kIndexesAll =
    R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2},"indexingPolicy":{
        "indexingMode":"consistent","includedPaths":[{"path":"/*"}],
        "excludedPaths":[{"path":"/\"_etag\"/?"}]}})";

Status WriteItem(Container& container, int i) {
  const std::string id = std::to_string(i);
  const std::string body = R"({"id":")" + id + R"(","pk":"p)" + std::to_string(i % 7) +
                           R"(","x":)" + std::to_string(i % 10) + "}";
  ItemWriteRequest request;
  request.kind = WriteKind::kUpsert;
  request.partition_key = {partition::PartitionKeyComponent::String("p" + std::to_string(i % 7))};
  request.body = body;
  return container.WriteItem(request).status();
}

// An in-memory account whose container "c" indexes every path.
std::unique_ptr<Account> OpenIndexingAll() {
  AccountOptions options;
  options.store.in_memory = true;
  auto account = std::move(Account::Open(options)).value();
  EXPECT_TRUE(account->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
  EXPECT_TRUE(account->CreateContainer("db", J(kIndexesAll), {}).ok());
  return account;
}

bool WaitForIndex(const Account& account) {
  for (int i = 0; i < 1000; ++i) {
    auto container = account.GetContainer("db", "c");
    if (container.ok() && (*container)->write_state()->index_ready &&
        (*container)->IndexTransformationProgress() == 100) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

struct QueryOutcome {
  std::set<std::string> ids;
  size_t index_entries = 0;
  size_t loaded = 0;
};

QueryOutcome RunQuery(const Container& container, std::string_view text) {
  auto query = query::Compile(text, {});
  EXPECT_TRUE(query.ok()) << query.status().ToString();
  QueryOutcome out;
  auto page = container.Query(**query, container.FullScope(), 100000, "");
  EXPECT_TRUE(page.ok()) << page.status().ToString();
  if (!page.ok()) return out;
  for (const std::string& doc : page->documents) out.ids.insert(J(doc).as_string());
  out.index_entries = page->index_entries;
  out.loaded = page->loaded_count;
  return out;
}

std::set<std::string> IdsWithX(int n, int x) {
  std::set<std::string> ids;
  for (int i = 0; i < n; ++i) {
    if (i % 10 == x) ids.insert(std::to_string(i));
  }
  return ids;
}

TEST(IndexRebuildTest, PolicyChangeReindexesOnlineWhileWritesGoOn) {
  AccountOptions options;
  options.store.in_memory = true;
  options.initial_partitions = 4;
  auto account = std::move(Account::Open(options)).value();
  ASSERT_TRUE(account->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
  ASSERT_TRUE(account->CreateContainer("db", J(kExcludesX), {}).ok());
  auto container = *account->GetContainer("db", "c");
  constexpr int kItems = 3000;
  for (int i = 0; i < kItems; ++i) ASSERT_TRUE(WriteItem(*container, i).ok());

  // Excluded: a full scan, still the right answer.
  const char* query = "SELECT VALUE c.id FROM c WHERE c.x = 3";
  QueryOutcome before = RunQuery(*container, query);
  EXPECT_EQ(before.ids, IdsWithX(kItems, 3));
  EXPECT_EQ(before.index_entries, 0u);
  EXPECT_EQ(before.loaded, static_cast<size_t>(kItems));

  // Writers keep going (through the Container object of before the change, too) while
  // the policy is replaced and the index rebuilt.
  std::atomic<bool> stop{false};
  std::atomic<int> written{0};
  std::thread writer([&] {
    for (int i = kItems; i < kItems + 2000 && !stop; ++i) {
      if (!WriteItem(*container, i).ok()) break;
      written = i + 1 - kItems;
    }
  });
  ASSERT_TRUE(account->ReplaceContainer("db", "c", J(kIndexesAll), std::nullopt).ok());
  auto replaced = *account->GetContainer("db", "c");
  // Complete answers while the rebuild runs.
  EXPECT_TRUE(IdsWithX(kItems, 3).size() <= RunQuery(*replaced, query).ids.size());
  writer.join();
  ASSERT_TRUE(WaitForIndex(*account));

  const int total = kItems + written.load();
  QueryOutcome after = RunQuery(*replaced, query);
  EXPECT_EQ(after.ids, IdsWithX(total, 3));
  // Served by the index: only the matches were loaded.
  EXPECT_EQ(after.loaded, after.ids.size());
  EXPECT_EQ(after.index_entries, after.ids.size());
  stop = true;
}

TEST(IndexRebuildTest, RemovedPathsStopBeingUsedAtOnce) {
  auto account = OpenIndexingAll();
  auto container = *account->GetContainer("db", "c");
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(WriteItem(*container, i).ok());
  EXPECT_EQ(RunQuery(*container, "SELECT VALUE c.id FROM c ORDER BY c.x").ids.size(), 50u);

  ASSERT_TRUE(account->ReplaceContainer("db", "c", J(kExcludesX), std::nullopt).ok());
  auto replaced = *account->GetContainer("db", "c");
  auto order_by = query::Compile("SELECT VALUE c.id FROM c ORDER BY c.x", {});
  auto page = replaced->Query(**order_by, replaced->FullScope(), 100, "");
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().code(), StatusCode::kBadRequest);
  ASSERT_TRUE(WaitForIndex(*account));
  QueryOutcome filtered = RunQuery(*replaced, "SELECT VALUE c.id FROM c WHERE c.x = 3");
  EXPECT_EQ(filtered.ids, IdsWithX(50, 3));
  EXPECT_EQ(filtered.index_entries, 0u);  // /x is no longer indexed: a scan
}

TEST(IndexRebuildTest, ARebuildCutShortByAStopResumesOnStart) {
  const std::string dir = FreshTestDirectory("orrery-reindex-test");
  AccountOptions options;
  options.store.path = dir;
  constexpr int kItems = 4000;
  {
    auto account = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(account->CreateContainer("db", J(kExcludesX), {}).ok());
    auto container = *account->GetContainer("db", "c");
    for (int i = 0; i < kItems; ++i) ASSERT_TRUE(WriteItem(*container, i).ok());
    ASSERT_TRUE(account->ReplaceContainer("db", "c", J(kIndexesAll), std::nullopt).ok());
    // The account closes at once, very likely in the middle of the rebuild.
  }
  {
    auto account = std::move(Account::Open(options)).value();
    ASSERT_TRUE(WaitForIndex(*account));
    auto container = *account->GetContainer("db", "c");
    QueryOutcome after = RunQuery(*container, "SELECT VALUE c.id FROM c WHERE c.x = 7");
    EXPECT_EQ(after.ids, IdsWithX(kItems, 7));
    EXPECT_EQ(after.loaded, after.ids.size());
  }
  {
    // A clean reopen finds the index complete: no rebuild.
    auto account = std::move(Account::Open(options)).value();
    auto container = *account->GetContainer("db", "c");
    EXPECT_TRUE(container->write_state()->index_ready);
    EXPECT_EQ(container->IndexTransformationProgress(), 100);
  }
  std::filesystem::remove_all(dir);
}

// What a query page checks around its read view (Container::ReadinessBeforeView and
// IndexServesView): a rebuild that ends after the readiness was read, while the view
// waits for writes in flight (the rebuild's own among them), must not make the page trust
// the index, which its snapshot may hold only part of (a CI run saw 50 of 60 rows so);
// nor may a rebuild that begins, and clears the index, before the snapshot.
TEST(IndexRebuildTest, AQueryPageTrustsTheIndexOnlyIfReadyBeforeItsView) {
  auto account = OpenIndexingAll();
  auto container = *account->GetContainer("db", "c");
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(WriteItem(*container, i).ok());
  EXPECT_TRUE(container->IndexServesView(container->ReadinessBeforeView()));

  const uint64_t generation = container->BeginIndexRebuild();
  const Container::IndexReadiness during = container->ReadinessBeforeView();
  EXPECT_FALSE(container->IndexServesView(during));
  ASSERT_TRUE(container->RebuildIndex(generation).ok());
  ASSERT_TRUE(container->write_state()->index_ready);
  // Ready now, but not for a view opened after `during` was read.
  EXPECT_FALSE(container->IndexServesView(during));
  const Container::IndexReadiness ready = container->ReadinessBeforeView();
  EXPECT_TRUE(container->IndexServesView(ready));

  // A rebuild that begins after the readiness was read: not for that view either.
  container->BeginIndexRebuild();
  EXPECT_FALSE(container->IndexServesView(ready));
  container->StopIndexRebuild();
}

}  // namespace
}  // namespace orrery::engine
