// Paging through large query results: every page resumes where the last ended
// (continuation_token.h), so that reading N rows in pages reads about N items in all,
// writes between pages neither repeat nor drop unchanged rows, and a page cut short by
// the time budget still resumes exactly. Expected rows come from the test's own data.

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "common/encoding.h"
#include "engine/account.h"
#include "engine/continuation_token.h"
#include "engine/query_page_budget.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

constexpr int kItems = 3000;
constexpr int kTeams = 37;

struct Paged {
  std::vector<std::string> rows;  // JSON texts
  size_t pages = 0;
  size_t loaded = 0;
  size_t most_loaded_by_a_page = 0;
};

class QueryPagingTest : public ::testing::Test {
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
    // n is a permutation of 0..kItems-1, so creation order and n order differ.
    std::vector<int> n(kItems);
    for (int i = 0; i < kItems; ++i) n[i] = i;
    std::shuffle(n.begin(), n.end(), std::mt19937(7));
    for (int i = 0; i < kItems; ++i) {
      Write("item" + std::to_string(i), "p" + std::to_string(i % 50), std::to_string(n[i]),
            "t" + std::to_string((i * 7) % kTeams));
      n_of_["item" + std::to_string(i)] = n[i];
      team_of_["item" + std::to_string(i)] = "t" + std::to_string((i * 7) % kTeams);
    }
  }

  void TearDown() override { SetQueryPageTimeBudget(kServiceQueryPageTime); }

  // Creates an empty container `id` (4 partitions) and makes it the one Write and Page use.
  bool UseNewContainer(const std::string& id) {
    const std::string body = R"({"id":")" + id + R"(","partitionKey":{"paths":["/pk"]}})";
    if (!account_->CreateContainer("db", J(body), {}).ok()) return false;
    container_ = *account_->GetContainer("db", id);
    return true;
  }

  void Write(const std::string& id, const std::string& pk, const std::string& n,
             const std::string& team) {
    ItemWriteRequest r;
    r.partition_key = {partition::PartitionKeyComponent::String(pk)};
    std::string body = R"({"id":")" + id + R"(","pk":")" + pk + R"(","team":")" + team + '"';
    if (!n.empty()) body += R"(,"n":)" + n;
    body += "}";
    bodies_.push_back(std::move(body));
    r.body = bodies_.back();
    r.kind = WriteKind::kUpsert;
    ASSERT_TRUE(container_->WriteItem(r).ok());
  }

  Result<FeedPage> Page(std::string_view text, int max_items, const std::string& token) {
    auto query = query::Compile(text, {});
    EXPECT_TRUE(query.ok()) << query.status().ToString();
    return container_->Query(**query, container_->FullScope(), max_items, token);
  }

  // Reads every page; `between` runs after each page but the last.
  Paged All(std::string_view text, int max_items,
            const std::function<void(size_t page)>& between = nullptr) {
    Paged out;
    std::string token;
    do {
      Result<FeedPage> page = Page(text, max_items, token);
      EXPECT_TRUE(page.ok()) << page.status().ToString();
      if (!page.ok()) break;
      EXPECT_LE(page->documents.size(), static_cast<size_t>(max_items));
      out.rows.insert(out.rows.end(), page->documents.begin(), page->documents.end());
      out.loaded += page->loaded_count;
      out.most_loaded_by_a_page = std::max(out.most_loaded_by_a_page, page->loaded_count);
      ++out.pages;
      token = page->continuation.value_or("");
      if (!token.empty() && between) between(out.pages);
    } while (!token.empty() && out.pages < 100000);
    return out;
  }

  static std::vector<std::string> Ids(const std::vector<std::string>& rows) {
    std::vector<std::string> ids;
    for (const std::string& row : rows) ids.push_back(J(row).Find("id")->as_string());
    return ids;
  }

  // The ids in n order, computed here.
  std::vector<std::string> IdsByN(bool descending) const {
    std::vector<std::pair<int, std::string>> byn;
    for (const auto& [id, n] : n_of_) byn.emplace_back(n, id);
    std::sort(byn.begin(), byn.end());
    if (descending) std::reverse(byn.begin(), byn.end());
    std::vector<std::string> ids;
    for (const auto& [n, id] : byn) ids.push_back(id);
    return ids;
  }

  std::unique_ptr<Account> account_;
  std::shared_ptr<Container> container_;
  std::deque<std::string> bodies_;
  std::map<std::string, int> n_of_;
  std::map<std::string, std::string> team_of_;
};

