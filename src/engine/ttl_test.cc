// Time to live on a hand-moved clock: expiry by defaultTtl and by the item's own ttl,
// what reads, queries and writes see of expired items, and the purge.

#include <gtest/gtest.h>

#include <deque>

#include "engine/account.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

using std::chrono::seconds;

json::Value J(std::string_view text) { return *json::Parse(text); }

class TtlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    AccountOptions options;
    options.store.in_memory = true;
    options.clock = &clock_;
    options.background_ttl_purge = false;  // the tests purge by hand
    account_ = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(account_
                    ->CreateContainer("db", J(R"({"id":"c","partitionKey":{"paths":["/pk"],
                        "version":2},"defaultTtl":10,"uniqueKeyPolicy":{"uniqueKeys":[
                        {"paths":["/email"]}]}})"),
                                      {})
                    .ok());
    container_ = *account_->GetContainer("db", "c");
  }

  Result<ItemResult> Write(WriteKind kind, std::string body) {
    bodies_.push_back(std::move(body));
    ItemWriteRequest r;
    r.kind = kind;
    r.partition_key = {partition::PartitionKeyComponent::String("p")};
    r.body = bodies_.back();
    return container_->WriteItem(r);
  }

  bool Readable(const std::string& id) {
    return container_->ReadItem({partition::PartitionKeyComponent::String("p")}, id, std::nullopt)
        .ok();
  }

  size_t QueryCount() {
    auto query = query::Compile("SELECT VALUE c.id FROM c", {});
    auto page = container_->Query(**query, container_->FullScope(), 100, "");
    EXPECT_TRUE(page.ok());
    return page.ok() ? page->documents.size() : 0;
  }

  ManualClock clock_{std::chrono::system_clock::time_point(seconds(1700000000))};
  std::unique_ptr<Account> account_;
  std::shared_ptr<Container> container_;
  std::deque<std::string> bodies_;
};

TEST_F(TtlTest, ItemsExpireByTheDefaultOrTheirOwnTtl) {
  ASSERT_TRUE(Write(WriteKind::kCreate, R"({"id":"a","pk":"p","email":"a"})").ok());
  ASSERT_TRUE(Write(WriteKind::kCreate, R"({"id":"forever","pk":"p","ttl":-1,"email":"f"})").ok());
  ASSERT_TRUE(Write(WriteKind::kCreate, R"({"id":"short","pk":"p","ttl":2,"email":"s"})").ok());
  EXPECT_EQ(QueryCount(), 3u);
  clock_.Advance(seconds(2));
  EXPECT_FALSE(Readable("short"));
  EXPECT_TRUE(Readable("a"));
  clock_.Advance(seconds(8));
  EXPECT_FALSE(Readable("a"));
  EXPECT_TRUE(Readable("forever"));
  EXPECT_EQ(QueryCount(), 1u);
}

TEST_F(TtlTest, WritesSeeExpiredItemsAsGone) {
  auto first = Write(WriteKind::kCreate, R"({"id":"a","pk":"p","email":"x"})");
  ASSERT_TRUE(first.ok());
  clock_.Advance(seconds(10));
  ItemWriteRequest replace;
  replace.kind = WriteKind::kReplace;
  replace.partition_key = {partition::PartitionKeyComponent::String("p")};
  replace.url_id = "a";
  replace.body = R"({"id":"a","pk":"p"})";
  EXPECT_EQ(container_->WriteItem(replace).status().code(), StatusCode::kNotFound);
  // The id and the unique value are free again.
  auto second = Write(WriteKind::kCreate, R"({"id":"b","pk":"p","email":"x"})");
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  auto again = Write(WriteKind::kCreate, R"({"id":"a","pk":"p","email":"y"})");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(again->created);
  EXPECT_NE(J(again->json).Find("_rid")->as_string(), J(first->json).Find("_rid")->as_string());
}

TEST_F(TtlTest, ThePurgeDeletesOnlyExpiredItemsAndKeepsTakenValues) {
  ASSERT_TRUE(Write(WriteKind::kCreate, R"({"id":"old","pk":"p","email":"x"})").ok());
  ASSERT_TRUE(Write(WriteKind::kCreate, R"({"id":"keep","pk":"p","ttl":-1,"email":"k"})").ok());
  clock_.Advance(seconds(10));
  ASSERT_TRUE(Write(WriteKind::kCreate, R"({"id":"new","pk":"p","email":"x"})").ok());
  auto purged = container_->PurgeExpired(100);
  ASSERT_TRUE(purged.ok());
  EXPECT_EQ(purged->purged, 1u);
  EXPECT_EQ(container_->PurgeExpired(100)->purged, 0u);
  // The purge of "old" left the entry "new" now holds.
  EXPECT_EQ(Write(WriteKind::kCreate, R"({"id":"other","pk":"p","email":"x"})").status().code(),
            StatusCode::kConflict);
  EXPECT_EQ(QueryCount(), 2u);
}

TEST_F(TtlTest, InvalidItemTtlsAreRefused) {
  for (std::string body : {R"({"id":"z","pk":"p","ttl":0})", R"({"id":"z","pk":"p","ttl":-2})",
                           R"({"id":"z","pk":"p","ttl":1.5})", R"({"id":"z","pk":"p","ttl":null})",
                           R"({"id":"z","pk":"p","ttl":"5"})"}) {
    EXPECT_EQ(Write(WriteKind::kCreate, body).status().code(), StatusCode::kBadRequest) << body;
  }
  EXPECT_EQ(QueryCount(), 0u);
}

}  // namespace
}  // namespace orrery::engine
