// A ranking by one BM25 score from the inverted index's term frequencies: every text
// holding a term is scored from its entries, and only the best items are read and
// evaluated, instead of every item holding a term (a common word's tens of thousands).

#include <algorithm>
#include <unordered_map>

#include "engine/container.h"
#include "engine/creation_order.h"
#include "engine/full_text_index.h"
#include "engine/query_run.h"
#include "query/bm25.h"
#include "query/full_text_ranking.h"
#include "query/text_analysis.h"

namespace orrery::engine {
namespace {

// One term of the ranking as its entries are read: its stem and its weight.
struct RankedTerm {
  std::string stem;
  double idf = 0;
};

// A text's score and where its item is: its key suffix, in a buffer the texts share
// (tens of thousands of small strings each allocated cost more than the scoring).
struct Scored {
  double score = 0;
  uint32_t partition = 0;  // position among the container's partitions (EPK order)
  uint32_t at = 0;         // the suffix in the buffer
  uint32_t length = 0;
};

// The terms of the ranking, or nullopt when the index cannot score one of them: a phrase
// (its score counts the words standing in a row, which entries do not record). A term
// of only stop words scores 0 in every text and is left out.
std::optional<std::vector<RankedTerm>> RankedTerms(const query::FullTextRanking& ranking) {
  std::vector<RankedTerm> terms;
  for (size_t j = 0; j < ranking.terms.size(); ++j) {
    const std::vector<query::AnalyzedWord> words =
        query::AnalyzeText(ranking.terms[j], ranking.language);
    if (words.size() > 1) return std::nullopt;
    if (words.empty()) continue;
    terms.push_back({words.front().stem, query::bm25::Idf(ranking.documents, ranking.holding[j])});
  }
  return terms;
}

// Puts the best `count` of ranked[from, ...) at ranked[from, from + count), best first,
// and every text tied with the last of them right after; returns the end of those. A
// TOP 10 over a common word's texts orders a few dozen of them, not all.
size_t SelectBest(std::vector<std::pair<double, uint32_t>>& ranked, size_t from, size_t count) {
  const auto better = [](const auto& a, const auto& b) { return a.first > b.first; };
  const auto first = ranked.begin() + static_cast<std::ptrdiff_t>(from);
  auto end = ranked.begin() + static_cast<std::ptrdiff_t>(std::min(ranked.size(), from + count));
  if (end == first) return from;
  std::nth_element(first, end - 1, ranked.end(), better);
  std::sort(first, end - 1, better);
  const double last = (end - 1)->first;
  end = std::partition(end, ranked.end(), [&](const auto& text) { return text.first == last; });
  return static_cast<size_t>(end - ranked.begin());
}

}  // namespace

Result<bool> Container::RankByTermFrequencies(QueryRun& run, const query::FullTextRanking& ranking,
                                              int64_t rows_wanted,
                                              const CreationVisit& visit) const {
  const std::vector<index::PathSegments>& indexed = indexing_.full_text_paths();
  if (!creation_order_kept() || rows_wanted <= 0 ||
      std::find(indexed.begin(), indexed.end(), ranking.path) == indexed.end() ||
      full_text_->LanguageOf(ranking.path) != ranking.language) {
    return false;
  }
  const std::optional<std::vector<RankedTerm>> terms = RankedTerms(ranking);
  if (!terms) return false;

  // Each text's score, its terms added in the query's order as _FullTextScore adds them
  // (the same doubles). Each item is in one partition of the scope.
  const std::vector<PhysicalPartition>& partitions = settings_.partitions.partitions();
  std::string suffixes;
  std::vector<Scored> texts;
  std::unordered_map<std::string, uint32_t> seen;  // by suffix, when several terms may meet
  for (const PhysicalPartition* partition : PartitionsIn(run.scope)) {
    const auto position = static_cast<uint32_t>(partition - partitions.data());
    const std::string prefix =
        FullTextFrequencyPrefix(settings_.number, partition->number, ranking.path);
    for (const RankedTerm& term : *terms) {
      const index::KeyRange range = FullTextFrequencyRange(prefix, term.stem);
      ORRERY_RETURN_IF_ERROR(
          store_.Scan(range.begin, range.end, [&](std::string_view key, std::string_view) {
            ++run.page.index_entries;
            const std::optional<FrequencyEntry> entry =
                ParseFrequencyEntry(key.substr(range.begin.size()));
            if (!entry || entry->tf <= 0 || !run.scope.Contains(entry->epk)) return true;
            const double norm = query::bm25::LengthNorm(static_cast<double>(entry->words),
                                                        ranking.documents, ranking.words);
            const double share = query::bm25::TermScore(term.idf, entry->tf, norm);
            // The entry ends in the item's key suffix: EPK 0x00 id.
            const std::string_view suffix(entry->epk.data(),
                                          entry->epk.size() + 1 + entry->id.size());
            if (terms->size() > 1) {
              auto [it, added] =
                  seen.try_emplace(std::string(suffix), static_cast<uint32_t>(texts.size()));
              if (!added) {
                texts[it->second].score += share;
                return true;
              }
            }
            texts.push_back({share, position, static_cast<uint32_t>(suffixes.size()),
                             static_cast<uint32_t>(suffix.size())});
            suffixes += suffix;
            return true;
          }));
    }
  }
  std::vector<std::pair<double, uint32_t>> ranked;  // (score, text), best first as selected
  ranked.reserve(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    ranked.emplace_back(texts[i].score, static_cast<uint32_t>(i));
  }

  // The best texts a batch at a time: as many as rows are still wanted and every one
  // tied with the last, visited in creation order (the order the items holding a term
  // are otherwise evaluated in, which decides ties in the sort that follows); more only
  // if the query's other conditions left out some of them.
  size_t next = 0;
  bool go_on = true;
  while (go_on && next < ranked.size() && static_cast<int64_t>(run.rows.size()) < rows_wanted) {
    const size_t end = SelectBest(ranked, next, static_cast<size_t>(rows_wanted - run.rows.size()));
    std::vector<std::pair<uint64_t, std::string>> batch;
    for (size_t i = next; i < end; ++i) {
      const Scored& text = texts[ranked[i].second];
      batch.emplace_back(0, suffixes.substr(text.at, text.length));
    }
    ORRERY_ASSIGN_OR_RETURN(std::vector<std::optional<std::string>> jsons, LoadItems(run, batch));
    struct Loaded {
      size_t partition;
      uint64_t number;
      size_t at;
    };
    std::vector<Loaded> loaded;
    for (size_t i = 0; i < jsons.size(); ++i) {
      if (!jsons[i]) continue;  // deleted or expired since its entries were read
      const std::optional<uint64_t> number = ItemNumberOfJson(*jsons[i]);
      if (!number) continue;
      loaded.push_back({texts[ranked[next + i].second].partition, *number, i});
    }
    std::sort(loaded.begin(), loaded.end(), [](const Loaded& a, const Loaded& b) {
      return a.partition != b.partition ? a.partition < b.partition : a.number < b.number;
    });
    for (const Loaded& item : loaded) {
      const std::string& json = *jsons[item.at];
      run.page.loaded_bytes += json.size();
      ++run.page.loaded_count;
      const PhysicalPartition& p = partitions[item.partition];
      go_on = visit(CreationPosition{p.min_inclusive, p.max_exclusive, item.number},
                    batch[item.at].second, json);
      if (!go_on) break;
    }
    next = end;
  }
  return true;
}

}  // namespace orrery::engine
