// Composite indexes kept by the engine: after every kind of write (create, upsert,
// replace, patch, delete, batch, TTL purge), a split and a policy change, the entries
// of each physical partition are exactly its items, in the order computed here from a
// model of the items; a scan resumes after any position; queries use them.

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <thread>

#include "engine/account.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

using partition::PartitionKeyComponent;
using std::chrono::seconds;

json::Value J(std::string_view text) { return *json::Parse(text); }

// Composite 0: (a ASC, b DESC).
constexpr const char* kPolicyAB = R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"}],
    "compositeIndexes":[[{"path":"/a"},{"path":"/b","order":"descending"}]]})";
constexpr const char* kPolicyNone =
    R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"}]})";

struct Model {
  std::string pk;
  int a;
  double b;
};

class CompositeIndexTest : public ::testing::Test {
 protected:
  void Open(const char* policy, int partitions = 1, std::string extra = "") {
    AccountOptions options;
    options.store.in_memory = true;
    options.clock = &clock_;
    options.background_ttl_purge = false;
    options.background_splits = false;
    options.initial_partitions = partitions;
    account_ = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(
        account_
            ->CreateContainer("db",
                              J(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2},)" +
                                extra + R"("indexingPolicy":)" + policy + "}"),
                              {})
            .ok());
  }
  std::shared_ptr<Container> C() { return *account_->GetContainer("db", "c"); }

  // The ids a `SELECT VALUE c.id` query answers in one page, and the items it loaded.
  std::pair<std::vector<std::string>, size_t> IdsAndLoaded(const std::string& text) {
    auto query = query::Compile(text, {});
    EXPECT_TRUE(query.ok());
    auto page = C()->Query(**query, C()->FullScope(), 1000, "");
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    std::vector<std::string> ids;
    for (const std::string& doc : page->documents) ids.push_back(J(doc).as_string());
    return {ids, page->loaded_count};
  }

  static std::string Body(const std::string& id, const Model& m, std::string extra = "") {
    return R"({"id":")" + id + R"(","pk":")" + m.pk + R"(","a":)" + std::to_string(m.a) +
           R"(,"b":)" + json::Write(json::Value::Double(m.b)) + extra + "}";
  }
  Status Write(WriteKind kind, const std::string& id, const Model& m, std::string extra = "") {
    bodies_.push_back(Body(id, m, std::move(extra)));
    ItemWriteRequest r;
    r.kind = kind;
    r.partition_key = {PartitionKeyComponent::String(m.pk)};
    r.url_id = kind == WriteKind::kReplace ? std::string_view(id) : std::string_view();
    r.body = bodies_.back();
    Status status = C()->WriteItem(r).status();
    if (status.ok()) model_[id] = m;
    return status;
  }

  // The ids in the order the test computes: a ascending, then b descending.
  std::vector<std::string> Expected(const std::string& pk_only = "") const {
    std::vector<std::pair<std::string, Model>> items;
    for (const auto& [id, m] : model_) {
      if (pk_only.empty() || m.pk == pk_only) items.emplace_back(id, m);
    }
    std::sort(items.begin(), items.end(), [](const auto& x, const auto& y) {
      if (x.second.a != y.second.a) return x.second.a < y.second.a;
      return x.second.b > y.second.b;
    });
    std::vector<std::string> ids;
    for (const auto& item : items) ids.push_back(item.first);
    return ids;
  }

  CompositeUse Use(bool reverse = false) {
    CompositeUse use;
    use.number = 0;
    use.index = &C()->indexing_policy().composite_indexes().at(0);
    use.reverse = reverse;
    return use;
  }

  // The ids of the composite entries of each partition, in scan order; every entry's
  // item must exist (checked by loading it).
  std::vector<std::vector<std::string>> Entries(bool reverse = false,
                                                const index::CompositePosition* after = nullptr) {
    std::vector<std::vector<std::string>> out;
    auto container = C();
    const CompositeUse use = Use(reverse);
    for (const PhysicalPartition& p : container->settings().partitions.partitions()) {
      out.emplace_back();
      FeedPage page;
      EXPECT_TRUE(container
                      ->VisitInCompositeOrder(
                          use, p, container->FullScope(), after, page,
                          [&](const index::CompositeEntryView& entry, std::string_view json) {
                            EXPECT_EQ(J(json).Find("id")->as_string(), entry.id);
                            out.back().emplace_back(entry.id);
                            return true;
                          })
                      .ok());
      // No entry whose item is gone: each one was loaded.
      EXPECT_EQ(page.index_entries, page.loaded_count);
    }
    return out;
  }
  std::vector<std::string> AllEntries() {
    std::vector<std::string> all;
    for (auto& part : Entries()) all.insert(all.end(), part.begin(), part.end());
    return all;
  }

  ManualClock clock_{std::chrono::system_clock::time_point(seconds(1700000000))};
  std::unique_ptr<Account> account_;
  std::deque<std::string> bodies_;
  std::map<std::string, Model> model_;
};

