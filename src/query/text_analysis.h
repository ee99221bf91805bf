#pragma once

// How full-text search sees a text (docs/research/vector-fulltext-protocol.md §4.2):
// words (runs of letters and digits, any non-ASCII character counting as a letter),
// lower-cased, English stop words left out for en-US, and each word reduced to its stem
// by the Snowball stemmer of the path's language (Debian's libstemmer), so that
// "bicycles" finds "bicycle" and "Fahrräder" finds "Fahrrad".

#include <string>
#include <string_view>
#include <vector>

namespace orrery::query {

struct AnalyzedWord {
  std::string word;  // lower-cased, as written
  std::string stem;
};

// The words of `text` in order. `language` is a full-text policy language ("en-US",
// "de-DE", ...); an unknown one is analyzed as English. Thread-safe.
std::vector<AnalyzedWord> AnalyzeText(std::string_view text, std::string_view language);

// The same, remembered per thread for the last text analyzed this way: the full-text
// functions of one query analyze an item's text several times (its words, each term's
// hits, its score). The result is valid until the next call on this thread.
const std::vector<AnalyzedWord>& AnalyzeDocumentText(std::string_view text,
                                                     std::string_view language);

// Levenshtein distance of two lower-cased words, counted in bytes, stopping early once
// it exceeds `limit` (then limit + 1).
int EditDistance(std::string_view a, std::string_view b, int limit);

}  // namespace orrery::query
