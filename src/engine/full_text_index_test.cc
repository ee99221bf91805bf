// The full-text inverted index (full_text_index.h): its entries follow every write, and
// FullTextContains, FullTextContainsAll and FullTextContainsAny read the items of one
// stem instead of every item, with the answers a model of the texts computes here.

#include "engine/full_text_index.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "engine/account.h"
#include "engine/test_directory.h"
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

  // ORDER BY RANK FullTextScore as the server runs it alone: the statistics query over
  // the container, then the ranking with them. The ids in rank order, and the items
  // each of the two read.
  struct Ranked {
    std::vector<std::string> ids;
    size_t statistics_loaded = 0;
    size_t ranking_loaded = 0;
    size_t ranking_entries = 0;
    json::Value statistics;
  };
  Ranked Rank(const std::string& terms, int top = 1000, const std::string& where = "") {
    const std::string text = "SELECT TOP " + std::to_string(top) + " c.id FROM c " + where +
                             " ORDER BY RANK FullTextScore(c.text, " + terms + ")";
    auto query = query::Compile(text, {}, nullptr, nullptr, &C()->full_text_policy());
    EXPECT_TRUE(query.ok()) << query.status().ToString();
    Ranked out;
    if (!query.ok()) return out;
    auto statistics = query::Compile(*(*query)->rank_statistics_query(), {}, nullptr, nullptr,
                                     &C()->full_text_policy());
    EXPECT_TRUE(statistics.ok()) << statistics.status().ToString();
    auto row = C()->Query(**statistics, C()->FullScope(), 1, "");
    EXPECT_TRUE(row.ok() && row->documents.size() == 1);
    if (!row.ok() || row->documents.size() != 1) return out;
    out.statistics_loaded = row->loaded_count;
    out.statistics = J(row->documents.front());
    EXPECT_TRUE((*query)->SetRankStatistics(out.statistics).ok());
    auto page = C()->Query(**query, C()->FullScope(), 1000, "");
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    if (!page.ok()) return out;
    for (const std::string& doc : page->documents) {
      out.ids.push_back(J(doc).Find("id")->as_string());
    }
    out.ranking_loaded = page->loaded_count;
    out.ranking_entries = page->index_entries;
    return out;
  }

  // The statistics query of FullTextScore(c.text, terms) over `scope`: its row, the items
  // it read and the index entries.
  struct StatisticsRow {
    json::Value first;
    size_t second = 0;
    size_t entries = 0;
  };
  StatisticsRow Statistics(const std::vector<std::string>& terms, const ReadScope& scope) {
    std::string list;
    for (const std::string& t : terms) {
      list += (list.empty() ? "" : ", ") + json::Write(json::Value::String(t));
    }
    auto ranking =
        query::Compile("SELECT TOP 5 c.id FROM c ORDER BY RANK FullTextScore(c.text, " + list + ")",
                       {}, nullptr, nullptr, &C()->full_text_policy());
    EXPECT_TRUE(ranking.ok()) << ranking.status().ToString();
    if (!ranking.ok()) return {};
    auto statistics = query::Compile(*(*ranking)->rank_statistics_query(), {}, nullptr, nullptr,
                                     &C()->full_text_policy());
    EXPECT_TRUE(statistics.ok()) << statistics.status().ToString();
    if (!statistics.ok()) return {};
    auto page = C()->Query(**statistics, scope, 1, "");
    EXPECT_TRUE(page.ok() && page->documents.size() == 1);
    if (!page.ok() || page->documents.size() != 1) return {};
    return {J(page->documents.front()), page->loaded_count, page->index_entries};
  }
  ReadScope ScopeOf(const std::string& pk) {
    ReadScope scope;
    scope.exact_epk = partition::EffectivePartitionKey(C()->settings().partition_key,
                                                       {PartitionKeyComponent::String(pk)});
    return scope;
  }
  // The English stop words these tests write.
  static bool IsStopWord(const std::string& w) { return w == "the" || w == "and" || w == "of"; }
  // The statistics row the model computes: documents, words, texts holding each term.
  json::Value ModelStatistics(
      const std::vector<std::string>& terms,
      const std::function<bool(const std::string&)>& in_scope = [](const std::string&) {
        return true;
      }) const {
    int64_t documents = 0;
    int64_t words = 0;
    std::vector<int64_t> hits(terms.size(), 0);
    for (const auto& [id, text] : texts_) {
      if (!in_scope(id)) continue;
      ++documents;
      for (const std::string& w : Words(text)) words += IsStopWord(w) ? 0 : 1;
      for (size_t t = 0; t < terms.size(); ++t) {
        if (!IsStopWord(terms[t])) hits[t] += static_cast<int64_t>(WithPhrase(terms[t]).count(id));
      }
    }
    json::Array counts;
    for (int64_t h : hits) counts.push_back(json::Value::Int(h));
    return json::Value::MakeObject(
        {{"documentCount", json::Value::Int(documents)},
         {"fullTextStatistics",
          json::Value::MakeArray({json::Value::MakeObject(
              {{"totalWordCount", json::Value::Int(words)},
               {"hitCounts", json::Value::MakeArray(std::move(counts))}})})}});
  }

  // BM25 of one text in the model (Lucene's k1 1.2 and b 0.75; the words are their own
  // stems and no stop words), from the model's statistics.
  double ModelScore(const std::string& id, const std::vector<std::string>& terms) const {
    double words = 0;
    for (const auto& [other, text] : texts_) words += static_cast<double>(Words(text).size());
    const double documents = static_cast<double>(texts_.size());
    const std::vector<std::string> text = Words(texts_.at(id));
    const double norm = 1 - 0.75 + 0.75 * static_cast<double>(text.size()) / (words / documents);
    double score = 0;
    for (const std::string& term : terms) {
      const double tf = static_cast<double>(std::count(text.begin(), text.end(), term));
      if (tf == 0) continue;
      const double df = static_cast<double>(WithPhrase(term).size());
      score += std::log(1 + (documents - df + 0.5) / (df + 0.5)) * tf * 2.2 / (tf + 1.2 * norm);
    }
    return score;
  }

  std::set<std::string> AllTexts() const {
    std::set<std::string> ids;
    for (const auto& [id, text] : texts_) ids.insert(id);
    return ids;
  }
  // The texts among `eligible` that hold a term, by the model's score, best first.
  std::vector<double> ModelScoresOf(const std::vector<std::string>& terms,
                                    const std::set<std::string>& eligible) const {
    std::vector<double> scores;
    for (const std::string& id : eligible) {
      const double score = ModelScore(id, terms);
      if (score > 0) scores.push_back(score);
    }
    std::sort(scores.rbegin(), scores.rend());
    return scores;
  }
  // `ids` are the `top` best of `eligible` by the model's BM25 (any of tied texts), best
  // first.
  void ExpectBestByModel(const std::vector<std::string>& ids, const std::vector<std::string>& terms,
                         size_t top, const std::set<std::string>& eligible) const {
    const std::vector<double> best = ModelScoresOf(terms, eligible);
    ASSERT_EQ(ids.size(), std::min(top, best.size()));
    EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
    for (size_t i = 0; i < ids.size(); ++i) {
      EXPECT_EQ(eligible.count(ids[i]), 1u) << ids[i];
      EXPECT_NEAR(ModelScore(ids[i], terms), best[i], 1e-9) << i << ": " << ids[i];
    }
  }
  // How many texts of `eligible` score at least what `id` scores.
  size_t ScoringAtLeast(const std::string& id, const std::vector<std::string>& terms,
                        const std::set<std::string>& eligible) const {
    const double floor = ModelScore(id, terms) - 1e-9;
    const std::vector<double> scores = ModelScoresOf(terms, eligible);
    return static_cast<size_t>(
        std::count_if(scores.begin(), scores.end(), [&](double s) { return s >= floor; }));
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
  // First the number of words BM25 counts: red cars red car.
  // Each stem also has its term-frequency entry: twice each in 4 words.
  const std::string prefix = FullTextPathPrefix(7, 2, std::vector<std::string>{"text"});
  const std::string frequencies = FullTextFrequencyPrefix(7, 2, std::vector<std::string>{"text"});
  const auto frequency_key = [&](const std::string& stem) {
    std::string key = FullTextFrequencyRange(frequencies, stem).begin;
    key += std::string("\0\0\0\x02\0\0\0\x04", 8);  // tf 2, words 4, big-endian
    return key + "EPK" + '\0' + "id1";
  };
  ASSERT_EQ(keys.size(), 5u);
  EXPECT_EQ(keys[0], index::EntryKey(prefix, json::Value::Int(4), "EPK", "id1"));
  EXPECT_EQ(keys[1], index::EntryKey(prefix, json::Value::String("car"), "EPK", "id1"));
  EXPECT_EQ(keys[2], frequency_key("car"));
  EXPECT_EQ(keys[3], index::EntryKey(prefix, json::Value::String("red"), "EPK", "id1"));
  EXPECT_EQ(keys[4], frequency_key("red"));
  const index::KeyRange words = FullTextWordCountRange(prefix);
  EXPECT_TRUE(words.begin <= keys[0] && keys[0] < words.end);
  EXPECT_FALSE(words.begin <= keys[1] && keys[1] < words.end);
  EXPECT_EQ(prefix[9], kFullTextMarker);
  EXPECT_EQ(frequencies[9], kFullTextFrequencyMarker);
  const index::KeyRange car = FullTextFrequencyRange(frequencies, "car");
  EXPECT_TRUE(car.begin <= keys[2] && keys[2] < car.end);
  EXPECT_FALSE(car.begin <= keys[4] && keys[4] < car.end);
  const std::optional<FrequencyEntry> parsed =
      ParseFrequencyEntry(std::string_view(keys[2]).substr(car.begin.size()));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->tf, 2);
  EXPECT_EQ(parsed->words, 4);
  EXPECT_EQ(parsed->epk, "EPK");
  EXPECT_EQ(parsed->id, "id1");
  // Not range-index path entries: path statistics and presence counts leave them out.
  EXPECT_FALSE(index::PathPrefixLength(keys[0]).has_value());
  EXPECT_FALSE(index::PathPrefixLength(keys[2]).has_value());
  EXPECT_FALSE(ParseWordCountEntry(keys[2]).has_value());
}

