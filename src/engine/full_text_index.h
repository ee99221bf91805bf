#pragma once

// The inverted index of full-text search (persisted; docs/storage-format.md): for each
// path of the indexing policy's fullTextIndexes, one entry per distinct stem of the text
// there, analyzed as the full-text functions analyze it (query/text_analysis.h) in the
// path's language:
//
//   0x11 | container (4, BE) | partition (4, BE) | 0x06 | path | 0x01 | stem | EPK | 0x00 | id
//
// and one entry of the number of words there (the words BM25 counts, stop words left
// out), when it has any, in place of the stem:
//
//   0x11 | container (4, BE) | partition (4, BE) | 0x06 | path | 0x01 | words | EPK | 0x00 | id
//
// The path, the stem (a string value) and the words (a number value, so all of them sort
// before the stems) are encoded as in a range-index entry (index/index_key.h), so the
// range index's scans read them. The statistics of a FullTextScore ranking (documents,
// words, documents holding each term) are then counted from entries instead of texts
// (container_full_text_statistics.cc). The entries are kept like
// every other index entry (Container::IndexKeysOf: writes, deletes, TTL purges, splits
// and rebuilds). FullTextContains, FullTextContainsAll and FullTextContainsAny then read
// the items of one stem instead of every item; the WHERE clause is still evaluated on
// each (phrases, fuzzy terms, the other conditions).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "index/index_scan.h"
#include "index/index_terms.h"
#include "index/indexing_policy.h"
#include "json/value.h"
#include "query/access_path.h"
#include "query/full_text_policy.h"

namespace orrery::engine {

inline constexpr char kFullTextMarker = '\x06';
// Beside each stem's entry, one that also says how often the text holds the stem and how
// many words it has, so that BM25 can be computed from entries alone
// (container_full_text_ranking.cc):
//
//   0x11 | container (4, BE) | partition (4, BE) | 0x07 | path | 0x01 | stem | tf (4, BE)
//        | words (4, BE) | EPK | 0x00 | id
inline constexpr char kFullTextFrequencyMarker = '\x07';

// Everything up to the stem: the start of one path's entries in one partition.
std::string FullTextPathPrefix(uint32_t container, uint32_t partition,
                               std::span<const std::string> path);

// Appends the entry keys of `document` for the full-text indexes of `policy`, each
// path's sorted and without duplicates.
void AppendFullTextEntryKeys(const index::IndexingPolicy& policy,
                             const query::FullTextPolicy& languages, const json::Value& document,
                             const index::ItemLocation& where, std::vector<std::string>& keys);

// Everything up to the stem of the term-frequency entries of one path in one partition.
std::string FullTextFrequencyPrefix(uint32_t container, uint32_t partition,
                                    std::span<const std::string> path);
// The term-frequency entries of one stem, given the path's frequency prefix.
index::KeyRange FullTextFrequencyRange(const std::string& frequency_prefix, std::string_view stem);
// What follows the stem in a term-frequency entry (`after_stem`: the key past the range's
// begin). nullopt if malformed.
struct FrequencyEntry {
  int tf = 0;
  int words = 0;
  std::string_view epk;
  std::string_view id;
};
std::optional<FrequencyEntry> ParseFrequencyEntry(std::string_view after_stem);

// The range of the word-count entries of one path in one partition, given its prefix.
index::KeyRange FullTextWordCountRange(const std::string& path_prefix);

// A word-count entry as presence counts (path_presence.h) sum it: its path, the bytes of
// its key's path prefix after the container and the partition (the marker first, so no
// range-index path is the same), and its words. nullopt for any other key.
struct WordCountEntry {
  std::string_view path;
  int64_t words = 0;
};
std::optional<WordCountEntry> ParseWordCountEntry(std::string_view key);
// The same path of a path prefix (FullTextPathPrefix's output).
std::string_view WordCountPath(std::string_view path_prefix);

// The stems (as string values) whose entries hold every item a kFullText predicate can
// match: with FullTextContainsAny one stem of each term, else one stem of one term (the
// longest, likely the rarest). Empty when no item can match (a term of only stop words
// that every match needs).
std::vector<json::Value> FullTextLookupStems(const query::PathPredicate& predicate,
                                             const query::FullTextPolicy& languages);

}  // namespace orrery::engine
