// PathPresence: the counts of items and of entries under each path per physical
// partition, which let the first page of an ORDER BY, GROUP BY or DISTINCT skip reading
// every item when none lacks the path. The engine tests check query results against the
// test's own model of the items after every kind of write, a restart, a split and a TTL
// purge, and that a first page reads about a page of items once the counts say so.

#include "engine/path_presence.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "common/clock.h"
#include "engine/account.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

TEST(PathPresenceTest, AnEmptyPartitionCountsEveryPath) {
  PathPresence p;
  EXPECT_FALSE(p.CountsAny());
  EXPECT_FALSE(p.SomeItemLacks(1, "n"));
  p.StartEmpty(1);
  EXPECT_TRUE(p.CountsAny());
  EXPECT_EQ(p.SomeItemLacks(1, "n"), false);  // no items: none lacks anything
  p.Apply(1, "", +1);
  EXPECT_EQ(p.SomeItemLacks(1, "n"), true);  // a path never seen: the item lacks it
  p.Apply(1, "n", +1);
  EXPECT_EQ(p.SomeItemLacks(1, "n"), false);
  p.Apply(1, "", +1);
  EXPECT_EQ(p.SomeItemLacks(1, "n"), true);
  p.Apply(1, "", -1);
  EXPECT_EQ(p.SomeItemLacks(1, "n"), false);
  EXPECT_EQ(p.Items(1), 1);
  // Other partitions are not counted.
  p.Apply(2, "", +1);
  EXPECT_FALSE(p.SomeItemLacks(2, "n"));
  EXPECT_FALSE(p.Items(2));
}

TEST(PathPresenceTest, ALearnedPartitionKnowsOnlyTheLearnedPaths) {
  PathPresence p;
  p.Learn(3, "n", 10, 10);
  EXPECT_EQ(p.SomeItemLacks(3, "n"), false);
  EXPECT_FALSE(p.SomeItemLacks(3, "m"));
  p.Apply(3, "m", +1);  // not learned: ignored
  EXPECT_FALSE(p.SomeItemLacks(3, "m"));
  p.Apply(3, "n", -1);
  EXPECT_EQ(p.SomeItemLacks(3, "n"), true);
  p.Learn(3, "m", 4, 10);
  EXPECT_EQ(p.SomeItemLacks(3, "m"), true);
  p.Forget(3);
  EXPECT_FALSE(p.SomeItemLacks(3, "n"));
  EXPECT_FALSE(p.CountsAny());
}

TEST(PathPresenceTest, TooManyPathsForgetThePartition) {
  PathPresence p;
  p.StartEmpty(1);
  p.StartEmpty(2);
  for (size_t i = 0; i <= PathPresence::kMaxPathsPerPartition; ++i) {
    p.Apply(1, "p" + std::to_string(i), +1);
  }
  EXPECT_FALSE(p.Items(1));
  EXPECT_EQ(p.Items(2), 0);
  p.ForgetAll();
  EXPECT_FALSE(p.CountsAny());
}

json::Value J(std::string_view text) { return *json::Parse(text); }

// The model: id -> n (nullopt: the item has no n).
using Model = std::map<std::string, std::optional<int>>;

class PathPresenceEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("orrery-presence-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    options_.store.path = dir_;
    options_.clock = &clock_;
    options_.background_ttl_purge = false;
    options_.background_splits = false;
    options_.initial_partitions = 2;
    Reopen();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(account_
                    ->CreateContainer("db", J(R"({"id":"c","defaultTtl":-1,
                        "partitionKey":{"paths":["/pk"],"version":2}})"),
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

  static std::string Pk(const std::string& id) { return "p" + std::to_string(id.back() % 5); }
  static partition::PartitionKeyValue Key(const std::string& id) {
    return {partition::PartitionKeyComponent::String(Pk(id))};
  }
  static std::string Body(const std::string& id, std::optional<int> n, int ttl = 0) {
    std::string body = R"({"id":")" + id + R"(","pk":")" + Pk(id) + '"';
    if (n) body += R"(,"n":)" + std::to_string(*n);
    if (ttl > 0) body += R"(,"ttl":)" + std::to_string(ttl);
    return body + "}";
  }
  void Upsert(const std::string& id, std::optional<int> n, int ttl = 0) {
    const std::string body = Body(id, n, ttl);
    ItemWriteRequest r{.kind = WriteKind::kUpsert, .partition_key = Key(id), .body = body};
    ASSERT_TRUE(C()->WriteItem(r).ok());
    model_[id] = n;
  }

  // Every row of ORDER BY c.n, paged; and what the first page read.
  std::vector<std::string> Ordered(size_t* first_page_loaded = nullptr,
                                   const std::string& direction = "") {
    auto query = query::Compile("SELECT VALUE c.id FROM c ORDER BY c.n " + direction, {});
    EXPECT_TRUE(query.ok());
    std::vector<std::string> ids;
    std::string token;
    bool first = true;
    do {
      Result<FeedPage> page = C()->Query(**query, C()->FullScope(), 5, token);
      EXPECT_TRUE(page.ok()) << page.status().ToString();
      if (!page.ok()) break;
      if (first && first_page_loaded != nullptr) *first_page_loaded = page->loaded_count;
      first = false;
      for (const std::string& doc : page->documents) ids.push_back(json::Parse(doc)->as_string());
      token = page->continuation.value_or("");
    } while (!token.empty());
    return ids;
  }

  // The model's answer: the ids without n (in any order), then the others by n.
  void ExpectOrdered(const std::string& when) {
    std::set<std::string> lacking;
    std::vector<std::pair<int, std::string>> by_n;
    for (const auto& [id, n] : model_) {
      if (n) {
        by_n.emplace_back(*n, id);
      } else {
        lacking.insert(id);
      }
    }
    std::sort(by_n.begin(), by_n.end());
    const std::vector<std::string> got = Ordered();
    ASSERT_EQ(got.size(), model_.size()) << when;
    EXPECT_EQ(std::set<std::string>(got.begin(), got.begin() + lacking.size()), lacking) << when;
    for (size_t i = 0; i < by_n.size(); ++i) {
      EXPECT_EQ(got[lacking.size() + i], by_n[i].second) << when << " at " << i;
    }
  }

  std::filesystem::path dir_;
  AccountOptions options_;
  ManualClock clock_{std::chrono::system_clock::time_point(std::chrono::seconds(1700000000))};
  std::unique_ptr<Account> account_;
  Model model_;
};

