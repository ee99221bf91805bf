#include "spatial/ring_crossings.h"

#include <gtest/gtest.h>

namespace orrery::spatial {
namespace {

Ring R(std::initializer_list<std::pair<double, double>> points) {
  Ring ring;
  for (const auto& [lon, lat] : points) ring.push_back(Position{lon, lat});
  return ring;
}

const Ring kSquare = R({{0, 0}, {4, 0}, {4, 4}, {0, 4}, {0, 0}});

TEST(RingCrossingsTest, SimpleRingsDoNotCross) {
  EXPECT_FALSE(FirstCrossingRing({kSquare}));
  EXPECT_FALSE(FirstCrossingRing({R({{0, 0}, {1, 0}, {1, 1}, {0, 0}})}));
  // The polygon of the service's geospatial query article.
  EXPECT_FALSE(
      FirstCrossingRing({R({{31.8, -5}, {32, -5}, {32, -4.7}, {31.8, -4.7}, {31.8, -5}})}));
}

TEST(RingCrossingsTest, ABowTieCrossesItself) {
  EXPECT_EQ(FirstCrossingRing({R({{0, 0}, {2, 2}, {2, 0}, {0, 2}, {0, 0}})}), 1u);
  // The crossing is between the last edge and an earlier one.
  EXPECT_EQ(FirstCrossingRing({R({{0, 0}, {4, 0}, {4, 4}, {2, -1}, {0, 0}})}), 1u);
}

TEST(RingCrossingsTest, ARingThatVisitsAVertexTwiceIsInvalid) {
  EXPECT_EQ(FirstCrossingRing({R({{0, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 2}, {1, 1}, {0, 0}})}), 1u);
}

TEST(RingCrossingsTest, HolesInsideAreFineHolesAcrossTheBoundaryAreNot) {
  const Ring inside = R({{1, 1}, {2, 1}, {2, 2}, {1, 2}, {1, 1}});
  EXPECT_FALSE(FirstCrossingRing({kSquare, inside}));
  // Touching the exterior at one vertex is allowed, as in OGC polygons.
  EXPECT_FALSE(FirstCrossingRing({kSquare, R({{0, 2}, {1, 1}, {1, 3}, {0, 2}})}));
  const Ring across = R({{3, 1}, {5, 1}, {5, 2}, {3, 2}, {3, 1}});
  EXPECT_EQ(FirstCrossingRing({kSquare, across}), 1u);
  // Two holes crossing each other: the first of them is named.
  const Ring other = R({{1.5, 1.5}, {3, 1.5}, {3, 3}, {1.5, 3}, {1.5, 1.5}});
  EXPECT_EQ(FirstCrossingRing({kSquare, inside, other}), 2u);
  // A hole wholly outside the exterior.
  EXPECT_EQ(FirstCrossingRing({kSquare, R({{6, 6}, {7, 6}, {7, 7}, {6, 6}})}), 1u);
  // A bow-tie hole in a good exterior.
  EXPECT_EQ(FirstCrossingRing({kSquare, R({{1, 1}, {3, 3}, {3, 1}, {1, 3}, {1, 1}})}), 2u);
}

}  // namespace
}  // namespace orrery::spatial