TEST_F(CompositeIndexTest, EveryWriteKindKeepsTheEntriesInDeclaredOrder) {
  Open(kPolicyAB);
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(Write(WriteKind::kCreate, "i" + std::to_string(i),
                      Model{"p" + std::to_string(i % 3), i % 4, (i * 37) % 23 - 11.5})
                    .ok());
  }
  EXPECT_EQ(AllEntries(), Expected());

  ASSERT_TRUE(Write(WriteKind::kReplace, "i1", Model{"p1", 3, 1000}).ok());
  ASSERT_TRUE(Write(WriteKind::kUpsert, "i2", Model{"p2", -1, 0}).ok());
  ASSERT_TRUE(Write(WriteKind::kUpsert, "new", Model{"p0", 2, -0.25}).ok());
  EXPECT_EQ(AllEntries(), Expected());

  // patch
  PatchRequest patch = *ParsePatchRequest(J(R"([{"op":"set","path":"/b","value":-99}])"));
  ASSERT_TRUE(
      C()->PatchItem({PartitionKeyComponent::String("p0")}, "i3", patch, std::nullopt).ok());
  model_["i3"].b = -99;
  // delete
  ASSERT_TRUE(C()->DeleteItem({PartitionKeyComponent::String("p1")}, "i4", std::nullopt).ok());
  model_.erase("i4");
  EXPECT_EQ(AllEntries(), Expected());

  // batch: create, replace, delete in one logical partition
  std::vector<BatchOperation> ops(3);
  ops[0].kind = BatchOperation::Kind::kCreate;
  ops[0].body = Body("bx", Model{"p2", 1, 5.5});
  ops[1].kind = BatchOperation::Kind::kReplace;
  ops[1].id = "i5";
  ops[1].body = Body("i5", Model{"p2", 0, 77});
  ops[2].kind = BatchOperation::Kind::kDelete;
  ops[2].id = "i8";
  auto results = C()->ExecuteBatch({PartitionKeyComponent::String("p2")}, ops);
  ASSERT_TRUE(results.ok());
  for (const auto& r : *results) ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  model_["bx"] = Model{"p2", 1, 5.5};
  model_["i5"] = Model{"p2", 0, 77};
  model_.erase("i8");
  EXPECT_EQ(AllEntries(), Expected());

  // The backward scan is the fully reversed order.
  std::vector<std::string> reversed = Expected();
  std::reverse(reversed.begin(), reversed.end());
  EXPECT_EQ(Entries(true).at(0), reversed);
}

