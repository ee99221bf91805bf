#pragma once

// The indexing policy of a study given none: the paths the workload's queries filter
// and sort on, each a range index, and nothing else, as Microsoft's guidance advises
// for write-heavy containers. It keeps every query's plan and charge (they read only
// these indexes) and the load fast. Nullopt when a query needs an index this cannot
// express (spatial or full-text): then every path is indexed, the service's default.

#include <optional>

#include "advise/workload.h"
#include "json/value.h"

namespace orrery::advise {

std::optional<json::Value> WorkloadIndexingPolicy(const Workload& workload);

}  // namespace orrery::advise
