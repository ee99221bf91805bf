#pragma once

// ORDER BY RANK (docs/research/vector-fulltext-protocol.md §3, §4.3): a query ranked by
// FullTextScore (BM25), by VectorDistance, or by RRF of several of them with optional
// weights. The ranking needs statistics of the whole container for each FullTextScore
// (documents, words, documents holding each term), which a statistics query gathers
// first, as the SDKs' hybrid pipeline does; InjectStatistics then turns each
// FullTextScore call into _FullTextScore with those numbers as literals.
//
// Ranking, as the SDKs fuse the rows of a hybrid query: one FullTextScore ranks the rows
// it scores above 0, one VectorDistance the rows it scores, most relevant first; RRF
// ranks every row in every component (dense ranks from 1, a row the component does not
// score last, a negative weight reversing the order) and orders by the sum of
// |weight| / (60 + rank).

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "json/value.h"
#include "query/binder.h"

namespace orrery::query {

class FullTextPolicy;

inline constexpr double kRrfConstant = 60;

struct RankComponent {
  ast::CallExpr* call = nullptr;  // FullTextScore (later _FullTextScore) or VectorDistance
  bool full_text = false;
  bool descending = true;  // the order that ranks it (after the weight's sign)
  double weight = 1;       // absolute
  // FullTextScore only: where its statistics are in the statistics row.
  int statistics_index = -1;
  std::string text_expr;           // the searched path, as query text
  std::vector<std::string> terms;  // the terms
  std::string language;
};

struct RankPlan {
  std::vector<RankComponent> components;
  bool rrf = false;
  // The statistics query over the whole container (empty without FullTextScore):
  // SELECT COUNT(1) AS documentCount, [{"totalWordCount": ..., "hitCounts": [...]}, ...]
  // AS fullTextStatistics FROM c
  std::string statistics_query;
};

// Checks an ORDER BY RANK query (its score function, no ASC/DESC, no FullTextScore or
// RRF elsewhere) and describes its ranking; nullopt-like empty plan for other queries
// (components empty), after checking that FullTextScore and RRF appear only in ORDER BY
// RANK. Run after ResolveVectorDistances. Errors: BadRequest in the service's shape.
Result<RankPlan> PlanRank(std::string_view text, BoundQuery& bound, const FullTextPolicy* policy);

// Rewrites each FullTextScore of `plan` into _FullTextScore(text, [terms], documents,
// words, [hits], language) with the numbers of `statistics` (a row of the statistics
// query, summed over the container). Errors: BadRequest when the row is malformed.
Status InjectStatistics(RankPlan& plan, const json::Value& statistics);

// The text of a call that takes the statistics: _FullTextScore(<text>, [terms],
// <documents>, <words>, <hits>, "<language>"), where the three numbers are given as
// query text (literals, or the SDK's placeholders in a query plan).
std::string FullTextScoreText(const RankComponent& component, const std::string& documents,
                              const std::string& words, const std::string& hits);

// Fuses the component scores of each row (row k: scores[k], one per component, undefined
// where the component does not score it) into one rank key per row, higher first;
// nullopt for a row that is not ranked (only without RRF).
std::vector<std::optional<double>> FuseRanks(const RankPlan& plan,
                                             const std::vector<std::vector<json::Value>>& scores);

}  // namespace orrery::query