TEST_F(PathPresenceEngineTest, EveryKindOfWriteKeepsTheFirstPageRight) {
  std::mt19937 random(11);
  for (int i = 0; i < 60; ++i) Upsert("i" + std::to_string(i), i);
  ExpectOrdered("after the load");
  size_t loaded = 0;
  Ordered(&loaded);
  EXPECT_LE(loaded, 20u) << "no item lacks n: the first page reads about a page";

  for (int step = 0; step < 200; ++step) {
    const std::string id = "i" + std::to_string(random() % 80);
    // Distinct values, so that the order of the items with n is the model's.
    const std::optional<int> n =
        random() % 3 == 0 ? std::nullopt : std::optional<int>((step + 100) * 7919 % 100003);
    switch (random() % 5) {
      case 0:
        Upsert(id, n);
        break;
      case 1:
        if (C()->DeleteItem(Key(id), id, std::nullopt).ok()) model_.erase(id);
        break;
      case 2: {  // a batch: the item, and a second one of its partition deleted
        BatchOperation write{.kind = BatchOperation::Kind::kUpsert, .id = id, .body = Body(id, n)};
        std::vector<BatchOperation> ops = {write};
        auto results = C()->ExecuteBatch(Key(id), ops);
        ASSERT_TRUE(results.ok());
        if ((*results)[0].status.ok()) model_[id] = n;
        break;
      }
      case 3: {  // patch n away, or set it
        if (!model_.count(id)) break;
        auto patch = ParsePatchRequest(
            n ? J(R"({"operations":[{"op":"set","path":"/n","value":)" + std::to_string(*n) + "}]}")
              : J(R"({"operations":[{"op":"remove","path":"/n"}]})"));
        ASSERT_TRUE(patch.ok());
        const bool had_n = model_[id].has_value();
        Result<ItemResult> patched = C()->PatchItem(Key(id), id, *patch, std::nullopt);
        if (patched.ok()) {
          model_[id] = n;
        } else {
          EXPECT_FALSE(had_n || n) << patched.status().ToString();  // removing what is not there
        }
        break;
      }
      case 4: {  // a failed batch changes nothing
        std::vector<BatchOperation> ops = {
            {.kind = BatchOperation::Kind::kUpsert, .id = id, .body = Body(id, std::nullopt)},
            {.kind = BatchOperation::Kind::kReplace, .id = "absent", .body = Body("absent", 1)}};
        ASSERT_TRUE(C()->ExecuteBatch(Key(id), ops).ok());
        break;
      }
    }
    if (step % 20 == 19) ExpectOrdered("step " + std::to_string(step));
  }
  // Everything regains n: the first page is cheap again.
  int next = 200000;
  for (auto& [id, n] : Model(model_)) {
    if (!n) Upsert(id, next++);
  }
  ExpectOrdered("all with n");
  Ordered(&loaded);
  EXPECT_LE(loaded, 20u);
}

TEST_F(PathPresenceEngineTest, AfterARestartThePathIsCountedWhenFirstQueried) {
  for (int i = 0; i < 50; ++i) Upsert("i" + std::to_string(i), i);
  Reopen();
  size_t loaded = 0;
  Ordered(&loaded);
  EXPECT_LE(loaded, 20u);
  ExpectOrdered("after the restart");
  Upsert("i7", std::nullopt);
  ExpectOrdered("an item lost n after the restart");
  Reopen();
  ExpectOrdered("and after another");
  Upsert("i7", 7);
  Ordered(&loaded);
  EXPECT_LE(loaded, 20u);
}

TEST_F(PathPresenceEngineTest, SplitChildrenCountTheirOwnItems) {
  for (int i = 0; i < 80; ++i)
    Upsert("i" + std::to_string(i), i % 9 == 0 ? std::nullopt : std::optional<int>(i));
  ExpectOrdered("before the split");
  const PhysicalPartition parent = C()->settings().partitions.partitions().at(0);
  const Status split =
      account_->SplitPartition("db", "c", parent.number, "10000000000000000000000000000000");
  ASSERT_TRUE(split.ok()) << split.ToString() << " " << parent.min_inclusive << ".."
                          << parent.max_exclusive;
  ASSERT_EQ(C()->settings().partitions.partitions().size(), 3u);
  ExpectOrdered("after the split");
  for (int i = 0; i < 80; i += 9) Upsert("i" + std::to_string(i), 100 + i);
  ExpectOrdered("all with n after the split");
  size_t loaded = 0;
  Ordered(&loaded);
  EXPECT_LE(loaded, 20u);
}

TEST_F(PathPresenceEngineTest, APurgeOfExpiredItemsCounts) {
  for (int i = 0; i < 40; ++i) Upsert("i" + std::to_string(i), i);
  for (int i = 0; i < 5; ++i) Upsert("t" + std::to_string(i), std::nullopt, /*ttl=*/10);
  clock_.Advance(std::chrono::seconds(20));
  auto purged = C()->PurgeExpired(1000);
  ASSERT_TRUE(purged.ok());
  EXPECT_EQ(purged->purged, 5u);
  for (int i = 0; i < 5; ++i) model_.erase("t" + std::to_string(i));
  ExpectOrdered("after the purge");
  size_t loaded = 0;
  Ordered(&loaded);
  EXPECT_LE(loaded, 20u) << "the purged items lacked n: none does now";
}

}  // namespace
}  // namespace orrery::engine
