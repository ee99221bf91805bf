// The full-text inverted index (full_text_index.h): its entries follow every write, and
// FullTextContains, FullTextContainsAll and FullTextContainsAny read the items of one
// stem instead of every item, with the answers a model of the texts computes here.

#include "engine/full_text_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "engine/account.h"
#include "index/index_key.h"
#include "json/json.h"
#include "query/query.h"

namespace orrery::engine {
namespace {

using partition::PartitionKeyComponent;

json::Value J(std::string_view text) { return *json::Parse(text); }

// Words that are not stop words and are their own Snowball English stems, so that the
// model below can match words by equality.
const std::vector<std::string> kWords = {"red",  "blue", "car",  "tree", "lamp", "fish",
                                         "door", "moon", "star", "ship", "bird", "rock"};

constexpr const char* kFullTextPolicy =
    R"("fullTextPolicy":{"defaultLanguage":"en-US","fullTextPaths":[
        {"path":"/text","language":"en-US"},{"path":"/de","language":"de-DE"}]},)";
constexpr const char* kIndexed =
    R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"}],
        "fullTextIndexes":[{"path":"/text"},{"path":"/de"}]})";
constexpr const char* kNotIndexed =
    R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"}]})";

struct Outcome {
  std::set<std::string> ids;
  size_t loaded = 0;
};

class FullTextIndexTest : public ::testing::Test {
 protected:
  void Open(const char* policy, int partitions = 1) {
    AccountOptions options;
    options.store.in_memory = true;
    options.background_ttl_purge = false;
    options.background_splits = false;
    options.initial_partitions = partitions;
    account_ = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    auto created = account_->CreateContainer(
        "db",
        J(std::string(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2},)") +
          kFullTextPolicy + R"("indexingPolicy":)" + policy + "}"),
        {});
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  std::shared_ptr<Container> C() { return *account_->GetContainer("db", "c"); }

  Status Upsert(const std::string& id, const std::string& text, const std::string& extra = "") {
    const std::string body = R"({"id":")" + id + R"(","pk":"p)" + std::to_string(id.size() % 5) +
                             R"(","text":)" + json::Write(json::Value::String(text)) + extra + "}";
    ItemWriteRequest request;
    request.kind = WriteKind::kUpsert;
    request.partition_key = {PartitionKeyComponent::String("p" + std::to_string(id.size() % 5))};
    request.body = body;
    Status status = C()->WriteItem(request).status();
    if (status.ok()) texts_[id] = text;
    return status;
  }
  Status Delete(const std::string& id) {
    Status status =
        C()->DeleteItem({PartitionKeyComponent::String("p" + std::to_string(id.size() % 5))}, id,
                        std::nullopt)
            .status();
    if (status.ok()) texts_.erase(id);
    return status;
  }

  Outcome Query(const std::string& where) {
    const std::string text = "SELECT VALUE c.id FROM c WHERE " + where;
    auto query = query::Compile(text, {}, nullptr, nullptr, &C()->full_text_policy());
    EXPECT_TRUE(query.ok()) << text;
    Outcome outcome;
    std::optional<std::string> continuation;
    do {
      auto page = C()->Query(**query, C()->FullScope(), 1000, continuation.value_or(""));
      EXPECT_TRUE(page.ok()) << text << ": " << page.status().ToString();
      if (!page.ok()) break;
      for (const std::string& doc : page->documents) outcome.ids.insert(J(doc).as_string());
      outcome.loaded += page->loaded_count;
      continuation = page->continuation;
    } while (continuation && !continuation->empty());
    return outcome;
  }

  static std::vector<std::string> Words(const std::string& text) {
    std::vector<std::string> words;
    std::string word;
    for (char ch : text + " ") {
      if (ch == ' ') {
        if (!word.empty()) words.push_back(word);
        word.clear();
      } else {
        word += ch;
      }
    }
    return words;
  }
  // The model: ids whose text holds the phrase (words in a row).
  std::set<std::string> WithPhrase(const std::string& phrase) const {
    const std::vector<std::string> wanted = Words(phrase);
    std::set<std::string> ids;
    for (const auto& [id, text] : texts_) {
      const std::vector<std::string> words = Words(text);
      if (std::search(words.begin(), words.end(), wanted.begin(), wanted.end()) != words.end()) {
        ids.insert(id);
      }
    }
    return ids;
  }
  static std::set<std::string> Both(const std::set<std::string>& a,
                                    const std::set<std::string>& b) {
    std::set<std::string> out;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
    return out;
  }
  static std::set<std::string> Either(const std::set<std::string>& a,
                                      const std::set<std::string>& b) {
    std::set<std::string> out(a);
    out.insert(b.begin(), b.end());
    return out;
  }

  void LoadRandomTexts(int count, uint32_t seed) {
    std::mt19937 random(seed);
    for (int i = 0; i < count; ++i) {
      std::string text;
      const int length = 2 + static_cast<int>(random() % 5);
      for (int w = 0; w < length; ++w) {
        if (!text.empty()) text += ' ';
        text += kWords[random() % kWords.size()];
      }
      ASSERT_TRUE(Upsert("i" + std::to_string(i), text).ok());
    }
  }

  // Every query shape against the model; with `indexed`, a selective one loads only the
  // items of its stem.
  void ExpectModelAnswers(bool indexed) {
    for (const char* word : {"red", "moon", "rock"}) {
      const std::set<std::string> expected = WithPhrase(word);
      const Outcome got = Query(std::string("FullTextContains(c.text, '") + word + "')");
      EXPECT_EQ(got.ids, expected) << word;
      if (indexed) {
        EXPECT_EQ(got.loaded, expected.size()) << word;
        EXPECT_LT(got.loaded, texts_.size()) << word;
      }
    }
    EXPECT_EQ(Query("FullTextContains(c.text, 'blue car')").ids, WithPhrase("blue car"));
    EXPECT_EQ(Query("FullTextContainsAll(c.text, 'fish', 'door')").ids,
              Both(WithPhrase("fish"), WithPhrase("door")));
    EXPECT_EQ(Query("FullTextContainsAny(c.text, 'star', 'ship bird')").ids,
              Either(WithPhrase("star"), WithPhrase("ship bird")));
    // Plural forms match by stem: "lamps" finds "lamp".
    EXPECT_EQ(Query("FullTextContains(c.text, 'LAMPS')").ids, WithPhrase("lamp"));
    // A term of stop words only matches no text; in Any, the other term still does.
    EXPECT_TRUE(Query("FullTextContains(c.text, 'the of')").ids.empty());
    EXPECT_TRUE(Query("FullTextContainsAll(c.text, 'tree', 'the')").ids.empty());
    EXPECT_EQ(Query("FullTextContainsAny(c.text, 'the', 'tree')").ids, WithPhrase("tree"));
    // Fuzzy and negated calls have no index use and still answer.
    EXPECT_EQ(Query("FullTextContains(c.text, {'term': 'fisk', 'distance': 1})").ids,
              WithPhrase("fish"));
    std::set<std::string> not_red;
    const std::set<std::string> red = WithPhrase("red");
    for (const auto& [id, text] : texts_) {
      if (red.count(id) == 0) not_red.insert(id);
    }
    EXPECT_EQ(Query("NOT FullTextContains(c.text, 'red')").ids, not_red);
    // With another condition the index still narrows the items read.
    EXPECT_EQ(Query("FullTextContains(c.text, 'moon') AND c.pk = 'p2'").ids.size(),
              std::count_if(texts_.begin(), texts_.end(), [&](const auto& entry) {
                return WithPhrase("moon").count(entry.first) > 0 && entry.first.size() % 5 == 2;
              }));
  }

  std::unique_ptr<Account> account_;
  std::map<std::string, std::string> texts_;
};

