#pragma once

// The service's query plan (wire-protocol.md §9.5, §9.6): what an SDK needs to run a
// cross-partition query itself — one rewritten query per partition key range, whose
// per-range rows it merges (ORDER BY k-way merge, aggregate and GROUP BY folding,
// DISTINCT, OFFSET/LIMIT, TOP). The rewritten texts are executable by Orrery's own
// engine and give exactly the row shapes the SDKs expect.

#include <string_view>
#include <vector>

#include "common/status.h"
#include "json/value.h"
#include "query/query.h"

namespace orrery::query {

// The placeholder the SDK replaces with `true` (or a resume filter) in an ORDER BY
// rewritten query.
inline constexpr std::string_view kOrderByFilterPlaceholder =
    "{documentdb-formattableorderbyquery-filter}";

// The whole plan response body: {"partitionedQueryExecutionInfoVersion": 2,
// "queryInfo": {...}, "queryRanges": [full range], "hybridSearchQueryInfo": null}.
// Errors: the compile errors of Compile(), and BadRequest for query shapes the
// cross-partition pipeline cannot merge (an aggregate inside an expression of a
// non-VALUE, non-GROUP BY select item, aggregates with ORDER BY).
// `vectors` (may be null): the container's vector policy, which decides the ranking
// direction of ORDER BY VectorDistance (vector_references.h).
Result<json::Value> BuildQueryPlan(std::string_view text, const std::vector<Parameter>& parameters,
                                   const VectorPolicy* vectors = nullptr,
                                   const FullTextPolicy* full_text = nullptr);

}  // namespace orrery::query