TEST_F(QueryPagingTest, OrderByPagesResumeThroughTheIndexAndReadEachItemAboutOnce) {
  for (const bool descending : {false, true}) {
    SCOPED_TRACE(descending ? "DESC" : "ASC");
    const Paged paged =
        All(descending ? "SELECT c.id FROM c ORDER BY c.n DESC" : "SELECT c.id FROM c ORDER BY c.n",
            100);
    EXPECT_EQ(Ids(paged.rows), IdsByN(descending));
    EXPECT_EQ(paged.pages, static_cast<size_t>(kItems / 100));
    // Starting over on every page would read ~kItems * pages / 2 = 45,000 items. Each
    // page reads ahead up to a chunk in each of the 4 partitions (and reads it again on
    // the next page); ascending order reads every item once more, to find those
    // without n.
    EXPECT_LE(paged.loaded, static_cast<size_t>(descending ? 3 : 4) * kItems);
  }
}

TEST_F(QueryPagingTest, OrderByPagesHoldItemsWithoutTheKeyFirstAscendingAndLastDescending) {
  Write("no-n-1", "p1", "", "t1");
  Write("no-n-2", "p2", "", "t1");
  const std::vector<std::string> ascending = Ids(All("SELECT c.id FROM c ORDER BY c.n", 7).rows);
  ASSERT_EQ(ascending.size(), static_cast<size_t>(kItems + 2));
  EXPECT_EQ(std::set<std::string>(ascending.begin(), ascending.begin() + 2),
            (std::set<std::string>{"no-n-1", "no-n-2"}));
  EXPECT_EQ(std::vector<std::string>(ascending.begin() + 2, ascending.end()), IdsByN(false));
  const std::vector<std::string> descending =
      Ids(All("SELECT c.id FROM c ORDER BY c.n DESC", 7).rows);
  ASSERT_EQ(descending.size(), static_cast<size_t>(kItems + 2));
  EXPECT_EQ(std::vector<std::string>(descending.begin(), descending.end() - 2), IdsByN(true));
  EXPECT_EQ(std::set<std::string>(descending.end() - 2, descending.end()),
            (std::set<std::string>{"no-n-1", "no-n-2"}));
}

// Page boundaries among the items without n (not in the index under the default
// policy, found by a scan): across partitions the token's item key belongs to one
// physical partition and every partition resumes from it; descending, each partition
// gathers its items without n from its start. Every item comes exactly once.
TEST_F(QueryPagingTest, PagesEndingAmongItemsWithoutTheKeyResumeInEveryPartition) {
  std::set<std::string> without;
  for (int i = 0; i < 40; ++i) {
    const std::string id = "no-n-" + std::to_string(i);
    Write(id, "p" + std::to_string(i % 50), "", "t1");
    without.insert(id);
  }
  for (const bool descending : {false, true}) {
    SCOPED_TRACE(descending ? "DESC" : "ASC");
    const std::vector<std::string> ids = Ids(
        All(descending ? "SELECT c.id FROM c ORDER BY c.n DESC" : "SELECT c.id FROM c ORDER BY c.n",
            3)
            .rows);
    ASSERT_EQ(ids.size(), static_cast<size_t>(kItems) + without.size());
    const auto split = descending ? ids.end() - without.size() : ids.begin() + without.size();
    const std::vector<std::string> undefined_part =
        descending ? std::vector<std::string>(split, ids.end())
                   : std::vector<std::string>(ids.begin(), split);
    EXPECT_EQ(std::set<std::string>(undefined_part.begin(), undefined_part.end()), without);
    EXPECT_EQ(undefined_part.size(), without.size());
    const std::vector<std::string> defined_part = descending
                                                      ? std::vector<std::string>(ids.begin(), split)
                                                      : std::vector<std::string>(split, ids.end());
    EXPECT_EQ(defined_part, IdsByN(descending));
  }
}

