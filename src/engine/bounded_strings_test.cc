// Queries over strings longer than a range-index entry holds (index_key.h): lookups,
// ranges, STARTSWITH, ORDER BY (paged, both directions, across partitions and through
// a JOIN), DISTINCT and GROUP BY answer as over whole strings. Expected rows come from
// the test's own data, sorted and filtered here.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "common/encoding.h"
#include "engine/account.h"
#include "engine/test_directory.h"
#include "index/index_key.h"
#include "json/json.h"
#include "storage/keys.h"
#include "storage/store.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

// kIndexedStringBytes of 'k', with byte 100 changed to `at_100`.
std::string Held(char at_100 = 'k') {
  std::string held(index::kIndexedStringBytes, 'k');
  held[100] = at_100;
  return held;
}

class BoundedStringsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    AccountOptions options;
    options.store.in_memory = true;
    options.background_ttl_purge = false;
    options.initial_partitions = 4;
    account_ = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(
        account_->CreateContainer("db", J(R"({"id":"c","partitionKey":{"paths":["/pk"]}})"), {})
            .ok());
    container_ = *account_->GetContainer("db", "c");
    // 300 strings sharing the held bytes (more than a group's round reads), numbered in
    // an order other than their ids' and keys', and strings around that group.
    std::vector<int> order(300);
    for (int i = 0; i < 300; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937(11));
    for (int i = 0; i < 300; ++i) {
      char tail[16];
      std::snprintf(tail, sizeof tail, "%05d", order[i]);
      Add("g" + std::to_string(i), Held() + tail + std::string(i % 7, 'z'));
    }
    Add("exact", Held());
    Add("shorter", Held().substr(0, 127));
    Add("before", Held('j') + "tail");
    Add("before2", Held('j') + "tail2");
    Add("after", Held('l') + "tail");
    Add("a", "a");
    Add("zz", "zz");
    Add("nul", Held().substr(0, 5) + std::string(1, '\0') + Held() + "x");
  }

  void Add(const std::string& id, const std::string& s) {
    const std::string pk = "p" + std::to_string(values_.size() % 13);
    json::Value body = json::Value::MakeObject();
    body.Set("id", json::Value::String(id));
    body.Set("pk", json::Value::String(pk));
    body.Set("s", json::Value::String(s));
    // Groups for GROUP BY: 3 long values and a short one, repeated.
    const std::string groups[] = {Held() + "one", Held() + "two", Held('j') + "three", "four"};
    body.Set("g", json::Value::String(groups[values_.size() % 4]));
    // Tags for a JOIN: two long strings per item.
    json::Value tags = json::Value::MakeArray();
    tags.as_array().push_back(json::Value::String(s + "#1"));
    tags.as_array().push_back(json::Value::String(Held('l') + id));
    body.Set("tags", std::move(tags));
    bodies_.push_back(json::Write(body));
    ItemWriteRequest r;
    r.partition_key = {partition::PartitionKeyComponent::String(pk)};
    r.body = bodies_.back();
    r.kind = WriteKind::kCreate;
    ASSERT_TRUE(container_->WriteItem(r).ok());
    values_[id] = s;
    group_of_[id] = groups[(values_.size() - 1) % 4];
  }

  // Every page's rows, as JSON texts.
  std::vector<std::string> All(const std::string& text, int max_items) {
    std::vector<std::string> rows;
    std::string token;
    size_t pages = 0;
    do {
      auto query = query::Compile(text, {});
      EXPECT_TRUE(query.ok()) << query.status().ToString();
      if (!query.ok()) break;
      Result<FeedPage> page = container_->Query(**query, container_->FullScope(), max_items, token);
      EXPECT_TRUE(page.ok()) << page.status().ToString();
      if (!page.ok()) break;
      rows.insert(rows.end(), page->documents.begin(), page->documents.end());
      token = page->continuation.value_or("");
    } while (!token.empty() && ++pages < 10000);
    return rows;
  }

  static std::vector<std::string> Strings(const std::vector<std::string>& rows) {
    std::vector<std::string> out;
    for (const std::string& row : rows) out.push_back(J(row).as_string());
    return out;
  }

  // A SQL string literal of `s` (ASCII without quotes or backslashes here).
  static std::string Literal(const std::string& s) { return "'" + s + "'"; }

  // The ids whose s satisfies `keep`, sorted by id.
  std::vector<std::string> IdsWhere(const std::function<bool(const std::string&)>& keep) const {
    std::vector<std::string> ids;
    for (const auto& [id, s] : values_) {
      if (keep(s)) ids.push_back(id);
    }
    return ids;
  }

  std::vector<std::string> SortedIds(const std::string& where) {
    std::vector<std::string> ids = Strings(All("SELECT VALUE c.id FROM c WHERE " + where, 1000));
    std::sort(ids.begin(), ids.end());
    return ids;
  }

  std::unique_ptr<Account> account_;
  std::shared_ptr<Container> container_;
  std::deque<std::string> bodies_;
  std::map<std::string, std::string> values_;    // id -> s
  std::map<std::string, std::string> group_of_;  // id -> g
};