TEST_F(FullTextIndexTest, ARankingByFullTextScoreReadsOnlyTheTextsHoldingATerm) {
  Open(kIndexed, 3);
  LoadRandomTexts(300, 5);
  const std::vector<std::string> terms{"moon", "rock"};
  const Ranked ranked = Rank("'moon', 'rock'");
  const std::set<std::string> holding = Either(WithPhrase("moon"), WithPhrase("rock"));
  ASSERT_LT(holding.size(), texts_.size());
  // Every text holding a term, best first by the model's BM25.
  EXPECT_EQ(std::set<std::string>(ranked.ids.begin(), ranked.ids.end()), holding);
  EXPECT_EQ(ranked.ids.size(), holding.size());
  for (size_t i = 1; i < ranked.ids.size(); ++i) {
    EXPECT_GE(ModelScore(ranked.ids[i - 1], terms) + 1e-9, ModelScore(ranked.ids[i], terms)) << i;
  }
  // The ranking read the items of the terms' stems, not every item; the statistics
  // were counted from the index.
  EXPECT_EQ(ranked.ranking_loaded, holding.size());
  EXPECT_EQ(ranked.statistics_loaded, 0u);
  EXPECT_EQ(json::Write(ranked.statistics), json::Write(ModelStatistics({"moon", "rock"})));
}