// A page asked for every row and cut short by its size reads about what it returns
// (each partition reads ahead a bounded chunk), not every item left.
TEST_F(QueryPagingTest, APageCutByItsSizeReadsAboutWhatItReturns) {
  const std::string pad(5000, 'x');
  for (int i = 0; i < 3000; ++i) {
    ItemWriteRequest r;
    r.partition_key = {partition::PartitionKeyComponent::String("p" + std::to_string(i % 50))};
    bodies_.push_back(R"({"id":"big)" + std::to_string(i) + R"(","pk":"p)" +
                      std::to_string(i % 50) + R"(","n":)" + std::to_string(kItems + i) +
                      R"(,"pad":")" + pad + "\"}");
    r.body = bodies_.back();
    r.kind = WriteKind::kUpsert;
    ASSERT_TRUE(container_->WriteItem(r).ok());
  }
  std::string token;
  size_t pages = 0;
  size_t rows = 0;
  do {
    Result<FeedPage> page = Page("SELECT * FROM c ORDER BY c.n DESC", 1000000, token);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    ++pages;
    rows += page->documents.size();
    token = page->continuation.value_or("");
    // 4 partitions, each at most one chunk (256 rows) ahead. (The last page also scans
    // every item for those without n, which come last: not in the index.)
    if (!token.empty()) {
      EXPECT_LE(page->loaded_count, page->documents.size() + 4 * 256 + 4) << "page " << pages;
    }
  } while (!token.empty() && pages < 100);
  EXPECT_EQ(rows, static_cast<size_t>(kItems + 3000));
  EXPECT_GE(pages, 3u);  // 15 MB of items in pages of at most 4 MB
}

TEST_F(QueryPagingTest, WritesBetweenOrderByPagesNeitherRepeatNorDropUnchangedRows) {
  std::set<std::string> changed;
  int next = 0;
  const Paged paged = All("SELECT c.id, c.n FROM c ORDER BY c.n", 100, [&](size_t page) {
    // Behind the position (n below what was returned), ahead of it, and a move of
    // an item not yet returned to behind the position.
    const std::string behind = "new-behind-" + std::to_string(next);
    const std::string ahead = "new-ahead-" + std::to_string(next++);
    Write(behind, "p3", "-1", "t1");
    Write(ahead, "p4", std::to_string(kItems + next), "t1");
    changed.insert(behind);
    changed.insert(ahead);
    const std::string moved = IdsByN(false)[std::min<size_t>(page * 100 + 50, kItems - 1)];
    Write(moved, "p" + std::to_string(std::stoi(moved.substr(4)) % 50), "-2", team_of_[moved]);
    changed.insert(moved);
  });
  std::map<std::string, int> seen;
  int last_n = -1000;
  for (const std::string& row : paged.rows) {
    const json::Value value = J(row);
    ++seen[value.Find("id")->as_string()];
    const int n = static_cast<int>(value.Find("n")->as_double());
    EXPECT_GE(n, last_n) << "rows out of order";
    last_n = n;
  }
  for (const auto& [id, count] : seen) EXPECT_EQ(count, 1) << id << " returned twice";
  for (const auto& [id, n] : n_of_) {
    if (changed.count(id) == 0) {
      EXPECT_EQ(seen.count(id), 1u) << id << " (unchanged) skipped";
    }
  }
  // Items written ahead of the position are found; those behind it are not.
  EXPECT_EQ(seen.count("new-ahead-0"), 1u);
  EXPECT_EQ(seen.count("new-behind-0"), 0u);
}

TEST_F(QueryPagingTest, GroupByPagesReturnEachGroupOnceInKeyOrder) {
  std::map<std::string, int> expected;  // team -> count, in key order
  for (const auto& [id, team] : team_of_) ++expected[team];
  for (const std::string text : {"SELECT c.team, COUNT(1) AS n FROM c GROUP BY c.team",
                                 "SELECT DISTINCT VALUE c.team FROM c"}) {
    SCOPED_TRACE(text);
    const bool distinct = text.find("DISTINCT") != std::string::npos;
    const Paged paged = All(text, 5);
    std::vector<std::string> got;
    for (const std::string& row : paged.rows) {
      const json::Value value = J(row);
      if (distinct) {
        got.push_back(value.as_string());
      } else {
        got.push_back(value.Find("team")->as_string());
        EXPECT_EQ(value.Find("n")->as_double(), expected[got.back()]) << got.back();
      }
    }
    std::vector<std::string> teams;
    for (const auto& [team, count] : expected) teams.push_back(team);
    EXPECT_EQ(got, teams);
    EXPECT_EQ(paged.pages, static_cast<size_t>((kTeams + 4) / 5));
    // Recomputing every group for each page would read kItems items per page.
    EXPECT_LE(paged.loaded, static_cast<size_t>(2.5 * kItems));
  }
}

