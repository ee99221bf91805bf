#pragma once

// The statistics query of a FullTextScore ranking (rank_plan.h), as the SDKs run it on
// every partition range and as the server runs it before ranking alone:
//
//   SELECT COUNT(1) AS documentCount,
//          [{"totalWordCount": SUM(_FullTextWordCount(c.text, "en-US")),
//            "hitCounts": [SUM(_FullTextHit(c.text, "term", "en-US")), ...]}, ...]
//          AS fullTextStatistics FROM c
//
// recognized in a bound query, so that the engine can count its numbers from the
// full-text index's entries instead of analyzing every text twice
// (engine/container_full_text_statistics.cc). Any other query, even one that computes
// the same numbers another way, is evaluated as written.

#include <optional>
#include <string>
#include <vector>

#include "query/access_path.h"
#include "query/binder.h"

namespace orrery::query {

struct FullTextStatisticsQuery {
  struct PathStatistics {
    DocumentPath path;
    std::string language;            // the functions' language argument ("en-US" without)
    std::vector<std::string> terms;  // one hit count each, in order
  };
  std::vector<PathStatistics> paths;  // the fullTextStatistics array, in order
};

std::optional<FullTextStatisticsQuery> MatchFullTextStatistics(const BoundQuery& bound);

}  // namespace orrery::query
