#pragma once

// Resolves what a query's VectorDistance calls leave to the container: the distance
// function and data type of the vector path they compare, from the container's
// vectorEmbeddingPolicy, unless the call's options name them (the options win, as in
// the service's query plans). Each call is rewritten to carry its resolved options as a
// literal 4th argument, so that the query text derived from it (the per-range queries
// of a query plan) runs the same anywhere; ORDER BY VectorDistance is ranked most
// similar first: descending for cosine and dot product, ascending for Euclidean.

#include "common/status.h"
#include "query/binder.h"
#include "query/vector_policy.h"

namespace orrery::query {

// Whether `expr` is a call of the VectorDistance built-in (after binding).
bool IsVectorDistanceCall(const ast::Expr& expr);
// Whether `expr` is a call of _FullTextScore, the BM25 score with its statistics.
bool IsFullTextScoreWithStatistics(const ast::Expr& expr);

// The vector search of a query that a vector index can serve: ORDER BY
// VectorDistance(c.<path>, <constant vector>) (either order of the two) over the root
// item alone, without aggregates, DISTINCT or ORDER BY RANK, its options resolved.
struct VectorRanking {
  std::vector<std::string> path;
  std::vector<double> vector;
  DistanceFunction distance = DistanceFunction::kCosine;
  // VectorDistance's bruteForce argument is true: no approximate index may answer.
  bool brute_force = false;
  // The query has a WHERE clause: the nearest items may not be the nearest matches.
  bool filtered = false;
  // The options' searchListSizeMultiplier (diskANN: the candidates kept, as a multiple
  // of the rows) and quantizedVectorListMultiplier (quantizedFlat: the candidates ranked
  // exactly, likewise): 1 to 100, by default 10 and 5 (the service's documentation).
  int search_list_multiplier = 10;
  int quantized_list_multiplier = 5;
};
std::optional<VectorRanking> FindVectorRanking(const BoundQuery& bound);

// `policy` may be null (no vector policy: cosine over float32). Errors: BadRequest in
// the service's error shape for options that are not valid (an unknown distance
// function or data type, a non-object).
Status ResolveVectorDistances(std::string_view text, BoundQuery& bound, const VectorPolicy* policy);

}  // namespace orrery::query