// Each group in one logical partition, so in one physical partition: a page must not
// load a page of groups from every partition only to keep the first of them.
TEST_F(QueryPagingTest, AGroupPageLoadsTheItemsOfItsOwnGroupsOnly) {
  ASSERT_TRUE(UseNewContainer("g"));
  constexpr int kGroups = 200;
  constexpr int kPerGroup = 10;
  std::map<std::string, int> expected;
  for (int i = 0; i < kGroups * kPerGroup; ++i) {
    char team[8];
    std::snprintf(team, sizeof team, "t%03d", i % kGroups);
    Write("g" + std::to_string(i), std::string("p") + team, std::to_string(i), team);
    ++expected[team];
  }
  ASSERT_EQ(container_->settings().partitions.partitions().size(), 4u);
  constexpr int kPage = 20;
  const Paged paged = All("SELECT c.team, COUNT(1) AS n FROM c GROUP BY c.team", kPage);
  std::map<std::string, int> got;
  std::vector<std::string> order;
  for (const std::string& row : paged.rows) {
    const json::Value value = J(row);
    order.push_back(value.Find("team")->as_string());
    got[order.back()] = static_cast<int>(value.Find("n")->as_double());
  }
  EXPECT_EQ(got, expected);
  EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));
  EXPECT_EQ(order.size(), expected.size());
  // A page reads its groups and the one after (which tells that another page follows),
  // and in each partition the first item past them: 21 groups of 10 and 4 items, where a
  // page of groups from each of the 4 partitions would be 840.
  const size_t bound = (kPage + 1) * kPerGroup + 4;
  EXPECT_LE(paged.most_loaded_by_a_page, bound);
  const Paged distinct = All("SELECT DISTINCT VALUE c.team FROM c", kPage);
  EXPECT_EQ(distinct.rows.size(), expected.size());
  EXPECT_LE(distinct.most_loaded_by_a_page, bound);
}

// DISTINCT ordered by its own path, either way (and as the SDK rewrites it): each page
// resumes after the last value, so paging reads the items about once, where recomputing
// every value for each page reads kItems items per page.
TEST_F(QueryPagingTest, DistinctOrderedByItsPathPagesThroughEachValueOnce) {
  std::set<std::string> teams;
  for (const auto& [id, team] : team_of_) teams.insert(team);
  const std::vector<std::string> ascending(teams.begin(), teams.end());
  const std::vector<std::string> descending(teams.rbegin(), teams.rend());
  const struct {
    const char* text;
    const std::vector<std::string>* expected;
    bool rewritten;
  } cases[] = {
      {"SELECT DISTINCT VALUE c.team FROM c ORDER BY c.team", &ascending, false},
      {"SELECT DISTINCT VALUE c.team FROM c ORDER BY c.team DESC", &descending, false},
      {"SELECT DISTINCT [{\"item\": c.team}] AS orderByItems, c.team AS payload FROM c "
       "WHERE IS_DEFINED(c.team) ORDER BY c.team DESC",
       &descending, true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    const Paged paged = All(c.text, 5);
    std::vector<std::string> got;
    for (const std::string& row : paged.rows) {
      const json::Value value = J(row);
      got.push_back(c.rewritten ? value.Find("payload")->as_string() : value.as_string());
    }
    EXPECT_EQ(got, *c.expected);
    EXPECT_EQ(paged.pages, static_cast<size_t>((kTeams + 4) / 5));
    EXPECT_LE(paged.loaded, static_cast<size_t>(2.5 * kItems));
  }
}

// ORDER BY the alias of a JOIN over an array: rows stream through the array's index
// entries, resumed after (or among the equal elements of) the last row. Equal elements
// of one item split across pages; no page holds more than max-item-count rows.
TEST_F(QueryPagingTest, OrderByAJoinAliasPagesThroughTheElementsIndex) {
  ASSERT_TRUE(UseNewContainer("tags"));
  constexpr int kTagged = 600;
  std::vector<std::pair<int, std::string>> expected;  // (element, id), computed here
  for (int i = 0; i < kTagged; ++i) {
    const std::string id = "t" + std::to_string(i);
    // Three elements, the first two equal: (i * 7) % 500 twice, and i + 1000.
    const int a = (i * 7) % 500;
    const std::string body = R"({"id":")" + id + R"(","pk":"p)" + std::to_string(i % 30) +
                             R"(","tags":[)" + std::to_string(a) + "," + std::to_string(a) + "," +
                             std::to_string(i + 1000) + "]}";
    bodies_.push_back(body);
    ItemWriteRequest r;
    r.partition_key = {partition::PartitionKeyComponent::String("p" + std::to_string(i % 30))};
    r.body = bodies_.back();
    r.kind = WriteKind::kUpsert;
    ASSERT_TRUE(container_->WriteItem(r).ok());
    expected.emplace_back(a, id);
    expected.emplace_back(a, id);
    expected.emplace_back(i + 1000, id);
  }
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const int page_size : {1, 2, 25}) {
    SCOPED_TRACE(page_size);
    const Paged paged = All("SELECT VALUE [t, c.id] FROM c JOIN t IN c.tags ORDER BY t", page_size);
    ASSERT_EQ(paged.rows.size(), expected.size());
    std::multiset<std::pair<int, std::string>> got_at_value;
    int previous = -1;
    for (const std::string& row : paged.rows) {
      const json::Value value = J(row);
      const int element = static_cast<int>(value.as_array()[0].as_double());
      EXPECT_GE(element, previous);
      previous = element;
      got_at_value.emplace(element, value.as_array()[1].as_string());
    }
    const std::multiset<std::pair<int, std::string>> all(expected.begin(), expected.end());
    EXPECT_EQ(got_at_value, all);
    // Each item is met at each of its 2 distinct elements, and a page reads ahead a
    // chunk in each of the 4 partitions; recomputing every row for each page would load
    // all kTagged items per page.
    EXPECT_LE(paged.loaded, static_cast<size_t>(2 * kTagged + 40 * paged.pages));
  }
}

