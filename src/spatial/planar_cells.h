#pragma once

// The cell grid of a Geometry container's spatial index (spatial_cells.h is the
// geographic one). The index's boundingBox is cut into kPlanarColumns × kPlanarRows
// cells, numbered row-major from (xmin, ymin). A valid Point inside the box is indexed
// under its cell; a Point outside it, and every other shape, under kExtendedShapeCell,
// which every lookup reads: the service documents the box as the extent of the data,
// but data outside it must still be found. A query region (a shape, grown by a distance
// for ST_DISTANCE) becomes its bounding rectangle, clipped to the box, then key ranges.

#include <cstdint>
#include <vector>

#include "spatial/geojson.h"
#include "spatial/spatial_cells.h"

namespace orrery::spatial {

inline constexpr int64_t kPlanarColumns = 1024;
inline constexpr int64_t kPlanarRows = 1024;

// A spatial index's boundingBox; xmin < xmax and ymin < ymax.
struct PlanarBox {
  double xmin = 0;
  double ymin = 0;
  double xmax = 0;
  double ymax = 0;
};

// The index value of a valid shape (CoordinateSystem::kGeometry) in `box`'s grid.
int64_t PlanarIndexCellOf(const Shape& shape, const PlanarBox& box);

// Inclusive ranges of index values that hold every shape within `margin` (coordinate
// units) of a point of `region`: sorted, disjoint, always with kExtendedShapeCell.
std::vector<CellRange> PlanarCellRanges(const Shape& region, double margin, const PlanarBox& box);

}  // namespace orrery::spatial
