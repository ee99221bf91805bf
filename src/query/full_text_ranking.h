#pragma once

// A query ranked by one BM25 score whose statistics are known: ORDER BY RANK
// FullTextScore(c.<path>, terms...) once the ranking's statistics completed it, or the
// per-range query of a hybrid plan, ORDER BY _FullTextScore(c.<path>, [terms],
// documents, words, [holding each term], language) DESC (rank_plan.h). The engine can
// then score texts from the inverted index's term frequencies and read only the best
// items (engine/container_full_text_ranking.cc) instead of every item holding a term.

#include <optional>
#include <string>
#include <vector>

#include "query/binder.h"

namespace orrery::query {

struct FullTextRanking {
  std::vector<std::string> path;   // below the root item
  std::vector<std::string> terms;  // as written; each term's score is its phrase's
  double documents = 0;
  double words = 0;             // of all texts; 0 when unknown
  std::vector<double> holding;  // texts holding each term, by term (1 when not given)
  std::string language;         // "en-US" when the call names none, as _FullTextScore reads it
};

// The ranking of a bound query over the root item alone (no JOIN, aggregate, GROUP BY
// or DISTINCT), best score first, or nullopt.
std::optional<FullTextRanking> FindFullTextRanking(const BoundQuery& bound);

}  // namespace orrery::query