TEST_F(FullTextIndexTest, AnswersMatchTheModelAndReadOnlyTheStemsItems) {
  Open(kIndexed, 3);
  LoadRandomTexts(300, 7);
  ExpectModelAnswers(/*indexed=*/true);
}

TEST_F(FullTextIndexTest, WithoutTheIndexTheSameAnswersReadEveryItem) {
  Open(kNotIndexed);
  LoadRandomTexts(120, 7);
  ExpectModelAnswers(/*indexed=*/false);
  EXPECT_EQ(Query("FullTextContains(c.text, 'red')").loaded, texts_.size());
}

TEST_F(FullTextIndexTest, EntriesFollowReplacesAndDeletes) {
  Open(kIndexed, 2);
  LoadRandomTexts(100, 11);
  std::mt19937 random(12);
  for (int i = 0; i < 100; i += 3) {
    ASSERT_TRUE(Upsert("i" + std::to_string(i), kWords[random() % kWords.size()] + " moon").ok());
  }
  for (int i = 1; i < 100; i += 7) ASSERT_TRUE(Delete("i" + std::to_string(i)).ok());
  ExpectModelAnswers(/*indexed=*/true);
}

TEST_F(FullTextIndexTest, PathLanguageStemsTheIndexAndTheTerms) {
  Open(kIndexed);
  ASSERT_TRUE(Upsert("a", "x", R"(,"de":"Die Fahrräder sind rot")").ok());
  ASSERT_TRUE(Upsert("bb", "x", R"(,"de":"Das Fahrrad ist blau")").ok());
  ASSERT_TRUE(Upsert("ccc", "x", R"(,"de":"Autos")").ok());
  // German stems: "Fahrräder" is the plural of "Fahrrad" (the e2e suite checks the same
  // without the index).
  const Outcome got = Query("FullTextContains(c.de, 'Fahrrad')");
  EXPECT_EQ(got.ids, (std::set<std::string>{"a", "bb"}));
  EXPECT_EQ(got.loaded, 2u);
}

TEST_F(FullTextIndexTest, KeysAreOnePerDistinctStemUnderTheFullTextMarker) {
  auto policy = index::IndexingPolicy::Parse(J(kIndexed));
  ASSERT_TRUE(policy.ok());
  const json::Value languages =
      J(R"({"defaultLanguage":"en-US","fullTextPaths":[{"path":"/text","language":"en-US"}]})");
  auto full = query::FullTextPolicy::Parse(&languages, nullptr);
  ASSERT_TRUE(full.ok());
  std::vector<std::string> keys;
  const index::ItemLocation where{7, 2, "EPK", "id1"};
  AppendFullTextEntryKeys(*policy, **full, J(R"({"text":"Red cars and the red car","de":42})"),
                          where, keys);
  // "red" and "car" (cars -> car); "and" and "the" are stop words; /de is not a string.
  const std::string prefix = FullTextPathPrefix(7, 2, std::vector<std::string>{"text"});
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0], index::EntryKey(prefix, json::Value::String("car"), "EPK", "id1"));
  EXPECT_EQ(keys[1], index::EntryKey(prefix, json::Value::String("red"), "EPK", "id1"));
  EXPECT_EQ(prefix[9], kFullTextMarker);
  // Not range-index path entries: path statistics and presence counts leave them out.
  EXPECT_FALSE(index::PathPrefixLength(keys[0]).has_value());
}

}  // namespace
}  // namespace orrery::engine