TEST_F(CompositeIndexTest, MissingValuesAndOtherTypesSortByTypeFirst) {
  Open(kPolicyAB);
  // a: undefined < null < false < true < numbers < strings; b descending within.
  const char* bodies[] = {
      R"({"id":"s","pk":"p","a":"x","b":1})",   R"({"id":"n2","pk":"p","a":-3,"b":2})",
      R"({"id":"n1","pk":"p","a":-3,"b":"z"})", R"({"id":"u","pk":"p","b":1})",
      R"({"id":"t","pk":"p","a":true,"b":1})",  R"({"id":"f","pk":"p","a":false,"b":1})",
      R"({"id":"z","pk":"p","a":null})",        R"({"id":"o","pk":"p","a":{"k":1},"b":1})",
      R"({"id":"r","pk":"p","a":[1],"b":1})",
  };
  for (const char* body : bodies) {
    ItemWriteRequest r;
    r.kind = WriteKind::kCreate;
    r.partition_key = {PartitionKeyComponent::String("p")};
    r.body = body;
    ASSERT_TRUE(C()->WriteItem(r).ok());
  }
  // n1 before n2: b descending, and strings sort after numbers.
  EXPECT_EQ(AllEntries(),
            (std::vector<std::string>{"u", "z", "f", "t", "n1", "n2", "s", "r", "o"}));
}

TEST_F(CompositeIndexTest, ArraysInAnOrderByKeyComeAfterNumbers) {
  Open(kPolicyAB);
  // Arrays sort after numbers (the type order). The index stores an array as its type
  // marker, so arrays tie on it and come in the order of the next component (b DESC):
  // x (b 9) before y (b 5). Ordering arrays by content is not done (README, "Not done").
  for (const char* body :
       {R"({"id":"n","pk":"p","a":1,"b":0})", R"({"id":"x","pk":"p","a":[1],"b":9})",
        R"({"id":"y","pk":"p","a":[0],"b":5})"}) {
    ItemWriteRequest r;
    r.kind = WriteKind::kCreate;
    r.partition_key = {PartitionKeyComponent::String("p")};
    r.body = body;
    ASSERT_TRUE(C()->WriteItem(r).ok());
  }
  auto top = query::Compile("SELECT TOP 2 VALUE c.id FROM c ORDER BY c.a, c.b DESC", {});
  ASSERT_TRUE(top.ok());
  auto page = C()->Query(**top, C()->FullScope(), 100, "");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  std::vector<std::string> ids;
  for (const std::string& doc : page->documents) ids.push_back(J(doc).as_string());
  EXPECT_EQ(ids, (std::vector<std::string>{"n", "x"}));
}

TEST_F(CompositeIndexTest, AScanResumesAfterAnyPosition) {
  Open(kPolicyAB);
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(
        Write(WriteKind::kCreate, "i" + std::to_string(i), Model{"p", i % 3, i * 1.0}).ok());
  }
  const std::vector<std::string> order = Expected();
  auto container = C();
  const PhysicalPartition& p = container->settings().partitions.partitions().at(0);
  for (bool reverse : {false, true}) {
    // Record every entry's position, then resume after each.
    std::vector<index::CompositePosition> positions;
    FeedPage page;
    ASSERT_TRUE(container
                    ->ScanCompositeEntries(Use(reverse), p, container->FullScope(), nullptr, page,
                                           [&](const index::CompositeEntryView& e) {
                                             positions.push_back({std::string(e.values),
                                                                  std::string(e.epk),
                                                                  std::string(e.id)});
                                             return true;
                                           })
                    .ok());
    ASSERT_EQ(positions.size(), order.size());
    std::vector<std::string> want = order;
    if (reverse) std::reverse(want.begin(), want.end());
    for (size_t k = 0; k < positions.size(); ++k) {
      std::vector<std::string> rest = Entries(reverse, &positions[k]).at(0);
      EXPECT_EQ(rest, std::vector<std::string>(want.begin() + static_cast<std::ptrdiff_t>(k) + 1,
                                               want.end()))
          << "after " << positions[k].id << (reverse ? " backward" : " forward");
    }
  }
}

