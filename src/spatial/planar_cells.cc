#include "spatial/planar_cells.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace orrery::spatial {
namespace {

// Distances computed in the plane round a little differently from the rectangle's
// bounds: grow the rectangle by far more than that rounding, far less than a cell.
constexpr double kRelativeSlack = 1e-9;

// The cell index along one axis of a coordinate inside [low, high]. Rounding is
// monotonic, so a coordinate between two others gets an index between theirs.
int64_t Step(double value, double low, double high, int64_t cells) {
  const double scaled = std::floor((value - low) / (high - low) * static_cast<double>(cells));
  if (!(scaled >= 0)) return 0;
  return std::min<int64_t>(static_cast<int64_t>(std::min(scaled, 1e18)), cells - 1);
}

bool Inside(const Position& p, const PlanarBox& box) {
  return p.longitude >= box.xmin && p.longitude <= box.xmax && p.latitude >= box.ymin &&
         p.latitude <= box.ymax;
}

}  // namespace

int64_t PlanarIndexCellOf(const Shape& shape, const PlanarBox& box) {
  if (shape.type != ShapeType::kPoint || !Inside(shape.point(), box)) return kExtendedShapeCell;
  const Position& p = shape.point();
  return Step(p.latitude, box.ymin, box.ymax, kPlanarRows) * kPlanarColumns +
         Step(p.longitude, box.xmin, box.xmax, kPlanarColumns);
}

std::vector<CellRange> PlanarCellRanges(const Shape& region, double margin, const PlanarBox& box) {
  double west = std::numeric_limits<double>::infinity();
  double south = west;
  double east = -west;
  double north = -west;
  for (const PolygonRings& polygon : region.polygons) {
    for (const Ring& ring : polygon) {
      for (const Position& p : ring) {
        west = std::min(west, p.longitude);
        east = std::max(east, p.longitude);
        south = std::min(south, p.latitude);
        north = std::max(north, p.latitude);
      }
    }
  }
  const double scale = std::max({std::abs(west), std::abs(east), std::abs(south), std::abs(north),
                                 box.xmax - box.xmin, box.ymax - box.ymin});
  const double grow = margin * (1 + kRelativeSlack) + scale * kRelativeSlack;
  west -= grow;
  east += grow;
  south -= grow;
  north += grow;
  std::vector<CellBlock> blocks;
  // Nothing of the box within reach: only shapes outside the grid can match.
  if (west <= box.xmax && east >= box.xmin && south <= box.ymax && north >= box.ymin) {
    blocks.push_back(CellBlock{Step(south, box.ymin, box.ymax, kPlanarRows),
                               Step(north, box.ymin, box.ymax, kPlanarRows),
                               Step(west, box.xmin, box.xmax, kPlanarColumns),
                               Step(east, box.xmin, box.xmax, kPlanarColumns)});
  }
  return CellRangesOfBlocks(blocks, kPlanarColumns);
}

}  // namespace orrery::spatial
