#include "spatial/planar_cells.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace orrery::spatial {
namespace {

Shape Point(double x, double y) { return Shape{ShapeType::kPoint, {{{Position{x, y}}}}}; }

Shape Rectangle(double x0, double y0, double x1, double y1) {
  return Shape{ShapeType::kPolygon, {{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}}}};
}

bool Covered(const std::vector<CellRange>& ranges, int64_t cell) {
  for (const CellRange& range : ranges) {
    if (cell >= range.first && cell <= range.last) return true;
  }
  return false;
}

size_t CellCount(const std::vector<CellRange>& ranges) {
  size_t n = 0;
  for (const CellRange& range : ranges) n += static_cast<size_t>(range.last - range.first + 1);
  return n;
}

constexpr PlanarBox kBox{-500, 0, 1500, 1000};

TEST(PlanarCellsTest, PointsInsideTheBoxGetCellsRowMajorFromTheCorner) {
  EXPECT_EQ(PlanarIndexCellOf(Point(-500, 0), kBox), 0);
  // One column is 2000 / 1024 units wide, one row 1000 / 1024 high.
  EXPECT_EQ(PlanarIndexCellOf(Point(-500 + 2000.0 / 1024 * 3.5, 0), kBox), 3);
  EXPECT_EQ(PlanarIndexCellOf(Point(-500, 1000.0 / 1024 * 2.5), kBox), 2 * kPlanarColumns);
  // The far edges belong to the last row and column.
  EXPECT_EQ(PlanarIndexCellOf(Point(1500, 1000), kBox), kPlanarColumns * kPlanarRows - 1);
}

TEST(PlanarCellsTest, PointsOutsideTheBoxAndOtherShapesAreExtended) {
  EXPECT_EQ(PlanarIndexCellOf(Point(-500.5, 10), kBox), kExtendedShapeCell);
  EXPECT_EQ(PlanarIndexCellOf(Point(10, 1000.01), kBox), kExtendedShapeCell);
  EXPECT_EQ(PlanarIndexCellOf(Rectangle(0, 0, 1, 1), kBox), kExtendedShapeCell);
}

// Every point of the box within the distance (Pythagoras, here) has its cell in the
// ranges, and the ranges are far fewer cells than the grid.
TEST(PlanarCellsTest, RadiusCoversEveryPointWithin) {
  std::mt19937 random(7);
  for (const auto& [cx, cy, radius] :
       {std::tuple{0.0, 500.0, 25.0}, {1499.0, 999.0, 40.0}, {-480.0, 3.0, 1.5}}) {
    const std::vector<CellRange> ranges = PlanarCellRanges(Point(cx, cy), radius, kBox);
    EXPECT_TRUE(Covered(ranges, kExtendedShapeCell));
    EXPECT_LT(CellCount(ranges), 10000u);
    std::uniform_real_distribution<double> offset(-radius, radius);
    int inside = 0;
    for (int i = 0; i < 20000; ++i) {
      const double x = cx + offset(random);
      const double y = cy + offset(random);
      if (std::hypot(x - cx, y - cy) > radius) continue;
      const int64_t cell = PlanarIndexCellOf(Point(x, y), kBox);
      if (cell == kExtendedShapeCell) continue;  // beyond the box
      ++inside;
      ASSERT_TRUE(Covered(ranges, cell)) << x << "," << y;
    }
    EXPECT_GT(inside, 1000);
  }
}

TEST(PlanarCellsTest, RegionCoversItsRectangleOnly) {
  const std::vector<CellRange> ranges = PlanarCellRanges(Rectangle(100, 100, 110, 120), 0, kBox);
  EXPECT_TRUE(Covered(ranges, PlanarIndexCellOf(Point(105, 110), kBox)));
  EXPECT_TRUE(Covered(ranges, PlanarIndexCellOf(Point(100, 100), kBox)));
  EXPECT_TRUE(Covered(ranges, PlanarIndexCellOf(Point(110, 120), kBox)));
  EXPECT_FALSE(Covered(ranges, PlanarIndexCellOf(Point(130, 110), kBox)));
  EXPECT_FALSE(Covered(ranges, PlanarIndexCellOf(Point(105, 200), kBox)));
  // About 21 rows of 6 cells, one range per row (plus the extended cell).
  EXPECT_LE(ranges.size(), 25u);
}

TEST(PlanarCellsTest, RegionOutsideTheBoxReadsOnlyTheExtendedCell) {
  const std::vector<CellRange> ranges = PlanarCellRanges(Point(5000, 5000), 10, kBox);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].first, kExtendedShapeCell);
  EXPECT_EQ(ranges[0].last, kExtendedShapeCell);
}

TEST(PlanarCellsTest, AnUnboundedDistanceReadsTheWholeGrid) {
  const std::vector<CellRange> ranges =
      PlanarCellRanges(Point(0, 0), std::numeric_limits<double>::infinity(), kBox);
  EXPECT_EQ(CellCount(ranges), static_cast<size_t>(kPlanarColumns * kPlanarRows + 1));
}

}  // namespace
}  // namespace orrery::spatial
