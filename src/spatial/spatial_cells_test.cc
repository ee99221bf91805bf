#include "spatial/spatial_cells.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "spatial/geodesy.h"

namespace orrery::spatial {
namespace {

Shape Point(double longitude, double latitude) {
  return Shape{ShapeType::kPoint, {{{Position{longitude, latitude}}}}};
}

bool Covered(const std::vector<CellRange>& ranges, int64_t cell) {
  for (const CellRange& range : ranges) {
    if (cell >= range.first && cell <= range.last) return true;
  }
  return false;
}

// Every point within the radius (by the geodesic distance) has its cell in the ranges.
void ExpectRadiusCovered(double longitude, double latitude, double metres) {
  const std::vector<CellRange> ranges =
      CellRanges(CoveringBoxes(Point(longitude, latitude), metres));
  EXPECT_TRUE(Covered(ranges, kExtendedShapeCell));
  std::mt19937 random(42);
  std::uniform_real_distribution<double> offset(-1, 1);
  const double span = metres / 50000;  // degrees, generously wider than the circle
  int inside = 0;
  for (int i = 0; i < 20000; ++i) {
    double lon = longitude + offset(random) * span * 4;
    double lat = std::clamp(latitude + offset(random) * span, -90.0, 90.0);
    if (lon > 180) lon -= 360;
    if (lon < -180) lon += 360;
    if (DistanceMetres(Point(longitude, latitude), Point(lon, lat)) > metres) continue;
    ++inside;
    ASSERT_TRUE(Covered(ranges, CellOf({lon, lat}))) << lon << "," << lat;
  }
  EXPECT_GT(inside, 100);
}

TEST(SpatialCellsTest, RadiusCoversEveryPointWithin) {
  ExpectRadiusCovered(31.9, -4.8, 30000);
  ExpectRadiusCovered(-122.3, 47.6, 3000);
  ExpectRadiusCovered(10, 70, 50000);
}

TEST(SpatialCellsTest, RadiusAcrossTheAntimeridian) {
  ExpectRadiusCovered(179.99, 0, 5000);
  ExpectRadiusCovered(-179.99, 10, 5000);
}

TEST(SpatialCellsTest, RegionRowsAreFewRanges) {
  const Shape square{ShapeType::kPolygon,
                     {{{{31.8, -5}, {32, -5}, {32, -4.7}, {31.8, -4.7}, {31.8, -5}}}}};
  const std::vector<CellRange> ranges = CellRanges(CoveringBoxes(square, 0));
  // The extended-shape cell plus one range per 0.01° row of the box, with slack.
  EXPECT_GE(ranges.size(), 31u);
  EXPECT_LE(ranges.size(), 45u);
  EXPECT_TRUE(Covered(ranges, CellOf({31.9, -4.8})));
  EXPECT_FALSE(Covered(ranges, CellOf({33, -4.8})));
}

TEST(SpatialCellsTest, AClockwisePolygonCoversTheGlobe) {
  const Shape inverted{ShapeType::kPolygon,
                       {{{{31.8, -5}, {31.8, -4.7}, {32, -4.7}, {32, -5}, {31.8, -5}}}}};
  const std::vector<CellRange> ranges = CellRanges(CoveringBoxes(inverted, 0));
  EXPECT_TRUE(Covered(ranges, CellOf({-120, 60})));
}

}  // namespace
}  // namespace orrery::spatial