// A TOP ranking of single words is scored from the term-frequency entries: it reads the
// items of the best scores only, and answers what the model's BM25 ranks first.
TEST_F(FullTextIndexTest, ATopRankingReadsOnlyTheBestTextsByTheirTermFrequencies) {
  Open(kIndexed, 3);
  LoadRandomTexts(400, 13);
  // Texts holding the word more than once, and a long one.
  ASSERT_TRUE(Upsert("i5", "moon moon moon").ok());
  ASSERT_TRUE(Upsert("i77", "moon moon red").ok());
  ASSERT_TRUE(Upsert("i200", "moon red blue car tree lamp fish door").ok());
  const std::set<std::string> holding = WithPhrase("moon");
  ASSERT_GT(holding.size(), 60u);

  Ranked ranked = Rank("'moon'", 10);
  ExpectBestByModel(ranked.ids, {"moon"}, 10, AllTexts());
  EXPECT_LE(ranked.ranking_loaded, ScoringAtLeast(ranked.ids.back(), {"moon"}, AllTexts()));
  EXPECT_LT(ranked.ranking_loaded, holding.size() / 2);
  EXPECT_EQ(ranked.ranking_entries, holding.size());  // one term-frequency entry each

  // Two words: each text's score sums both.
  ranked = Rank("'moon', 'rock'", 5);
  ExpectBestByModel(ranked.ids, {"moon", "rock"}, 5, AllTexts());
  EXPECT_LT(ranked.ranking_loaded, holding.size() / 2);

  // The entries follow replaces and deletes: a text that lost the word and a deleted one
  // are not ranked, and their entries are gone.
  ASSERT_TRUE(Upsert("i5", "red blue").ok());
  ASSERT_TRUE(Delete("i77").ok());
  ASSERT_TRUE(Upsert("i300", "moon moon moon moon").ok());
  ranked = Rank("'moon'", 10);
  ExpectBestByModel(ranked.ids, {"moon"}, 10, AllTexts());
  EXPECT_EQ(ranked.ranking_entries, WithPhrase("moon").size());
}

