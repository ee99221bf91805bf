#include "spatial/spatial_cells.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "spatial/geodesy.h"

namespace orrery::spatial {
namespace {

// Lower bounds of the metres in one degree, so boxes grown by them are never too small:
// a degree of latitude is at least 110,574 m on WGS-84, and a degree of longitude at
// latitude φ at least 111,319 m × cos φ.
constexpr double kMinMetresPerDegreeLatitude = 110000;
constexpr double kMinMetresPerDegreeLongitudeAtEquator = 111000;
// Geodesics on the ellipsoid stray a little from the great circles the bulge formula
// below describes.
constexpr double kBulgeSlackDegrees = 0.05;
// Above this many rows the rows merge into one contiguous range.
constexpr int64_t kMaxSeparateRows = 512;

double Radians(double degrees) { return degrees * std::numbers::pi / 180; }
double Degrees(double radians) { return radians * 180 / std::numbers::pi; }

int64_t Row(double latitude) {
  return std::clamp<int64_t>(static_cast<int64_t>(std::floor((latitude + 90) / kCellDegrees)), 0,
                             kCellRows - 1);
}
int64_t Column(double longitude) {
  return std::clamp<int64_t>(static_cast<int64_t>(std::floor((longitude + 180) / kCellDegrees)), 0,
                             kCellColumns - 1);
}

// The latitude band an edge's geodesic spans. A great-circle arc between points at most
// φm from the equator and Δλ apart reaches at most atan(tan φm / cos(Δλ/2)), and only
// toward the hemisphere of an endpoint.
void AddEdge(const Position& a, const Position& b, Box& box, bool& whole_longitude) {
  double delta = std::abs(b.longitude - a.longitude);
  if (delta > 180) {
    whole_longitude = true;  // across the antimeridian
    delta = 360 - delta;
  }
  const double half_cos = std::cos(Radians(delta / 2));
  const double extreme = std::max(std::abs(a.latitude), std::abs(b.latitude));
  const double bulge =
      half_cos <= 1e-9 ? 90.0
                       : std::min(90.0, Degrees(std::atan(std::tan(Radians(extreme)) / half_cos)) +
                                            kBulgeSlackDegrees);
  box.north = std::max(
      box.north, (a.latitude > 0 || b.latitude > 0) ? bulge : std::max(a.latitude, b.latitude));
  box.south = std::min(
      box.south, (a.latitude < 0 || b.latitude < 0) ? -bulge : std::min(a.latitude, b.latitude));
  box.west = std::min({box.west, a.longitude, b.longitude});
  box.east = std::max({box.east, a.longitude, b.longitude});
}

// Sum of the longitude steps around a ring: ±360 when the ring goes around a pole.
double LongitudeWinding(const Ring& ring) {
  double total = 0;
  for (size_t i = 1; i < ring.size(); ++i) {
    double step = ring[i].longitude - ring[i - 1].longitude;
    if (step > 180) step -= 360;
    if (step < -180) step += 360;
    total += step;
  }
  return total;
}

Box Grow(Box box, double metres) {
  if (metres <= 0) return box;
  const double dlat = metres / kMinMetresPerDegreeLatitude;
  box.south -= dlat;
  box.north += dlat;
  if (box.north >= 90 || box.south <= -90) {
    box.west = -180;
    box.east = 180;
  } else {
    const double widest = std::max(std::abs(box.north), std::abs(box.south));
    const double dlon =
        metres / (kMinMetresPerDegreeLongitudeAtEquator * std::cos(Radians(widest)));
    box.west -= dlon;
    box.east += dlon;
  }
  box.south = std::max(box.south, -90.0);
  box.north = std::min(box.north, 90.0);
  return box;
}

// Splits a box that leaves [-180, 180] across the antimeridian.
void AddWrapped(const Box& box, std::vector<Box>& out) {
  if (box.east - box.west >= 360) {
    out.push_back(Box{-180, box.south, 180, box.north});
    return;
  }
  if (box.west < -180) {
    out.push_back(Box{box.west + 360, box.south, 180, box.north});
    out.push_back(Box{-180, box.south, box.east, box.north});
  } else if (box.east > 180) {
    out.push_back(Box{box.west, box.south, 180, box.north});
    out.push_back(Box{-180, box.south, box.east - 360, box.north});
  } else {
    out.push_back(box);
  }
}

}  // namespace

int64_t CellOf(const Position& position) {
  return Row(position.latitude) * kCellColumns + Column(position.longitude);
}

int64_t IndexCellOf(const Shape& shape) {
  return shape.type == ShapeType::kPoint ? CellOf(shape.point()) : kExtendedShapeCell;
}

std::vector<Box> CoveringBoxes(const Shape& shape, double margin_metres) {
  Box box{180, 90, -180, -90};  // empty
  bool whole_longitude = false;
  if (shape.type == ShapeType::kPoint) {
    const Position& p = shape.point();
    box = Box{p.longitude, p.latitude, p.longitude, p.latitude};
  }
  for (const PolygonRings& polygon : shape.polygons) {
    if (shape.type == ShapeType::kPolygon || shape.type == ShapeType::kMultiPolygon) {
      if (IsInverted(polygon)) return {Box{}};  // the rest of the globe
      const double winding = LongitudeWinding(polygon[0]);
      if (std::abs(winding) > 180) {
        // Around a pole: every longitude, and up to that pole.
        whole_longitude = true;
        double mean = 0;
        for (const Position& p : polygon[0]) mean += p.latitude;
        (mean >= 0 ? box.north : box.south) = mean >= 0 ? 90 : -90;
      }
    }
    for (const Ring& ring : polygon) {
      for (size_t i = 1; i < ring.size(); ++i) AddEdge(ring[i - 1], ring[i], box, whole_longitude);
    }
  }
  if (whole_longitude) {
    box.west = -180;
    box.east = 180;
  }
  std::vector<Box> out;
  AddWrapped(Grow(box, margin_metres), out);
  return out;
}

std::vector<CellRange> CellRanges(const std::vector<Box>& boxes) {
  std::vector<CellBlock> blocks;
  for (const Box& box : boxes) {
    blocks.push_back(CellBlock{Row(box.south), Row(box.north), Column(box.west), Column(box.east)});
  }
  return CellRangesOfBlocks(blocks, kCellColumns);
}

std::vector<CellRange> CellRangesOfBlocks(const std::vector<CellBlock>& blocks, int64_t columns) {
  std::vector<CellRange> ranges{{kExtendedShapeCell, kExtendedShapeCell}};
  for (const CellBlock& block : blocks) {
    const bool full_width = block.first_column == 0 && block.last_column == columns - 1;
    if (full_width || block.last_row - block.first_row >= kMaxSeparateRows) {
      ranges.push_back({block.first_row * columns + block.first_column,
                        block.last_row * columns + block.last_column});
      continue;
    }
    for (int64_t row = block.first_row; row <= block.last_row; ++row) {
      ranges.push_back({row * columns + block.first_column, row * columns + block.last_column});
    }
  }
  std::sort(ranges.begin(), ranges.end(),
            [](const CellRange& a, const CellRange& b) { return a.first < b.first; });
  std::vector<CellRange> merged;
  for (const CellRange& range : ranges) {
    if (!merged.empty() && range.first <= merged.back().last + 1) {
      merged.back().last = std::max(merged.back().last, range.last);
    } else {
      merged.push_back(range);
    }
  }
  return merged;
}

}  // namespace orrery::spatial