TEST_F(CompositeIndexTest, TheTtlPurgeRemovesEntries) {
  Open(kPolicyAB, 1, R"("defaultTtl":-1,)");
  ASSERT_TRUE(Write(WriteKind::kCreate, "keep", Model{"p", 1, 1}).ok());
  ASSERT_TRUE(Write(WriteKind::kCreate, "gone", Model{"p", 0, 1}, R"(,"ttl":5)").ok());
  EXPECT_EQ(AllEntries().size(), 2u + 0u);
  clock_.Advance(seconds(6));
  ASSERT_EQ(C()->PurgeExpired(100)->purged, 1u);
  model_.erase("gone");
  FeedPage page;
  size_t entries = 0;
  auto container = C();
  ASSERT_TRUE(container
                  ->ScanCompositeEntries(Use(), container->settings().partitions.partitions()[0],
                                         container->FullScope(), nullptr, page,
                                         [&](const index::CompositeEntryView&) {
                                           ++entries;
                                           return true;
                                         })
                  .ok());
  EXPECT_EQ(entries, 1u);
}

TEST_F(CompositeIndexTest, ASplitGivesEachChildTheEntriesOfItsItems) {
  Open(kPolicyAB);
  for (int i = 0; i < 60; ++i) {
    ASSERT_TRUE(Write(WriteKind::kCreate, "i" + std::to_string(i),
                      Model{"k" + std::to_string(i), i % 5, i * 0.5})
                    .ok());
  }
  auto before = C();
  const PhysicalPartition& p = before->settings().partitions.partitions().at(0);
  ASSERT_TRUE(
      account_->SplitPartition("db", "c", p.number, "7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF").ok());
  auto after = C();
  ASSERT_EQ(after->settings().partitions.partitions().size(), 2u);
  // Each child holds the entries of its own items, in order; together all of them.
  std::vector<std::string> all;
  for (auto& part : Entries()) {
    std::vector<std::string> sorted = part;
    std::vector<std::string> want;
    for (const std::string& id : Expected()) {
      if (std::find(part.begin(), part.end(), id) != part.end()) want.push_back(id);
    }
    EXPECT_EQ(part, want);
    all.insert(all.end(), part.begin(), part.end());
  }
  std::sort(all.begin(), all.end());
  std::vector<std::string> ids = Expected();
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(all, ids);
}

TEST_F(CompositeIndexTest, APolicyChangeBuildsAndDropsCompositeEntries) {
  Open(kPolicyNone);
  for (int i = 0; i < 25; ++i) {
    ASSERT_TRUE(
        Write(WriteKind::kCreate, "i" + std::to_string(i), Model{"p", i % 2, i * 1.0}).ok());
  }
  const auto wait = [&] {
    for (int i = 0; i < 1000; ++i) {
      if (C()->write_state()->index_ready && C()->IndexTransformationProgress() == 100) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  };
  ASSERT_TRUE(
      account_
          ->ReplaceContainer(
              "db", "c",
              J(std::string(
                    R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2},"indexingPolicy":)") +
                kPolicyAB + "}"),
              std::nullopt)
          .ok());
  ASSERT_TRUE(wait());
  EXPECT_EQ(AllEntries(), Expected());

  // The ORDER BY now streams from it: a TOP 3 loads a few items, not all 25.
  auto query = query::Compile("SELECT VALUE c.id FROM c ORDER BY c.a, c.b DESC", {});
  ASSERT_TRUE(query.ok());
  auto top = query::Compile("SELECT TOP 3 VALUE c.id FROM c ORDER BY c.a, c.b DESC", {});
  auto page = C()->Query(**top, C()->FullScope(), 100, "");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  std::vector<std::string> ids;
  for (const std::string& doc : page->documents) ids.push_back(J(doc).as_string());
  std::vector<std::string> want = Expected();
  want.resize(3);
  EXPECT_EQ(ids, want);
  EXPECT_EQ(page->loaded_count, 3u);
  EXPECT_EQ(page->index_utilization.utilized_composite,
            (std::vector<std::vector<std::string>>{{"/a ASC", "/b DESC"}}));

  // Dropped again: the 400, and no entries left behind.
  ASSERT_TRUE(
      account_
          ->ReplaceContainer(
              "db", "c",
              J(std::string(
                    R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2},"indexingPolicy":)") +
                kPolicyNone + "}"),
              std::nullopt)
          .ok());
  ASSERT_TRUE(wait());
  auto refused = C()->Query(**query, C()->FullScope(), 100, "");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            "The order by query does not have a corresponding composite index that it can be "
            "served from.");
}