TEST_F(BoundedStringsTest, LookupsOfLongStringsMatchWholeValuesOnly) {
  const std::string g7 = values_.at("g7");
  EXPECT_EQ(SortedIds("c.s = " + Literal(g7)), std::vector<std::string>{"g7"});
  EXPECT_EQ(SortedIds("c.s IN (" + Literal(g7) + ", " + Literal(Held()) + ")"),
            (std::vector<std::string>{"exact", "g7"}));
  EXPECT_TRUE(SortedIds("c.s = " + Literal(Held() + "none")).empty());
  for (const std::string op : {">", ">=", "<", "<="}) {
    SCOPED_TRACE(op);
    const auto keep = [&](const std::string& s) {
      if (op == ">") return s > g7;
      if (op == ">=") return s >= g7;
      if (op == "<") return s < g7;
      return s <= g7;
    };
    EXPECT_EQ(SortedIds("c.s " + op + " " + Literal(g7)), IdsWhere(keep));
  }
  EXPECT_EQ(SortedIds("c.s > " + Literal(Held()) + " AND c.s < " + Literal(Held('l'))),
            IdsWhere([](const std::string& s) { return s > Held() && s < Held('l'); }));
  for (const std::string& prefix : {Held() + "0001", Held().substr(0, 50), Held('j') + "tail"}) {
    EXPECT_EQ(SortedIds("STARTSWITH(c.s, " + Literal(prefix) + ")"),
              IdsWhere([&](const std::string& s) { return s.rfind(prefix, 0) == 0; }))
        << prefix.size();
  }
}

TEST_F(BoundedStringsTest, OrderByPagesInTheOrderOfWholeStrings) {
  std::vector<std::string> ascending;
  for (const auto& [id, s] : values_) ascending.push_back(s);
  std::sort(ascending.begin(), ascending.end());
  std::vector<std::string> descending(ascending.rbegin(), ascending.rend());
  for (const int page_size : {1, 7, 100, 1000}) {
    SCOPED_TRACE(page_size);
    EXPECT_EQ(Strings(All("SELECT VALUE c.s FROM c ORDER BY c.s", page_size)), ascending);
    EXPECT_EQ(Strings(All("SELECT VALUE c.s FROM c ORDER BY c.s DESC", page_size)), descending);
  }
  // Bounded by a range whose bound is a long string itself.
  const std::string g7 = values_.at("g7");
  std::vector<std::string> above;
  std::copy_if(ascending.begin(), ascending.end(), std::back_inserter(above),
               [&](const std::string& s) { return s > g7; });
  EXPECT_EQ(Strings(All("SELECT VALUE c.s FROM c WHERE c.s > " + Literal(g7) + " ORDER BY c.s", 9)),
            above);
}

TEST_F(BoundedStringsTest, JoinElementsOrderByWholeStrings) {
  std::vector<std::string> elements;
  for (const auto& [id, s] : values_) {
    elements.push_back(s + "#1");
    elements.push_back(Held('l') + id);
  }
  std::sort(elements.begin(), elements.end());
  for (const int page_size : {5, 1000}) {
    EXPECT_EQ(Strings(All("SELECT VALUE t FROM c JOIN t IN c.tags ORDER BY t", page_size)),
              elements);
  }
}

TEST_F(BoundedStringsTest, DistinctAndGroupByTellLongStringsApart) {
  std::map<std::string, int> counts;
  for (const auto& [id, g] : group_of_) ++counts[g];
  ASSERT_EQ(counts.size(), 4u);
  std::vector<std::string> distinct;
  for (const auto& [g, n] : counts) distinct.push_back(g);
  for (const int page_size : {1, 3, 100}) {
    SCOPED_TRACE(page_size);
    EXPECT_EQ(Strings(All("SELECT DISTINCT VALUE c.g FROM c ORDER BY c.g", page_size)), distinct);
    std::map<std::string, int> got;
    for (const std::string& row :
         All("SELECT c.g AS g, COUNT(1) AS n FROM c GROUP BY c.g", page_size)) {
      const json::Value value = J(row);
      got[value.Find("g")->as_string()] += static_cast<int>(value.Find("n")->as_double());
    }
    EXPECT_EQ(got, counts);
  }
}

