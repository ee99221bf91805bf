#pragma once

// The spatial-index entries of one item (spatial/spatial_cells.h, and
// spatial/planar_cells.h for a Geometry container's indexes): for every valid GeoJSON
// geometry a spatial index covers, one entry under the geometry's path followed by
// spatial::kCellPathSegment, whose value is its cell number. Kept
// with the range-index entries (Container::IndexKeysOf), so every write, delete, TTL
// purge, split and policy rebuild keeps them in step.

#include <string>
#include <vector>

#include "index/index_terms.h"
#include "index/indexing_policy.h"
#include "json/value.h"

namespace orrery::index {

// The spatial entry keys of `document`, in no particular order.
std::vector<std::string> SpatialEntryKeys(const IndexingPolicy& policy, const json::Value& document,
                                          const ItemLocation& where);

}  // namespace orrery::index