// WHERE <equality> ORDER BY <one key>: an equality most items match streams through the
// ORDER BY path and resumes; a narrow one is still sought. Both answer the same rows.
TEST_F(QueryPagingTest, AnEqualityMostItemsMatchStreamsInOrderByOrder) {
  ASSERT_TRUE(UseNewContainer("eq"));
  constexpr int kCount = 2000;
  std::vector<std::pair<int, std::string>> broad;  // (n, id) of team t1
  for (int i = 0; i < kCount; ++i) {
    const int n = (i * 7919) % kCount;
    const std::string id = "e" + std::to_string(i);
    Write(id, "p" + std::to_string(i % 50), std::to_string(n), i % 2 ? "t1" : "t0");
    if (i % 2) broad.emplace_back(n, id);
  }
  std::sort(broad.begin(), broad.end());
  std::vector<std::string> expected;
  for (const auto& [n, id] : broad) expected.push_back('"' + id + '"');
  const Paged paged = All("SELECT VALUE c.id FROM c WHERE c.team = 't1' ORDER BY c.n", 20);
  EXPECT_EQ(paged.rows, expected);
  // Seeking the 1,000 matches on each of 50 pages loads 50,000 items; streaming reads
  // each item about as often as an ORDER BY without the filter does across 4 partitions
  // (OrderByPagesResumeThroughTheIndexAndReadEachItemAboutOnce).
  EXPECT_LE(paged.loaded, static_cast<size_t>(4 * kCount));
  // Descending too.
  const Paged descending =
      All("SELECT VALUE c.id FROM c WHERE c.team = 't1' ORDER BY c.n DESC", 20);
  EXPECT_EQ(descending.rows, std::vector<std::string>(expected.rbegin(), expected.rend()));
  EXPECT_LE(descending.loaded, static_cast<size_t>(4 * kCount));
  // One match: sought, not streamed through every item.
  const Paged narrow = All("SELECT VALUE c.id FROM c WHERE c.id = 'e7' ORDER BY c.n", 20);
  EXPECT_EQ(narrow.rows, std::vector<std::string>{"\"e7\""});
  EXPECT_LE(narrow.loaded, 1u);
}

// GROUP BY on several keys and DISTINCT of several values stream by the first item path
// among them: each group or distinct row comes once, and the pages together read each
// item about once instead of every item for every page.
TEST_F(QueryPagingTest, SeveralGroupKeysStreamByAnItemPathAmongThem) {
  std::map<std::pair<std::string, bool>, int> expected;  // (team, n is even) -> count
  for (const auto& [id, team] : team_of_) ++expected[{team, n_of_[id] % 2 == 0}];
  const Paged paged = All(
      "SELECT c.team, c.n % 2 = 0 AS even, COUNT(1) AS cnt FROM c GROUP BY c.team, c.n % 2 = 0", 5);
  std::map<std::pair<std::string, bool>, int> got;
  for (const std::string& row : paged.rows) {
    const json::Value value = J(row);
    const auto key = std::make_pair(value.Find("team")->as_string(), value.Find("even")->as_bool());
    EXPECT_EQ(got.count(key), 0u) << row;
    got[key] = static_cast<int>(value.Find("cnt")->as_double());
  }
  EXPECT_EQ(got, expected);
  EXPECT_GT(paged.pages, 10u);
  EXPECT_LE(paged.loaded, static_cast<size_t>(2.5 * kItems));

  std::set<std::string> distinct_expected;
  for (const auto& [key, count] : expected) {
    distinct_expected.insert(key.first + (key.second ? "/even" : "/odd"));
  }
  const Paged distinct = All("SELECT DISTINCT c.n % 2 = 0 AS even, c.team FROM c", 5);
  std::set<std::string> distinct_got;
  for (const std::string& row : distinct.rows) {
    const json::Value value = J(row);
    const std::string key =
        value.Find("team")->as_string() + (value.Find("even")->as_bool() ? "/even" : "/odd");
    EXPECT_TRUE(distinct_got.insert(key).second) << key << " twice";
  }
  EXPECT_EQ(distinct_got, distinct_expected);
  EXPECT_LE(distinct.loaded, static_cast<size_t>(2.5 * kItems));
}

