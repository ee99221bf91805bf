// Catalog writes (account.h, catalog_write_mutex_): creates, replaces and deletes of
// databases and containers do not hold the lock data requests take while their write
// syncs, and still never let two creates of one name both succeed.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <future>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/account.h"
#include "engine/test_directory.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

json::Value ContainerBody(std::string_view id) {
  return J(R"({"id":")" + std::string(id) + R"(","partitionKey":{"paths":["/pk"]}})");
}

// Holds catalog writes at the hook until released, and says when one is waiting there.
class HeldWrites {
 public:
  void Arrive() {
    std::unique_lock lock(mutex_);
    ++waiting_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return released_; });
  }
  // False when no write arrived within a while (one that never calls the hook).
  bool WaitForOne() {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [this] { return waiting_ > 0; });
  }
  void Release() {
    {
      const std::lock_guard lock(mutex_);
      released_ = true;
    }
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int waiting_ = 0;
  bool released_ = false;
};

class CatalogWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    AccountOptions options;
    options.store.in_memory = true;
    account_ = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(account_->CreateContainer("db", ContainerBody("c"), {}).ok());
  }

  // Runs `write` on another thread, holds it at the catalog write, runs `meanwhile`
  // there, then lets the write finish and returns its status.
  Status WhileHeld(const std::function<Status()>& write, const std::function<void()>& meanwhile) {
    HeldWrites held;
    account_->TEST_SetCatalogWriteHook([&held] { held.Arrive(); });
    std::future<Status> done = std::async(std::launch::async, write);
    if (held.WaitForOne()) {
      meanwhile();
    } else {
      ADD_FAILURE() << "the write never reached the catalog write hook";
    }
    held.Release();
    Status status = done.get();
    unfinished_reads_.clear();  // they finish once the write is released
    account_->TEST_SetCatalogWriteHook(nullptr);
    return status;
  }

  // Whether `read` finishes within a few seconds on another thread: a reader blocked by
  // a held write fails the test instead of hanging it.
  template <typename Read>
  bool ServedMeanwhile(Read read) {
    std::future<void> done = std::async(std::launch::async, read);
    if (done.wait_for(std::chrono::seconds(5)) == std::future_status::ready) return true;
    unfinished_reads_.push_back(std::move(done));
    return false;
  }

  std::unique_ptr<Account> account_;
  std::vector<std::future<void>> unfinished_reads_;
};

TEST_F(CatalogWriteTest, ReadersAreServedWhileAContainerCreateWrites) {
  const Status created = WhileHeld(
      [&] { return account_->CreateContainer("db", ContainerBody("new"), {}).status(); },
      [&] {
        // These take the catalog lock shared: they would wait for the write if the
        // create held it. The new container is not there yet.
        EXPECT_TRUE(account_->GetContainer("db", "c").ok());
        EXPECT_EQ(account_->GetContainer("db", "new").status().code(), StatusCode::kNotFound);
        EXPECT_TRUE(account_->ReadDatabase("db").ok());
        EXPECT_EQ(account_->ListContainers("db")->size(), 1u);
        EXPECT_EQ(account_->ListOffers().size(), 1u);
      });
  ASSERT_TRUE(created.ok()) << created.ToString();
  EXPECT_TRUE(account_->GetContainer("db", "new").ok());
  EXPECT_EQ(account_->ListContainers("db")->size(), 2u);
}

TEST_F(CatalogWriteTest, ReadersSeeTheOldContainerWhileAReplaceOrDeleteWrites) {
  const std::shared_ptr<Container> before = *account_->GetContainer("db", "c");
  json::Value body = ContainerBody("c");
  body.Set("defaultTtl", json::Value::Int(30));
  const Status replaced =
      WhileHeld([&] { return account_->ReplaceContainer("db", "c", body, std::nullopt).status(); },
                [&] { EXPECT_EQ(*account_->GetContainer("db", "c"), before); });
  ASSERT_TRUE(replaced.ok()) << replaced.ToString();
  const std::shared_ptr<Container> after = *account_->GetContainer("db", "c");
  EXPECT_NE(after, before);
  EXPECT_TRUE(after->ttl_enabled());

  const Status deleted = WhileHeld([&] { return account_->DeleteContainer("db", "c"); },
                                   [&] { EXPECT_EQ(*account_->GetContainer("db", "c"), after); });
  ASSERT_TRUE(deleted.ok()) << deleted.ToString();
  EXPECT_EQ(account_->GetContainer("db", "c").status().code(), StatusCode::kNotFound);
}

