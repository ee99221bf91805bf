#pragma once

// What a query or feed page did, as the cost model counts it: the one mapping from a
// FeedPage to its charge, used by the API and by the charge tests.

#include "engine/container.h"
#include "engine/throughput/cost_model.h"

namespace orrery::engine {

// `base`: throughput::kQueryBaseCharge for a query, kMetadataReadCharge for a read feed.
throughput::QueryWork QueryWorkOf(const FeedPage& page, double base);
inline double FeedPageCharge(const FeedPage& page, double base) {
  return throughput::QueryCharge(QueryWorkOf(page, base));
}

}  // namespace orrery::engine
