#pragma once

// Which indexes a query used and which would have helped it: the service's index
// metrics (x-ms-cosmos-index-utilization, "Index metrics" in the docs). Single indexes
// are range-index paths (`/a/?`); composite indexes are lists of `/a ASC` specs.
//   - utilized single: each WHERE path the range index served (a seek or precise scan)
//     and a single ORDER BY path it streamed, when the policy indexes it;
//   - potential single: each such path the policy does not index;
//   - utilized composite: the composite the plan read;
//   - potential composite: when none served, the one the service recommends for
//     equality filters followed by a range filter or the ORDER BY keys.

#include <string>
#include <vector>

#include "index/indexing_policy.h"
#include "query/access_path.h"

namespace orrery::engine {

struct IndexPlan;

struct IndexUtilization {
  std::vector<std::string> utilized_single;
  std::vector<std::string> potential_single;
  std::vector<std::vector<std::string>> utilized_composite;
  std::vector<std::vector<std::string>> potential_composite;
};

IndexUtilization DescribeIndexUse(const index::IndexingPolicy& policy,
                                  const query::AccessShape& shape, const IndexPlan& plan);

}  // namespace orrery::engine