// Texts tied at the last place shown are all read and decided as the items holding a
// term are otherwise evaluated: in creation order.
TEST_F(FullTextIndexTest, TextsTiedAtTheLastPlaceAreDecidedByCreationOrder) {
  Open(kIndexed, 1);
  for (int i = 0; i < 40; ++i) ASSERT_TRUE(Upsert("t" + std::to_string(i), "moon lamp").ok());
  ASSERT_TRUE(Upsert("best", "moon moon lamp").ok());  // created last, scores highest
  ASSERT_TRUE(Upsert("other", "lamp tree").ok());
  const Ranked ranked = Rank("'moon'", 5);
  EXPECT_EQ(ranked.ids, (std::vector<std::string>{"best", "t0", "t1", "t2", "t3"}));
  ExpectBestByModel(ranked.ids, {"moon"}, 5, AllTexts());
  EXPECT_EQ(ranked.ranking_loaded, 41u);  // the best and every text tied with the fifth
}

// Other conditions leave out some of the best texts: the ranking reads further, in
// order of score, until it has its rows.
TEST_F(FullTextIndexTest, ATopRankingWithAFilterReadsOnUntilItHasItsRows) {
  Open(kIndexed, 2);
  LoadRandomTexts(400, 17);
  std::set<std::string> kept;
  for (const auto& [id, text] : texts_) {
    if (id.rfind("i1", 0) != 0) kept.insert(id);
  }
  const Ranked ranked = Rank("'star'", 12, "WHERE NOT STARTSWITH(c.id, 'i1')");
  ExpectBestByModel(ranked.ids, {"star"}, 12, kept);
  EXPECT_LT(ranked.ranking_loaded, WithPhrase("star").size());
}

// A phrase's score counts its words standing in a row, which the entries do not record:
// such a ranking reads every text holding its first word, as before.
TEST_F(FullTextIndexTest, APhraseRankingIsEvaluatedOnTheTextsHoldingItsFirstWord) {
  Open(kIndexed, 2);
  LoadRandomTexts(200, 19);
  const Ranked ranked = Rank("'blue car'", 5);
  EXPECT_EQ(ranked.ranking_loaded, WithPhrase("blue").size());
  for (const std::string& id : ranked.ids) EXPECT_EQ(WithPhrase("blue car").count(id), 1u) << id;
}

// A hybrid plan's per-range query names the statistics itself and orders by
// _FullTextScore DESC: the same reading of the best texts only.
TEST_F(FullTextIndexTest, AHybridPerRangeQueryReadsOnlyTheBestTexts) {
  Open(kIndexed, 3);
  LoadRandomTexts(300, 23);
  const json::Value statistics = ModelStatistics({"fish"});
  const json::Value& row = statistics.Find("fullTextStatistics")->as_array().front();
  const std::string score = "_FullTextScore(c.text, ['fish'], " +
                            json::Write(*statistics.Find("documentCount")) + ", " +
                            json::Write(*row.Find("totalWordCount")) + ", " +
                            json::Write(*row.Find("hitCounts")) + ", 'en-US')";
  const std::string text =
      "SELECT TOP 7 c.id FROM c WHERE (" + score + " > 0) ORDER BY " + score + " DESC";
  auto query = query::Compile(text, {}, nullptr, nullptr, &C()->full_text_policy());
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  auto page = C()->Query(**query, C()->FullScope(), 100, "");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  std::vector<std::string> ids;
  for (const std::string& doc : page->documents) ids.push_back(J(doc).Find("id")->as_string());
  ExpectBestByModel(ids, {"fish"}, 7, AllTexts());
  EXPECT_LT(page->loaded_count, WithPhrase("fish").size() / 2);
}

