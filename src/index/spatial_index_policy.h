#pragma once

// The `spatialIndexes` of an indexing policy and the container's `geospatialConfig`
// (query-language.md §9.1): which paths hold GeoJSON to index, and the rules the
// service applies to them. A Geometry container's spatial indexes carry the
// `boundingBox` of their flat coordinate space; a Geography container's must not.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/status.h"
#include "json/value.h"
#include "spatial/planar_cells.h"

namespace orrery::index {

// A `/*` spatial index finds GeoJSON at most this many path segments from the document
// root (spatial_terms.cc); deeper GeoJSON is left to scans.
inline constexpr size_t kMaxSpatialPathDepth = 16;

struct SpatialIndex {
  std::vector<std::string> prefix;  // path segments, without the final `?` or `*`
  bool wildcard = false;            // `/*`: GeoJSON anywhere below the prefix
  // A Geometry (flat) index: its boundingBox, over which its grid of cells lies
  // (spatial/planar_cells.h). Unset for a geographic index.
  std::optional<spatial::PlanarBox> box;

  // Whether GeoJSON at `path` is covered by this index.
  bool Covers(std::span<const std::string> path) const;
};

// Parses and validates the `spatialIndexes` list (null or absent: none).
// Errors: BadRequest naming the offending entry.
Result<std::vector<SpatialIndex>> ParseSpatialIndexes(const json::Value* list);

// Validates `geospatialConfig` (absent: Geography) against the spatial indexes of the
// indexing policy JSON. Errors: BadRequest.
Status ValidateGeospatialConfig(const json::Value* config, const json::Value* indexing_policy);

}  // namespace orrery::index
