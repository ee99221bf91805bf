// The statistics query of a FullTextScore ranking (query/full_text_statistics.h),
// counted from the full-text index (full_text_index.h) instead of analyzing every text:
// the documents from the item counts, the words from one word-count entry per text
// (summed once per physical partition, then kept current by writes with the partition's
// presence counts, path_presence.h), the documents holding a one-word term from its
// stem's entries. The numbers are those
// the query computes, except that items expired but not yet purged still count (the
// service's statistics are approximate too). A scope that cuts a physical partition,
// an index being built, or a term of several words (a phrase, which only the texts can
// tell) leave the query to be evaluated as written.

#include <algorithm>

#include "engine/container.h"
#include "engine/full_text_index.h"
#include "index/index_key.h"
#include "index/index_scan.h"
#include "json/json.h"
#include "query/full_text_statistics.h"
#include "query/text_analysis.h"

namespace orrery::engine {
namespace {

// Whether `scope` holds every item of each physical partition it overlaps: its counts
// are then the partitions' counts.
bool CoversWholePartitions(const ReadScope& scope,
                           const std::vector<const PhysicalPartition*>& partitions) {
  if (scope.exact_epk) return true;
  for (const PhysicalPartition* p : partitions) {
    if (p->min_inclusive < scope.range.min) return false;
    if (scope.range.max != "FF" && (p->max_exclusive == "FF" || p->max_exclusive > scope.range.max))
      return false;
  }
  return true;
}

}  // namespace

Result<bool> Container::AnswerFullTextStatistics(const query::FullTextStatisticsQuery& statistics,
                                                 const ReadScope& scope, bool index_ready,
                                                 FeedPage& page) const {
  if (!index_ready) return false;
  const std::vector<const PhysicalPartition*> partitions = PartitionsIn(scope);
  if (!CoversWholePartitions(scope, partitions)) return false;
  // What each path's entries must answer: its words and each term's one stem.
  std::vector<std::vector<std::string>> stems(statistics.paths.size());
  for (size_t i = 0; i < statistics.paths.size(); ++i) {
    const query::FullTextStatisticsQuery::PathStatistics& path = statistics.paths[i];
    const auto& indexed = indexing_.full_text_paths();
    if (std::find(indexed.begin(), indexed.end(), path.path) == indexed.end() ||
        full_text_->LanguageOf(path.path) != path.language) {
      return false;
    }
    for (const std::string& term : path.terms) {
      const std::vector<query::AnalyzedWord> words = query::AnalyzeText(term, path.language);
      if (words.size() > 1) return false;
      stems[i].push_back(words.empty() ? std::string() : words.front().stem);
    }
  }

  json::Array paths;
  for (size_t i = 0; i < statistics.paths.size(); ++i) {
    int64_t words = 0;
    std::vector<int64_t> hits(stems[i].size(), 0);
    for (const PhysicalPartition* p : partitions) {
      const std::string prefix =
          FullTextPathPrefix(settings_.number, p->number, statistics.paths[i].path);
      // The words of an entry, when the scope holds its item.
      const auto sum_words = [&](const index::EntryView& entry) {
        ++page.index_entries;
        if (scope.Contains(entry.epk)) {
          words += static_cast<int64_t>(index::DecodeNumber(entry.value).value_or(0));
        }
        return true;
      };
      const auto scan_words = [&]() {
        return index::ScanEntries(store_, FullTextWordCountRange(prefix), prefix.size(), false,
                                  sum_words);
      };
      if (scope.exact_epk) {
        ORRERY_RETURN_IF_ERROR(scan_words());
      } else {
        // A whole partition's words are kept with its presence counts once counted.
        const int64_t before = words;
        ORRERY_ASSIGN_OR_RETURN(
            std::optional<PresenceCount> counted,
            CountPresence(p->number, WordCountPath(prefix), page, [&]() -> Result<int64_t> {
              ORRERY_RETURN_IF_ERROR(scan_words());
              return words - before;
            }));
        if (counted) {
          words = before + counted->entries;
        } else {
          words = before;
          ORRERY_RETURN_IF_ERROR(scan_words());
        }
      }
      for (size_t t = 0; t < stems[i].size(); ++t) {
        if (stems[i][t].empty()) continue;  // stop words only: no text holds the term
        ORRERY_RETURN_IF_ERROR(
            index::ScanEntries(store_, index::EqualRange(prefix, json::Value::String(stems[i][t])),
                               prefix.size(), false, [&](const index::EntryView& entry) {
                                 ++page.index_entries;
                                 if (scope.Contains(entry.epk)) ++hits[t];
                                 return true;
                               }));
      }
    }
    json::Array hit_counts;
    for (int64_t h : hits) hit_counts.push_back(json::Value::Int(h));
    paths.push_back(json::Value::MakeObject({
        {"totalWordCount", json::Value::Int(words)},
        {"hitCounts", json::Value::MakeArray(std::move(hit_counts))},
    }));
  }
  // After the words: counting them counts the partitions' items too.
  ORRERY_ASSIGN_OR_RETURN(std::optional<int64_t> documents, ItemsIn(scope));
  if (!documents) {
    documents = 0;
    for (const PhysicalPartition* p : partitions) {
      ORRERY_ASSIGN_OR_RETURN(const int64_t items, CountPartitionItems(p->number));
      *documents += items;
      page.index_entries += static_cast<size_t>(items);
    }
  }
  page.Add(json::Write(json::Value::MakeObject({
      {"documentCount", json::Value::Int(*documents)},
      {"fullTextStatistics", json::Value::MakeArray(std::move(paths))},
  })));
  return true;
}

}  // namespace orrery::engine