TEST_F(CompositeIndexTest, EqualityAndRangeLoadOnlyTheMatches) {
  Open(kPolicyAB, 3);
  for (int i = 0; i < 90; ++i) {
    ASSERT_TRUE(Write(WriteKind::kCreate, "i" + std::to_string(i),
                      Model{"p" + std::to_string(i % 7), i % 3, i * 1.0})
                    .ok());
  }
  // b descending in the composite: the range is served all the same.
  for (const auto& [text, lo, hi] : std::vector<std::tuple<const char*, double, double>>{
           {"SELECT VALUE c.id FROM c WHERE c.a = 1 AND c.b > 40", 40.5, 1e9},
           {"SELECT VALUE c.id FROM c WHERE c.a = 1 AND c.b <= 40", -1e9, 40},
           {"SELECT VALUE c.id FROM c WHERE c.a = 1 AND c.b >= 10 AND c.b < 31", 10, 30.5}}) {
    std::set<std::string> want;
    for (const auto& [id, m] : model_) {
      if (m.a == 1 && m.b >= lo && m.b <= hi) want.insert(id);
    }
    auto [ids, loaded] = IdsAndLoaded(text);
    EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()), want) << text;
    EXPECT_EQ(loaded, want.size()) << text;
  }
}

// IN on a leading component: one key range per value (and per combination of several
// INs), so only the matches are loaded; with an ORDER BY the IN leaves its component to
// the stream, which still comes in order.
TEST_F(CompositeIndexTest, InListsLoadOnlyTheMatches) {
  Open(R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"}],
      "compositeIndexes":[[{"path":"/a"},{"path":"/b","order":"descending"}],
                          [{"path":"/pk"},{"path":"/a"},{"path":"/b"}]]})",
       3);
  for (int i = 0; i < 120; ++i) {
    ASSERT_TRUE(Write(WriteKind::kCreate, "i" + std::to_string(i),
                      Model{"p" + std::to_string(i % 4), i % 5, i * 1.0})
                    .ok());
  }
  struct Case {
    std::string where;
    std::function<bool(const Model&)> match;
  };
  const std::vector<Case> cases = {
      {"c.a IN (1, 3) AND c.b > 40",
       [](const Model& m) { return (m.a == 1 || m.a == 3) && m.b > 40; }},
      {"c.a IN (4, 0, 2) AND c.b <= 30", [](const Model& m) { return m.a % 2 == 0 && m.b <= 30; }},
      {"c.pk IN ('p1', 'p3') AND c.a IN (2, 4)",
       [](const Model& m) { return (m.pk == "p1" || m.pk == "p3") && (m.a == 2 || m.a == 4); }},
      {"c.pk IN ('p1', 'p3') AND c.a = 2 AND c.b >= 50",
       [](const Model& m) { return (m.pk == "p1" || m.pk == "p3") && m.a == 2 && m.b >= 50; }},
  };
  for (const Case& c : cases) {
    std::set<std::string> want;
    for (const auto& [id, m] : model_) {
      if (c.match(m)) want.insert(id);
    }
    auto [ids, loaded] = IdsAndLoaded("SELECT VALUE c.id FROM c WHERE " + c.where);
    EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()), want) << c.where;
    EXPECT_EQ(ids.size(), want.size()) << c.where;
    EXPECT_EQ(loaded, want.size()) << c.where;
  }
  // With ORDER BY on the composite: in order, through it.
  auto [ordered, loaded] =
      IdsAndLoaded("SELECT VALUE c.id FROM c WHERE c.a IN (1, 3) ORDER BY c.a, c.b DESC");
  std::vector<std::pair<std::pair<int, double>, std::string>> want;
  for (const auto& [id, m] : model_) {
    if (m.a == 1 || m.a == 3) want.push_back({{m.a, -m.b}, id});
  }
  std::sort(want.begin(), want.end());
  std::vector<std::string> want_ids;
  for (const auto& [key, id] : want) want_ids.push_back(id);
  EXPECT_EQ(ordered, want_ids);
}

