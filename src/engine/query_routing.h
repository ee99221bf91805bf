#pragma once

// Which partitions a query must read (query-language.md §9, the planner's routing):
// equality on every path of the partition key reads one logical partition; equality
// on a prefix of a hierarchical key reads the EPK range of that prefix; anything else
// fans out over the whole scope. WHERE is still evaluated on every item read, so
// routing only narrows: an item that can match always lies in the routed range.

#include <string>

#include "engine/container.h"
#include "engine/partition/partition_key.h"
#include "query/access_path.h"

namespace orrery::engine {

struct QueryRouting {
  enum class Kind { kFanOut, kLogicalPartition, kKeyPrefix };
  Kind kind = Kind::kFanOut;
  std::string epk;  // kLogicalPartition
  EpkRange range;   // kKeyPrefix: [P, P + "FF")
};

QueryRouting RouteQuery(const partition::PartitionKeyDefinition& definition,
                        const query::AccessShape& shape);

// `scope` restricted to what `routing` reads (possibly empty).
ReadScope NarrowScope(const ReadScope& scope, const QueryRouting& routing);

}  // namespace orrery::engine
