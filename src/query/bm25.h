#pragma once

// BM25 as FullTextScore computes it (functions_full_text.cc) and as the engine computes
// it from the inverted index's term frequencies (engine/container_full_text_ranking.cc):
// one definition, so that both give the same double for the same text.

#include <algorithm>
#include <cmath>

namespace orrery::query::bm25 {

// Lucene's defaults (the service documents "standard BM25" without its parameters).
inline constexpr double kK1 = 1.2;
inline constexpr double kB = 0.75;

// The length normalization of a text of `text_words` words among `documents` texts of
// `total_words` words (the text's own length when the total is unknown, 0).
inline double LengthNorm(double text_words, double documents, double total_words) {
  documents = std::max(documents, 1.0);
  const double average = total_words > 0 ? total_words / documents : std::max(text_words, 1.0);
  return 1 - kB + kB * text_words / average;
}

// A term held by `holding` of `documents` texts.
inline double Idf(double documents, double holding) {
  documents = std::max(documents, 1.0);
  return std::log(1 + (documents - holding + 0.5) / (holding + 0.5));
}

// One term's share of a text's score: `tf` occurrences (at least 1).
inline double TermScore(double idf, int tf, double length_norm) {
  return idf * tf * (kK1 + 1) / (tf + kK1 * length_norm);
}

}  // namespace orrery::query::bm25