// A store written before long strings were bounded holds them whole in its entries, and
// an index marker without "+bounded-strings": opened now, it rebuilds its index, after
// which lookups and ORDER BY of long strings answer right. The old store is made here by
// rewriting a new one's entries of long strings whole, as that build wrote them.
TEST(BoundedStringsUpgradeTest, AStoreHoldingLongStringsWholeRebuildsItsIndexOnce) {
  const std::string dir = FreshTestDirectory("orrery-bounded-upgrade");
  AccountOptions options;
  options.store.path = dir;
  options.background_ttl_purge = false;
  const std::string held(index::kIndexedStringBytes, 'k');
  std::map<std::string, std::string> values;  // id -> s
  for (int i = 0; i < 40; ++i) values["i" + std::to_string(i)] = held + std::to_string(39 - i);
  values["short"] = "a";
  std::string marker_key;
  std::string marker;
  {
    auto account = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(
        account->CreateContainer("db", J(R"({"id":"c","partitionKey":{"paths":["/pk"]}})"), {})
            .ok());
    auto container = *account->GetContainer("db", "c");
    for (const auto& [id, s] : values) {
      json::Value body = json::Value::MakeObject();
      body.Set("id", json::Value::String(id));
      body.Set("pk", json::Value::String(id));
      body.Set("s", json::Value::String(s));
      const std::string text = json::Write(body);
      ItemWriteRequest r;
      r.partition_key = {partition::PartitionKeyComponent::String(id)};
      r.body = text;
      r.kind = WriteKind::kCreate;
      ASSERT_TRUE(container->WriteItem(r).ok());
    }
    marker_key = container->IndexMarkerKey();
    marker = container->IndexMarkerValue();
  }
  {
    auto store = std::move(storage::Store::Open(options.store)).value();
    const std::string current_marker = *store->Get(marker_key).value();
    ASSERT_EQ(current_marker, marker);
    const std::string suffix = "\n+bounded-strings";
    ASSERT_EQ(marker.substr(marker.size() - suffix.size()), suffix);
    storage::WriteBatch batch;
    size_t rewritten = 0;
    ASSERT_TRUE(store
                    ->Scan(std::string(1, storage::keys::kIndexSpace),
                           std::string(1, storage::keys::kIndexSpace + 1),
                           [&](std::string_view key, std::string_view) {
                             const std::optional<size_t> prefix = index::PathPrefixLength(key);
                             if (!prefix) return true;
                             const std::optional<index::EntryView> entry =
                                 index::ParseEntry(key.substr(*prefix));
                             if (!entry || !index::IsBoundedString(entry->value)) return true;
                             std::string whole(key.substr(0, *prefix));
                             index::AppendEntry(
                                 whole, json::Value::String(values.at(std::string(entry->id))),
                                 entry->epk, entry->id);
                             batch.Delete(key);
                             batch.Put(whole, "");
                             ++rewritten;
                             return true;
                           })
                    .ok());
    EXPECT_EQ(rewritten, 40u);
    batch.Put(marker_key, marker.substr(0, marker.size() - suffix.size()));
    ASSERT_TRUE(store->Write(batch).ok());
  }
  {
    auto account = std::move(Account::Open(options)).value();
    auto container = *account->GetContainer("db", "c");
    for (int i = 0; i < 1000 && !(container->write_state()->index_ready &&
                                  container->IndexTransformationProgress() == 100);
         ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_TRUE(container->write_state()->index_ready);
    const auto ids = [&](const std::string& text) {
      auto query = query::Compile(text, {});
      EXPECT_TRUE(query.ok());
      std::vector<std::string> out;
      auto page = container->Query(**query, container->FullScope(), 1000, "");
      EXPECT_TRUE(page.ok());
      if (page.ok()) {
        for (const std::string& doc : page->documents) out.push_back(J(doc).as_string());
      }
      return out;
    };
    EXPECT_EQ(ids("SELECT VALUE c.id FROM c WHERE c.s = '" + values.at("i7") + "'"),
              std::vector<std::string>{"i7"});
    // The ids in the order of their strings, sorted here.
    std::vector<std::pair<std::string, std::string>> by_value;
    for (const auto& [id, s] : values) by_value.emplace_back(s, id);
    std::sort(by_value.begin(), by_value.end());
    std::vector<std::string> expected;
    for (const auto& [s, id] : by_value) expected.push_back(id);
    EXPECT_EQ(ids("SELECT VALUE c.id FROM c ORDER BY c.s"), expected);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace orrery::engine