// STARTSWITH on the component after the equalities is a range of strings: only the
// matches are loaded, whichever direction the component is declared in; the ORDER BY on
// the composite streams within it.
TEST_F(CompositeIndexTest, EqualityAndStartsWithLoadOnlyTheMatches) {
  for (const char* direction : {"ascending", "descending"}) {
    const std::string policy =
        std::string(R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"}],
        "compositeIndexes":[[{"path":"/a"},{"path":"/s","order":")") +
        direction + R"("}]]})";
    Open(policy.c_str(), 3);
    model_.clear();
    std::map<std::string, std::string> s_of;
    const std::vector<std::string> words = {"apple", "apricot", "ap", "banana", "a", "Apple", "b"};
    for (int i = 0; i < 84; ++i) {
      const std::string id = "i" + std::to_string(i);
      s_of[id] = words[i % words.size()] + std::to_string(i % 5);
      ASSERT_TRUE(Write(WriteKind::kCreate, id, Model{"p" + std::to_string(i % 7), i % 3, i * 1.0},
                        R"(,"s":")" + s_of[id] + '"')
                      .ok());
    }
    for (const std::string prefix : {"ap", "apr", "a", "b", "z"}) {
      std::vector<std::pair<std::string, std::string>> want;  // (s, id) of the matches
      for (const auto& [id, m] : model_) {
        if (m.a == 1 && s_of[id].starts_with(prefix)) want.emplace_back(s_of[id], id);
      }
      std::sort(want.begin(), want.end());
      const std::string filter =
          "FROM c WHERE c.a = 1 AND STARTSWITH(c.s, \"" + std::string(prefix) + "\")";
      auto query = query::Compile("SELECT VALUE c.id " + filter, {});
      ASSERT_TRUE(query.ok());
      auto page = C()->Query(**query, C()->FullScope(), 1000, "");
      ASSERT_TRUE(page.ok()) << page.status().ToString();
      std::set<std::string> ids;
      for (const std::string& doc : page->documents) ids.insert(J(doc).as_string());
      std::set<std::string> want_ids;
      for (const auto& [text, id] : want) want_ids.insert(id);
      EXPECT_EQ(ids, want_ids) << prefix << " " << direction;
      EXPECT_EQ(page->loaded_count, want.size()) << prefix << " " << direction;
      // In the composite's order, through it.
      const std::string order = std::string(direction) == "ascending" ? "ASC" : "DESC";
      auto ordered =
          query::Compile("SELECT VALUE c.s " + filter + " ORDER BY c.a, c.s " + order, {});
      ASSERT_TRUE(ordered.ok());
      auto rows = C()->Query(**ordered, C()->FullScope(), 1000, "");
      ASSERT_TRUE(rows.ok()) << rows.status().ToString();
      std::vector<std::string> got;
      for (const std::string& doc : rows->documents) got.push_back(J(doc).as_string());
      std::vector<std::string> want_order;
      for (const auto& [text, id] : want) want_order.push_back(text);
      if (order == "DESC") std::reverse(want_order.begin(), want_order.end());
      EXPECT_EQ(got, want_order) << prefix << " " << direction;
      EXPECT_EQ(rows->loaded_count, want.size()) << prefix << " " << direction;
    }
  }
}

}  // namespace
}  // namespace orrery::engine
