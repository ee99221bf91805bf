// Items kept out of the index (x-ms-indexing-directive: Exclude, or a policy with
// automatic: false): read by id and in feeds, found by queries that filter by the id
// alone (whether the id's index serves them or a scan does), missed by every other filter.

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>

#include "engine/account.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

class IndexingDirectiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    AccountOptions options;
    options.store.in_memory = true;
    options.background_ttl_purge = false;
    options.background_splits = false;
    account_ = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(account_
                    ->CreateContainer(
                        "db", J(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2}})"), {})
                    .ok());
    container_ = *account_->GetContainer("db", "c");
    ASSERT_TRUE(Write(R"({"id":"doc1","pk":"p","n":1})", std::nullopt).ok());
    ASSERT_TRUE(Write(R"({"id":"doc2","pk":"p","n":1})", false).ok());
  }

  Status Write(std::string body, std::optional<bool> directive,
               WriteKind kind = WriteKind::kCreate) {
    bodies_.push_back(std::move(body));
    ItemWriteRequest r;
    r.kind = kind;
    r.partition_key = {partition::PartitionKeyComponent::String("p")};
    r.body = bodies_.back();
    r.url_id = kind == WriteKind::kReplace ? std::string_view("doc2") : std::string_view();
    r.indexing_directive = directive;
    return container_->WriteItem(r).status();
  }

  std::vector<std::string> IdsOf(const std::string& text) {
    auto query = query::Compile(text, {});
    EXPECT_TRUE(query.ok()) << query.status().ToString();
    auto page = container_->Query(**query, container_->FullScope(), 100, "");
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    std::vector<std::string> ids;
    if (page.ok()) {
      for (const std::string& doc : page->documents) ids.push_back(J(doc).as_string());
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  }

  std::unique_ptr<Account> account_;
  std::shared_ptr<Container> container_;
  std::deque<std::string> bodies_;
};

using Ids = std::vector<std::string>;

TEST_F(IndexingDirectiveTest, QueriesByIdFindAnExcludedItemOtherFiltersDoNot) {
  EXPECT_EQ(IdsOf("SELECT VALUE c.id FROM c WHERE c.id = 'doc2'"), Ids{"doc2"});
  EXPECT_EQ(IdsOf("SELECT VALUE c.id FROM c WHERE c.id IN ('doc1', 'doc2')"),
            (Ids{"doc1", "doc2"}));
  EXPECT_EQ(IdsOf("SELECT VALUE c.id FROM c WHERE STARTSWITH(c.id, 'doc')"), (Ids{"doc1", "doc2"}));
  EXPECT_EQ(IdsOf("SELECT VALUE c.id FROM c WHERE c.id != 'doc1'"), Ids{"doc2"});
  EXPECT_EQ(IdsOf("SELECT VALUE c.id FROM c"), (Ids{"doc1", "doc2"}));
  EXPECT_EQ(IdsOf("SELECT VALUE c.id FROM c WHERE c.n = 1"), Ids{"doc1"});
  EXPECT_EQ(IdsOf("SELECT VALUE c.id FROM c WHERE c.id = 'doc2' AND c.n = 1"), Ids{});
  EXPECT_EQ(IdsOf("SELECT VALUE c.id FROM c ORDER BY c.n"), Ids{"doc1"});
  EXPECT_TRUE(
      container_->ReadItem({partition::PartitionKeyComponent::String("p")}, "doc2", std::nullopt)
          .ok());
}

TEST_F(IndexingDirectiveTest, AReplaceDecidesAgain) {
  ASSERT_TRUE(Write(R"({"id":"doc2","pk":"p","n":1})", true, WriteKind::kReplace).ok());
  EXPECT_EQ(IdsOf("SELECT VALUE c.id FROM c WHERE c.n = 1"), (Ids{"doc1", "doc2"}));
  ASSERT_TRUE(Write(R"({"id":"doc2","pk":"p","n":1})", false, WriteKind::kReplace).ok());
  EXPECT_EQ(IdsOf("SELECT VALUE c.id FROM c WHERE c.n = 1"), Ids{"doc1"});
  EXPECT_EQ(IdsOf("SELECT VALUE c.id FROM c WHERE c.id = 'doc2'"), Ids{"doc2"});
}

}  // namespace
}  // namespace orrery::engine