TEST_F(QueryPagingTest, OffsetAndLimitStreamAcrossPages) {
  const Paged paged = All("SELECT c.id FROM c OFFSET 1000 LIMIT 1500", 100);
  EXPECT_EQ(paged.rows.size(), 1500u);
  const Paged all = All("SELECT c.id FROM c", 1000);
  ASSERT_EQ(all.rows.size(), static_cast<size_t>(kItems));
  EXPECT_EQ(paged.rows, std::vector<std::string>(all.rows.begin() + 1000, all.rows.begin() + 2500));
  // Skipped rows are read once, not once per page.
  EXPECT_LE(paged.loaded, static_cast<size_t>(kItems));
  // ORDER BY with OFFSET: the same rows as the whole order, cut here.
  const std::vector<std::string> ordered =
      Ids(All("SELECT c.id FROM c ORDER BY c.n DESC OFFSET 10 LIMIT 250", 100).rows);
  const std::vector<std::string> by_n = IdsByN(true);
  EXPECT_EQ(ordered, std::vector<std::string>(by_n.begin() + 10, by_n.begin() + 260));
}

TEST_F(QueryPagingTest, APageOutOfTimeEndsEarlyAndResumesExactly) {
  SetQueryPageTimeBudget(std::chrono::milliseconds(0));
  const Paged ordered = All("SELECT c.id FROM c ORDER BY c.n DESC", 100);
  EXPECT_EQ(Ids(ordered.rows), IdsByN(true));
  EXPECT_GT(ordered.pages, static_cast<size_t>(kItems / 100));
  const Paged scan = All("SELECT c.id FROM c WHERE c.n >= 0", 100);
  EXPECT_EQ(scan.rows.size(), static_cast<size_t>(kItems));
  EXPECT_EQ(std::set<std::string>(scan.rows.begin(), scan.rows.end()).size(),
            static_cast<size_t>(kItems));
  const Paged groups = All("SELECT DISTINCT VALUE c.team FROM c", 100);
  EXPECT_EQ(groups.rows.size(), static_cast<size_t>(kTeams));
}

