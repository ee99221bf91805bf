#include "engine/account.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <deque>
#include <filesystem>
#include <set>

#include "engine/test_directory.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

partition::PartitionKeyValue Key(std::string s) {
  return {partition::PartitionKeyComponent::String(std::move(s))};
}

class AccountTest : public ::testing::Test {
 protected:
  void SetUp() override {
    AccountOptions options;
    options.store.in_memory = true;
    account_ = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(account_
                    ->CreateContainer(
                        "db", J(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2}})"), {})
                    .ok());
    container_ = *account_->GetContainer("db", "c");
  }

  Result<ItemResult> Write(WriteKind kind, std::string pk, std::string body,
                           std::optional<std::string> if_match = std::nullopt,
                           std::string_view url_id = "") {
    bodies_.push_back(std::move(body));
    ItemWriteRequest r;
    r.kind = kind;
    r.partition_key = Key(std::move(pk));
    r.body = bodies_.back();
    r.if_match = std::move(if_match);
    r.url_id = url_id;
    return container_->WriteItem(r);
  }

  std::unique_ptr<Account> account_;
  std::shared_ptr<Container> container_;
  std::deque<std::string> bodies_;
};

TEST_F(AccountTest, DatabaseAndContainerResourcesHaveSystemProperties) {
  json::Value db = *account_->ReadDatabase("db");
  EXPECT_EQ(db.Find("_rid")->as_string(), "AQAAAA==");
  EXPECT_EQ(db.Find("_self")->as_string(), "dbs/AQAAAA==/");
  EXPECT_EQ(db.Find("_colls")->as_string(), "colls/");
  const json::Value& c = container_->settings().resource;
  EXPECT_EQ(json::Write(*c.Find("indexingPolicy")),
            R"({"indexingMode":"consistent","automatic":true,"includedPaths":[{"path":"/*"}],)"
            R"("excludedPaths":[{"path":"/\"_etag\"/?"}]})");
  EXPECT_EQ(json::Write(*c.Find("partitionKey")), R"({"paths":["/pk"],"kind":"Hash","version":2})");
  EXPECT_EQ(c.Find("_self")->as_string(),
            "dbs/AQAAAA==/colls/" + c.Find("_rid")->as_string() + "/");
  EXPECT_EQ(account_->CreateDatabase(J(R"({"id":"db"})"), {}).status().code(),
            StatusCode::kConflict);
  EXPECT_EQ(
      account_->CreateContainer("nodb", J(R"({"id":"x","partitionKey":{"paths":["/p"]}})"), {})
          .status()
          .substatus(),
      1003);
}

TEST_F(AccountTest, CreateReadReplaceDelete) {
  Result<ItemResult> created = Write(WriteKind::kCreate, "a", R"({"id":"1","pk":"a","n":1})");
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_TRUE(created->created);
  json::Value item = J(created->json);
  EXPECT_EQ(item.Find("_etag")->as_string(), created->etag);
  EXPECT_EQ(item.Find("_attachments")->as_string(), "attachments/");

  auto read = container_->ReadItem(Key("a"), "1", std::nullopt);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->item.json, created->json);
  auto not_modified = container_->ReadItem(Key("a"), "1", created->etag);
  EXPECT_TRUE(not_modified->not_modified);

  Result<ItemResult> replaced =
      Write(WriteKind::kReplace, "a", R"({"id":"1","pk":"a","n":2})", created->etag, "1");
  ASSERT_TRUE(replaced.ok());
  EXPECT_NE(replaced->etag, created->etag);
  Result<ItemResult> stale =
      Write(WriteKind::kReplace, "a", R"({"id":"1","pk":"a","n":3})", created->etag, "1");
  EXPECT_EQ(stale.status().code(), StatusCode::kPreconditionFailed);
  EXPECT_EQ(J(container_->ReadItem(Key("a"), "1", std::nullopt)->item.json).Find("n")->as_int(), 2);

  EXPECT_EQ(container_->DeleteItem(Key("a"), "1", created->etag).status().code(),
            StatusCode::kPreconditionFailed);
  EXPECT_TRUE(container_->DeleteItem(Key("a"), "1", replaced->etag).ok());
  EXPECT_TRUE(container_->ReadItem(Key("a"), "1", std::nullopt).status().IsNotFound());
}

TEST_F(AccountTest, IdIsUniquePerLogicalPartition) {
  ASSERT_TRUE(Write(WriteKind::kCreate, "a", R"({"id":"x","pk":"a"})").ok());
  EXPECT_EQ(Write(WriteKind::kCreate, "a", R"({"id":"x","pk":"a"})").status().code(),
            StatusCode::kConflict);
  EXPECT_TRUE(Write(WriteKind::kCreate, "b", R"({"id":"x","pk":"b"})").ok());
  Result<ItemResult> upsert = Write(WriteKind::kUpsert, "b", R"({"id":"x","pk":"b","v":1})");
  ASSERT_TRUE(upsert.ok());
  EXPECT_FALSE(upsert->created);
}

TEST_F(AccountTest, ACreateKnownAbsentIsStoredCountedAndStillGuardsItsId) {
  // orrery advise's loading: the caller vouches that the id is new, so the store is not
  // asked first; the item must be stored, counted and indexed as any create's.
  ItemWriteRequest r;
  r.partition_key = Key("a");
  const std::string body = R"({"id":"k","pk":"a","n":7})";
  r.body = body;
  r.known_absent = true;
  Result<ItemResult> created = container_->WriteItem(r);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_TRUE(created->created);
  Result<Container::ReadResult> read = container_->ReadItem(Key("a"), "k", std::nullopt);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(J(read->item.json).Find("n")->as_int(), 7);
  Result<std::vector<Container::LogicalPartitionSize>> sizes = container_->LogicalPartitionSizes();
  ASSERT_TRUE(sizes.ok());
  ASSERT_EQ(sizes->size(), 1u);
  EXPECT_EQ(sizes->front().items, 1);
  // A create that does not vouch is checked as always.
  EXPECT_EQ(Write(WriteKind::kCreate, "a", R"({"id":"k","pk":"a"})").status().code(),
            StatusCode::kConflict);
}

TEST_F(AccountTest, RejectsBadItemsAndChangesNothing) {
  EXPECT_EQ(Write(WriteKind::kCreate, "a", R"({"id":"1","pk":"b"})").status().substatus(), 1001);
  EXPECT_EQ(Write(WriteKind::kCreate, "a", R"({"pk":"a"})").status().code(),
            StatusCode::kBadRequest);
  EXPECT_EQ(Write(WriteKind::kCreate, "a", R"({"id":"a/b","pk":"a"})").status().code(),
            StatusCode::kBadRequest);
  EXPECT_EQ(Write(WriteKind::kCreate, "a", R"({"id":7,"pk":"a"})").status().code(),
            StatusCode::kBadRequest);
  EXPECT_EQ(Write(WriteKind::kCreate, "a", R"({"id":"1","pk":"a")").status().code(),
            StatusCode::kBadRequest);
  std::string big = R"({"id":"big","pk":"a","s":")" + std::string(2 * 1024 * 1024, 'x') + "\"}";
  EXPECT_EQ(Write(WriteKind::kCreate, "a", big).status().code(), StatusCode::kEntityTooLarge);
  auto feed = container_->ReadFeed(container_->FullScope(), 100, "");
  ASSERT_TRUE(feed.ok());
  EXPECT_TRUE(feed->documents.empty());
}

TEST(AccountPartitionsTest, ThroughputDecidesThePartitionCount) {
  AccountOptions options;
  options.store.in_memory = true;
  auto account = std::move(Account::Open(options)).value();
  ASSERT_TRUE(account->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
  ThroughputRequest manual{.manual = 24000};
  ASSERT_TRUE(account
                  ->CreateContainer(
                      "db", J(R"({"id":"m","partitionKey":{"paths":["/p"],"version":2}})"), manual)
                  .ok());
  EXPECT_EQ((*account->GetContainer("db", "m"))->settings().partitions.partitions().size(), 4u);
  ThroughputRequest autoscale{.autoscale_max = 30000};
  ASSERT_TRUE(account
                  ->CreateContainer("db",
                                    J(R"({"id":"a","partitionKey":{"paths":["/p"],"version":2}})"),
                                    autoscale)
                  .ok());
  EXPECT_EQ((*account->GetContainer("db", "a"))->settings().partitions.partitions().size(), 3u);
  ASSERT_TRUE(account->CreateDatabase(J(R"({"id":"shared"})"), {.manual = 25000}).ok());
  ASSERT_TRUE(account
                  ->CreateContainer(
                      "shared", J(R"({"id":"s","partitionKey":{"paths":["/p"],"version":2}})"), {})
                  .ok());
  EXPECT_EQ((*account->GetContainer("shared", "s"))->settings().partitions.partitions().size(), 3u);
  ThroughputRequest too_low{.manual = 300};
  EXPECT_EQ(
      account->CreateContainer("db", J(R"({"id":"z","partitionKey":{"paths":["/p"]}})"), too_low)
          .status()
          .code(),
      StatusCode::kBadRequest);
}

TEST(AccountPartitionsTest, RangeScopedFeedsPartitionTheItemsExactly) {
  AccountOptions options;
  options.store.in_memory = true;
  options.initial_partitions = 4;
  auto account = std::move(Account::Open(options)).value();
  ASSERT_TRUE(account->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
  ASSERT_TRUE(account
                  ->CreateContainer(
                      "db", J(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2}})"), {})
                  .ok());
  auto container = *account->GetContainer("db", "c");
  std::deque<std::string> bodies;
  for (int i = 0; i < 200; ++i) {
    bodies.push_back(R"({"id":")" + std::to_string(i) + R"(","pk":"k)" + std::to_string(i) + "\"}");
    ItemWriteRequest r{.partition_key = Key("k" + std::to_string(i)), .body = bodies.back()};
    ASSERT_TRUE(container->WriteItem(r).ok());
  }
  std::multiset<std::string> seen;
  for (const auto& p : container->settings().partitions.partitions()) {
    ReadScope scope{EpkRange{p.min_inclusive, p.max_exclusive}, std::nullopt};
    std::string continuation;
    int pages = 0;
    do {
      auto page = container->ReadFeed(scope, 7, continuation);
      ASSERT_TRUE(page.ok()) << page.status().ToString();
      for (const auto& doc : page->documents) {
        json::Value item = J(doc);
        std::string epk = partition::EffectivePartitionKey(container->settings().partition_key,
                                                           Key(item.Find("pk")->as_string()));
        EXPECT_TRUE(p.Contains(epk)) << epk << " not in range " << p.id;
        seen.insert(item.Find("id")->as_string());
      }
      continuation = page->continuation.value_or("");
      ++pages;
    } while (!continuation.empty());
    EXPECT_GT(pages, 1);
  }
  EXPECT_EQ(seen.size(), 200u);
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 200u);
  EXPECT_EQ(container->ReadFeed(container->FullScope(), 10, "garbage!").status().code(),
            StatusCode::kBadRequest);
}

TEST(AccountDurabilityTest, CatalogAndItemsSurviveReopen) {
  std::string dir = FreshTestDirectory("orrery-account-test");
  AccountOptions options;
  options.store.path = dir;
  std::string etag;
  {
    auto account = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(
        account
            ->CreateContainer(
                "db", J(R"({"id":"c","partitionKey":{"paths":["/pk"]},"defaultTtl":60})"), {})
            .ok());
    std::string body = R"({"id":"1","pk":"a"})";
    ItemWriteRequest r{.partition_key = Key("a"), .body = body};
    auto written = (*account->GetContainer("db", "c"))->WriteItem(r);
    ASSERT_TRUE(written.ok());
    etag = written->etag;
  }
  auto account = std::move(Account::Open(options)).value();
  auto container = account->GetContainer("db", "c");
  ASSERT_TRUE(container.ok());
  EXPECT_EQ((*container)->settings().resource.Find("defaultTtl")->as_int(), 60);
  auto read = (*container)->ReadItem(Key("a"), "1", std::nullopt);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->item.etag, etag);
  // New item numbers continue after the reserved block: no _rid is reused.
  std::string body = R"({"id":"2","pk":"a"})";
  ItemWriteRequest r{.partition_key = Key("a"), .body = body};
  auto second = (*container)->WriteItem(r);
  ASSERT_TRUE(second.ok());
  EXPECT_NE(J(second->json).Find("_rid")->as_string(),
            J(read->item.json).Find("_rid")->as_string());
  account.reset();
  std::filesystem::remove_all(dir);
}

TEST(AccountDeleteTest, DeletingAContainerRemovesItsItems) {
  AccountOptions options;
  options.store.in_memory = true;
  auto account = std::move(Account::Open(options)).value();
  ASSERT_TRUE(account->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
  auto def = J(R"({"id":"c","partitionKey":{"paths":["/pk"]}})");
  ASSERT_TRUE(account->CreateContainer("db", def, {}).ok());
  std::string body = R"({"id":"1","pk":"a"})";
  ItemWriteRequest r{.partition_key = Key("a"), .body = body};
  ASSERT_TRUE((*account->GetContainer("db", "c"))->WriteItem(r).ok());
  ASSERT_TRUE(account->DeleteContainer("db", "c").ok());
  ASSERT_TRUE(account->CreateContainer("db", def, {}).ok());
  auto feed = (*account->GetContainer("db", "c"))->ReadFeed(ReadScope{}, 100, "");
  EXPECT_TRUE(feed->documents.empty());
  ASSERT_TRUE(account->DeleteDatabase("db").ok());
  EXPECT_TRUE(account->GetContainer("db", "c").status().IsNotFound());
}

}  // namespace
}  // namespace orrery::engine

namespace orrery::engine {
namespace {

TEST_F(AccountTest, ReplaceKeepsTheRidAndUpsertToo) {
  auto created = Write(WriteKind::kCreate, "a", R"({"id":"1","pk":"a","nested":{"_rid":"x"}})");
  ASSERT_TRUE(created.ok());
  std::string rid = J(created->json).Find("_rid")->as_string();
  auto replaced =
      Write(WriteKind::kReplace, "a", R"({"id":"1","pk":"a","n":2})", std::nullopt, "1");
  ASSERT_TRUE(replaced.ok());
  EXPECT_EQ(J(replaced->json).Find("_rid")->as_string(), rid);
  auto upserted = Write(WriteKind::kUpsert, "a", R"({"id":"1","pk":"a","n":3})");
  EXPECT_EQ(J(upserted->json).Find("_rid")->as_string(), rid);
  EXPECT_GT(upserted->lsn, replaced->lsn);
}

TEST_F(AccountTest, QueriesWithoutFromRunOnce) {
  ASSERT_TRUE(Write(WriteKind::kCreate, "a", R"({"id":"1","pk":"a"})").ok());
  ASSERT_TRUE(Write(WriteKind::kCreate, "b", R"({"id":"2","pk":"b"})").ok());
  auto query = query::Compile("SELECT VALUE 1 + 2", {});
  ASSERT_TRUE(query.ok());
  auto page = container_->Query(**query, container_->FullScope(), 100, "");
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->documents, std::vector<std::string>{"3"});
}

TEST_F(AccountTest, QueryPagesResumeExactly) {
  for (int i = 0; i < 25; ++i) {
    std::string id = std::to_string(i);
    ASSERT_TRUE(Write(WriteKind::kCreate, "p" + id,
                      R"({"id":")" + id + R"(","pk":"p)" + id + R"(","n":)" + id + "}")
                    .ok());
  }
  for (std::string text : {"SELECT VALUE c.n FROM c", "SELECT VALUE c.n FROM c ORDER BY c.n",
                           "SELECT TOP 13 VALUE c.n FROM c"}) {
    auto query = query::Compile(text, {});
    ASSERT_TRUE(query.ok()) << text;
    std::multiset<std::string> seen;
    std::string continuation;
    std::vector<std::string> ordered;
    do {
      auto page = container_->Query(**query, container_->FullScope(), 4, continuation);
      ASSERT_TRUE(page.ok()) << page.status().ToString();
      EXPECT_LE(page->documents.size(), 4u);
      for (auto& d : page->documents) {
        seen.insert(d);
        ordered.push_back(d);
      }
      continuation = page->continuation.value_or("");
    } while (!continuation.empty());
    size_t expected = text.find("TOP") != std::string::npos ? 13u : 25u;
    EXPECT_EQ(seen.size(), expected) << text;
    EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), expected) << text;
    if (text.find("ORDER BY") != std::string::npos) {
      for (size_t i = 0; i < ordered.size(); ++i) EXPECT_EQ(ordered[i], std::to_string(i));
    }
  }
}

}  // namespace
}  // namespace orrery::engine