TEST_F(CatalogWriteTest, ReadersAreServedWhileADatabaseIsCreatedOrDeleted) {
  const Status created =
      WhileHeld([&] { return account_->CreateDatabase(J(R"({"id":"db2"})"), {}).status(); },
                [&] {
                  EXPECT_TRUE(account_->GetContainer("db", "c").ok());
                  EXPECT_EQ(account_->ReadDatabase("db2").status().code(), StatusCode::kNotFound);
                });
  ASSERT_TRUE(created.ok()) << created.ToString();
  const Status deleted = WhileHeld([&] { return account_->DeleteDatabase("db"); },
                                   [&] { EXPECT_TRUE(account_->GetContainer("db", "c").ok()); });
  ASSERT_TRUE(deleted.ok()) << deleted.ToString();
  EXPECT_EQ(account_->GetContainer("db", "c").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(account_->ReadDatabase("db").status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(account_->ReadDatabase("db2").ok());
}

json::Value WithThroughput(json::Value offer, int64_t ru_per_second) {
  json::Value content = *offer.Find("content");
  content.Set("offerThroughput", json::Value::Int(ru_per_second));
  offer.Set("content", std::move(content));
  return offer;
}

json::Value OfferOf(Account& account, std::string_view resource_rid) {
  for (const json::Value& offer : account.ListOffers()) {
    if (offer.Find("offerResourceId")->as_string() == resource_rid) return offer;
  }
  ADD_FAILURE() << "no offer for " << resource_rid;
  return json::Value();
}

TEST_F(CatalogWriteTest, ReadersAreServedWhileAContainerOfferIsReplaced) {
  const std::shared_ptr<Container> before = *account_->GetContainer("db", "c");
  const json::Value offer = OfferOf(*account_, before->settings().rid);
  const std::string offer_id = offer.Find("id")->as_string();
  const Status replaced = WhileHeld(
      [&] { return account_->ReplaceOffer(offer_id, WithThroughput(offer, 800)).status(); },
      [&] {
        EXPECT_TRUE(ServedMeanwhile([&] {
          EXPECT_EQ(*account_->GetContainer("db", "c"), before);
          EXPECT_EQ(account_->ListContainers("db")->size(), 1u);
        }));
      });
  ASSERT_TRUE(replaced.ok()) << replaced.ToString();
  EXPECT_EQ((*account_->GetContainer("db", "c"))->settings().manual_ru_per_second, 800);
}

TEST_F(CatalogWriteTest, ReadersAreServedWhileADatabaseOfferIsReplaced) {
  ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"shared"})"), {.manual = 1000}).ok());
  const std::string rid = account_->ReadDatabase("shared")->Find("_rid")->as_string();
  const json::Value offer = OfferOf(*account_, rid);
  const std::string offer_id = offer.Find("id")->as_string();
  const Status replaced = WhileHeld(
      [&] { return account_->ReplaceOffer(offer_id, WithThroughput(offer, 2000)).status(); },
      [&] {
        EXPECT_TRUE(ServedMeanwhile([&] {
          EXPECT_TRUE(account_->GetContainer("db", "c").ok());
          EXPECT_TRUE(account_->ReadDatabase("shared").ok());
        }));
      });
  ASSERT_TRUE(replaced.ok()) << replaced.ToString();
  const json::Value after = OfferOf(*account_, rid);
  EXPECT_EQ(after.Find("content")->Find("offerThroughput")->as_int(), 2000);
}