// A filter no index serves, under a page time of 0: each page reads each partition a
// little, most of them find nothing, and partitions stop at different places. A page
// ends where every partition is done, so none loses rows to another that read further;
// and a partition read whole in key order (rows then sorted by creation) gives way to
// the walk in creation order that a page may end anywhere in.
TEST_F(QueryPagingTest, APageOutOfTimeLosesNoRowOfAPartitionThatReadLess) {
  SetQueryPageTimeBudget(std::chrono::milliseconds(0));
  std::vector<std::string> expected;  // team t3 in n order, descending, computed here
  for (const std::string& id : IdsByN(true)) {
    if (team_of_.at(id) == "t3") expected.push_back(id);
  }
  const Paged ordered =
      All(R"(SELECT c.id FROM c WHERE LOWER(c.team) = "t3" ORDER BY c.n DESC)", 100);
  EXPECT_EQ(Ids(ordered.rows), expected);
  const Paged scan = All(R"(SELECT c.id FROM c WHERE LOWER(c.team) = "t3")", 100);
  std::vector<std::string> scanned = Ids(scan.rows);
  std::sort(scanned.begin(), scanned.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(scanned, expected);
  // Cut by time: many more pages than the rows need.
  EXPECT_GT(scan.pages, expected.size() / 100 + 4);
}

// GROUP BY over an expression: no index orders its groups, so the first page evaluates
// the query whole and keeps the rest of the result (result_cursors.h); every later page
// reads from what was kept, and sees the result as of the first page.
TEST_F(QueryPagingTest, GroupsOfAnExpressionAreEvaluatedOnceAndLaterPagesReadNothing) {
  const std::string text =
      "SELECT LOWER(c.team) AS team, COUNT(1) AS cnt FROM c GROUP BY LOWER(c.team)";
  // Expected groups, computed here from the written data.
  std::map<std::string, int> expected;
  for (const auto& [id, team] : team_of_) ++expected[team];
  const Paged paged = All(text, 5, [&](size_t page) {
    // Writes between pages: new items of a new team and of an existing one.
    Write("late" + std::to_string(page), "p1", "", page % 2 == 0 ? "t0" : "zz-late");
  });
  EXPECT_EQ(paged.pages, (expected.size() + 4) / 5);
  // Only the first page read items: each item once in all.
  EXPECT_EQ(paged.loaded, static_cast<size_t>(kItems));
  EXPECT_EQ(paged.most_loaded_by_a_page, static_cast<size_t>(kItems));
  std::map<std::string, int> got;
  for (const std::string& row : paged.rows) {
    const json::Value value = J(row);
    EXPECT_TRUE(
        got.emplace(value.Find("team")->as_string(), static_cast<int>(value.Find("cnt")->as_int()))
            .second)
        << "group returned twice: " << row;
  }
  // The writes between pages changed nothing the pages returned: one point in time.
  EXPECT_EQ(got, expected);
}

TEST_F(QueryPagingTest, DistinctOfAnExpressionPagesThroughTheResultOfTheFirstPage) {
  const std::string text = "SELECT DISTINCT VALUE c.n % 100 FROM c";
  const Paged whole = All(text, 1000);
  ASSERT_EQ(whole.rows.size(), 100u);
  const Paged paged = All(text, 7);
  EXPECT_EQ(paged.rows, whole.rows);
  EXPECT_EQ(paged.loaded, static_cast<size_t>(kItems));
  std::set<int> values;
  for (const std::string& row : paged.rows) values.insert(static_cast<int>(J(row).as_int()));
  EXPECT_EQ(values.size(), 100u);
  EXPECT_EQ(*values.begin(), 0);
  EXPECT_EQ(*values.rbegin(), 99);
}

// The kept result is served only to the query it was kept for: the token of one query
// given with another of the same shape evaluates that other query, as if nothing had been
// kept (a token names an offset into the result, which any such query can resume).
TEST_F(QueryPagingTest, AKeptResultIsNotServedToAnotherQuery) {
  Result<FeedPage> first = Page("SELECT DISTINCT VALUE c.n % 10 FROM c", 4, "");
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(first->continuation);
  Result<FeedPage> other = Page("SELECT DISTINCT VALUE c.n % 20 FROM c", 4, *first->continuation);
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  EXPECT_EQ(other->loaded_count, static_cast<size_t>(kItems));
  const Paged whole = All("SELECT DISTINCT VALUE c.n % 20 FROM c", 1000);
  ASSERT_EQ(whole.rows.size(), 20u);
  EXPECT_EQ(other->documents,
            std::vector<std::string>(whole.rows.begin() + 4, whole.rows.begin() + 8));
  // The same query reads the kept rows.
  Result<FeedPage> same = Page("SELECT DISTINCT VALUE c.n % 10 FROM c", 4, *first->continuation);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->loaded_count, 0u);
  EXPECT_EQ(same->documents.size(), 4u);
}

// A filter served by index lookups gives item keys, not creation numbers: a few hundred
// matches among many items are numbered by reading them, thousands are found by walking
// the creation lists. Either way the pages return each match once, in creation order
// within each logical partition (the order computed here from the writes).
TEST_F(QueryPagingTest, IndexMatchesComeInCreationOrderWhetherNumberedOrWalked) {
  ASSERT_TRUE(UseNewContainer("many"));
  constexpr int kMany = 12000;
  std::map<std::string, std::vector<std::string>> written_by_pk;
  for (int i = 0; i < kMany; ++i) {
    const std::string id = "m" + std::to_string(i);
    const std::string pk = "p" + std::to_string((i * 7) % 31);
    Write(id, pk, std::to_string(i % 20), "t");
    written_by_pk[pk].push_back(id);
  }
  // 600 matches (numbered: 600 reads cost less than a walk of 12,000 entries) and 6,000
  // (walked).
  const std::vector<std::pair<std::string, std::function<bool(int)>>> filters{
      {"c.n = 1", [](int n) { return n == 1; }}, {"c.n < 10", [](int n) { return n < 10; }}};
  for (const auto& [where, matches] : filters) {
    const Paged paged = All("SELECT c.id, c.pk FROM c WHERE " + where, 100);
    std::map<std::string, std::vector<std::string>> got_by_pk;
    std::set<std::string> seen;
    for (const std::string& row : paged.rows) {
      const json::Value value = J(row);
      const std::string id = value.Find("id")->as_string();
      EXPECT_TRUE(seen.insert(id).second) << id << " returned twice";
      got_by_pk[value.Find("pk")->as_string()].push_back(id);
    }
    size_t expected_count = 0;
    for (int i = 0; i < kMany; ++i) expected_count += matches(i % 20) ? 1 : 0;
    EXPECT_EQ(seen.size(), expected_count) << where;
    for (const auto& [pk, ids] : got_by_pk) {
      std::vector<std::string> expected;
      for (const std::string& id : written_by_pk[pk]) {
        if (matches(std::stoi(id.substr(1)) % 20)) expected.push_back(id);
      }
      EXPECT_EQ(ids, expected) << where << " in " << pk;
    }
  }
}