TEST_F(FullTextIndexTest, RankingStatisticsComeFromTheIndexAndMatchTheTexts) {
  Open(kIndexed, 3);
  // Before any text: numbers all the same (0), as the evaluated query gives them.
  EXPECT_EQ(json::Write(Statistics({"lamp"}, C()->FullScope()).first),
            json::Write(ModelStatistics({"lamp"})));
  LoadRandomTexts(200, 9);
  std::mt19937 random(10);
  for (int i = 0; i < 200; i += 4) {
    ASSERT_TRUE(Upsert("i" + std::to_string(i), kWords[random() % kWords.size()] + " lamp").ok());
  }
  for (int i = 2; i < 200; i += 9) ASSERT_TRUE(Delete("i" + std::to_string(i)).ok());
  ASSERT_TRUE(Upsert("stop", "the and of").ok());  // no words BM25 counts
  const std::vector<std::string> terms{"lamp", "star", "the"};
  const auto got = Statistics(terms, C()->FullScope());
  EXPECT_EQ(json::Write(got.first), json::Write(ModelStatistics(terms)));
  EXPECT_EQ(got.second, 0u);  // no item read
  // Only the terms' entries: the words of a new container's partitions are kept as
  // written.
  EXPECT_EQ(got.entries, WithPhrase("lamp").size() + WithPhrase("star").size());
  // One logical partition: the texts whose pk is p2.
  const auto one = Statistics({"lamp"}, ScopeOf("p2"));
  EXPECT_EQ(json::Write(one.first),
            json::Write(ModelStatistics({"lamp"},
                                        [](const std::string& id) { return id.size() % 5 == 2; })));
  // A phrase is told by the texts alone: the query is evaluated, with the same numbers.
  const auto phrase = Statistics({"blue car"}, C()->FullScope());
  EXPECT_EQ(json::Write(phrase.first), json::Write(ModelStatistics({"blue car"})));
  EXPECT_GT(phrase.second, 0u);
}

TEST_F(FullTextIndexTest, RankingStatisticsAfterARestartCountTheWordsOnceThenKeepThem) {
  const std::string dir = FreshTestDirectory("orrery-full-text-statistics");
  const auto open_on_disk = [&] {
    AccountOptions options;
    options.store.path = dir;
    options.background_ttl_purge = false;
    options.background_splits = false;
    options.initial_partitions = 2;
    account_ = std::move(Account::Open(options)).value();
  };
  open_on_disk();
  ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
  ASSERT_TRUE(account_
                  ->CreateContainer("db",
                                    J(std::string(R"({"id":"c","partitionKey":{"paths":["/pk"],)"
                                                  R"("version":2},)") +
                                      kFullTextPolicy + R"("indexingPolicy":)" + kIndexed + "}"),
                                    {})
                  .ok());
  LoadRandomTexts(150, 21);
  account_.reset();
  open_on_disk();
  // The first statistics after the restart read every text's word-count entry once.
  const auto first = Statistics({"fish"}, C()->FullScope());
  EXPECT_EQ(json::Write(first.first), json::Write(ModelStatistics({"fish"})));
  EXPECT_GE(first.entries, texts_.size());
  // Writes after that keep the sums: later statistics read the term's entries alone.
  ASSERT_TRUE(Upsert("i3", "fish fish fish fish").ok());
  ASSERT_TRUE(Delete("i4").ok());
  ASSERT_TRUE(Upsert("new", "moon fish").ok());
  const auto later = Statistics({"fish"}, C()->FullScope());
  EXPECT_EQ(json::Write(later.first), json::Write(ModelStatistics({"fish"})));
  EXPECT_EQ(later.entries, WithPhrase("fish").size());
  account_.reset();
  std::filesystem::remove_all(dir);
}

TEST_F(FullTextIndexTest, WithoutTheIndexRankingStatisticsReadTheTexts) {
  Open(kNotIndexed);
  EXPECT_EQ(json::Write(Statistics({"lamp"}, C()->FullScope()).first),
            json::Write(ModelStatistics({"lamp"})));
  LoadRandomTexts(50, 9);
  const auto got = Statistics({"lamp", "star"}, C()->FullScope());
  EXPECT_EQ(json::Write(got.first), json::Write(ModelStatistics({"lamp", "star"})));
  EXPECT_EQ(got.second, texts_.size());
}

}  // namespace
}  // namespace orrery::engine