TEST_F(CatalogWriteTest, ReadersAreServedWhileThroughputEnforcementChanges) {
  const std::shared_ptr<Container> before = *account_->GetContainer("db", "c");
  const Status changed = WhileHeld(
      [&] { return account_->SetThroughputEnforcement("db", "c", false); },
      [&] {
        EXPECT_TRUE(
            ServedMeanwhile([&] { EXPECT_EQ(*account_->GetContainer("db", "c"), before); }));
      });
  ASSERT_TRUE(changed.ok()) << changed.ToString();
  EXPECT_EQ((*account_->GetContainer("db", "c"))->settings().enforce_throughput, false);
}

TEST_F(CatalogWriteTest, ReadersAreServedWhileASplitCommits) {
  const std::shared_ptr<Container> before = *account_->GetContainer("db", "c");
  const uint32_t parent = before->settings().partitions.partitions().at(0).number;
  const Status split = WhileHeld(
      [&] {
        return account_->SplitPartition("db", "c", parent, "7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF");
      },
      [&] {
        EXPECT_TRUE(ServedMeanwhile([&] {
          EXPECT_EQ(*account_->GetContainer("db", "c"), before);
          EXPECT_TRUE(account_->ReadDatabase("db").ok());
        }));
      });
  ASSERT_TRUE(split.ok()) << split.ToString();
  EXPECT_EQ((*account_->GetContainer("db", "c"))->settings().partitions.partitions().size(), 2u);
}

TEST_F(CatalogWriteTest, ConcurrentCreatesOfOneNameLetExactlyOneSucceed) {
  constexpr int kThreads = 8;
  for (int round = 0; round < 5; ++round) {
    const std::string id = "same" + std::to_string(round);
    std::atomic<int> succeeded{0};
    std::atomic<int> conflicts{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&] {
        const auto created = account_->CreateContainer("db", ContainerBody(id), {});
        if (created.ok()) {
          succeeded.fetch_add(1);
        } else if (created.status().code() == StatusCode::kConflict) {
          conflicts.fetch_add(1);
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(succeeded.load(), 1) << id;
    EXPECT_EQ(conflicts.load(), kThreads - 1) << id;
  }
}

TEST_F(CatalogWriteTest, ConcurrentCreatesOfManyNamesGetDistinctRids) {
  constexpr int kThreads = 8;
  std::vector<std::thread> threads;
  std::vector<std::string> rids(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const auto created =
          account_->CreateContainer("db", ContainerBody("c" + std::to_string(t + 1)), {});
      if (created.ok()) rids[static_cast<size_t>(t)] = created->Find("_rid")->as_string();
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::set<std::string> distinct(rids.begin(), rids.end());
  distinct.insert((*account_->GetContainer("db", "c"))->settings().rid);
  EXPECT_EQ(distinct.size(), static_cast<size_t>(kThreads) + 1);
  EXPECT_EQ(distinct.count(""), 0u);
}

// The number counter is bumped in the create's own write: a reopened account goes on
// after the last number used.
TEST(CatalogWriteDurabilityTest, NumbersAreNotReusedAfterReopen) {
  const std::string dir = FreshTestDirectory("orrery-catalog-write-test");
  AccountOptions options;
  options.store.path = dir;
  std::set<std::string> rids;
  for (int run = 0; run < 2; ++run) {
    auto account = std::move(Account::Open(options)).value();
    const std::string db = "db" + std::to_string(run);
    const auto database = account->CreateDatabase(J(R"({"id":")" + db + R"("})"), {});
    ASSERT_TRUE(database.ok());
    rids.insert(database->Find("_rid")->as_string());
    for (int i = 0; i < 2; ++i) {
      const auto created = account->CreateContainer(db, ContainerBody("c" + std::to_string(i)), {});
      ASSERT_TRUE(created.ok());
      rids.insert(created->Find("_rid")->as_string());
    }
  }
  EXPECT_EQ(rids.size(), 6u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace orrery::engine