// A JOIN gives an item more rows than a page holds: the page ends among them and the next
// starts at the row after, in creation order and in the key order of a store that lists no
// creation order (one opened read-only from before the lists). No page is over its size.
TEST_F(QueryPagingTest, JoinRowsOfOneItemSpanPagesInCreationAndInKeyOrder) {
  ASSERT_TRUE(UseNewContainer("joins"));
  std::vector<std::string> expected;
  for (int k = 0; k < 5; ++k) {
    const std::string id = "j" + std::to_string(k);
    std::string tags;
    for (int t = 0; t < 2 * k + 1; ++t) {
      tags += (t ? "," : "") + std::string("\"") + id + "-" + std::to_string(t) + "\"";
      expected.push_back(R"([")" + id + R"(",")" + id + "-" + std::to_string(t) + R"("])");
    }
    ItemWriteRequest r;
    r.partition_key = {partition::PartitionKeyComponent::String("p" + std::to_string(k % 2))};
    bodies_.push_back(R"({"id":")" + id + R"(","pk":"p)" + std::to_string(k % 2) + R"(","tags":[)" +
                      tags + "]}");
    r.body = bodies_.back();
    r.kind = WriteKind::kCreate;
    ASSERT_TRUE(container_->WriteItem(r).ok());
  }
  std::sort(expected.begin(), expected.end());
  for (const bool kept : {true, false}) {
    container_->write_state()->creation_order_kept.store(kept);
    for (const int page_size : {1, 4, 6}) {
      const Paged paged = All("SELECT VALUE [c.id, t] FROM c JOIN t IN c.tags", page_size);
      std::vector<std::string> rows = paged.rows;
      std::sort(rows.begin(), rows.end());
      EXPECT_EQ(rows, expected) << "creation order kept: " << kept << ", page " << page_size;
      EXPECT_EQ(paged.pages, (expected.size() + page_size - 1) / page_size)
          << "every page but the last is full; kept " << kept << ", page " << page_size;
    }
  }
}

TEST_F(QueryPagingTest, TokensAlteredFromAnotherQueryOrAnEarlierVersionAreRefused) {
  Result<FeedPage> first = Page("SELECT c.id FROM c ORDER BY c.n", 10, "");
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(first->continuation);
  // One character of the position changed (the token stays valid base64).
  std::string raw = *Base64Decode(*first->continuation);
  raw[3] = raw[3] == '1' ? '2' : '1';
  Result<FeedPage> altered = Page("SELECT c.id FROM c ORDER BY c.n", 10, Base64Encode(raw));
  ASSERT_FALSE(altered.ok());
  EXPECT_EQ(altered.status().code(), StatusCode::kBadRequest);
  EXPECT_NE(altered.status().message().find("altered"), std::string::npos)
      << altered.status().message();
  // The offset token an earlier Orrery gave.
  Result<FeedPage> earlier = Page("SELECT c.id FROM c ORDER BY c.n", 10, Base64Encode("O10"));
  ASSERT_FALSE(earlier.ok());
  EXPECT_NE(earlier.status().message().find("earlier version"), std::string::npos)
      << earlier.status().message();
  // A valid token of another query shape.
  Result<FeedPage> other =
      Page("SELECT c.team, COUNT(1) AS n FROM c GROUP BY c.team", 10, *first->continuation);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("another query"), std::string::npos)
      << other.status().message();
}

}  // namespace
}  // namespace orrery::engine
