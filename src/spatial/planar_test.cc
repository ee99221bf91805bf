#include "spatial/planar.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace orrery::spatial::planar {
namespace {

Shape S(std::string_view text) {
  std::optional<Shape> shape = ParseValidShape(*json::Parse(text), CoordinateSystem::kGeometry);
  EXPECT_TRUE(shape) << text;
  return shape.value_or(Shape{});
}

// A 4 x 4 square at the origin, written clockwise and counter-clockwise.
constexpr const char* kSquare =
    R"({"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]]]})";
constexpr const char* kSquareClockwise =
    R"({"type":"Polygon","coordinates":[[[0,0],[0,4],[4,4],[4,0],[0,0]]]})";

TEST(PlanarTest, DistancesAreEuclideanInCoordinateUnits) {
  EXPECT_DOUBLE_EQ(Distance(S(R"({"type":"Point","coordinates":[0,0]})"),
                            S(R"({"type":"Point","coordinates":[3,4]})")),
                   5.0);
  // Far beyond any longitude or latitude: the plane has no range.
  EXPECT_DOUBLE_EQ(Distance(S(R"({"type":"Point","coordinates":[1000,2000]})"),
                            S(R"({"type":"Point","coordinates":[1000,-500]})")),
                   2500.0);
  // To a polygon: 0 inside, the distance to the nearest edge outside.
  EXPECT_DOUBLE_EQ(Distance(S(R"({"type":"Point","coordinates":[2,2]})"), S(kSquare)), 0.0);
  EXPECT_DOUBLE_EQ(Distance(S(R"({"type":"Point","coordinates":[7,2]})"), S(kSquareClockwise)),
                   3.0);
  EXPECT_DOUBLE_EQ(Distance(S(R"({"type":"LineString","coordinates":[[10,0],[10,10]]})"),
                            S(R"({"type":"Point","coordinates":[6,5]})")),
                   4.0);
}

TEST(PlanarTest, WithinIntersectsAndArea) {
  const Shape inside = S(R"({"type":"Point","coordinates":[1,3]})");
  const Shape outside = S(R"({"type":"Point","coordinates":[5,3]})");
  for (const char* square : {kSquare, kSquareClockwise}) {
    EXPECT_TRUE(Within(inside, S(square)));
    EXPECT_FALSE(Within(outside, S(square)));
    EXPECT_TRUE(Intersects(S(square), S(R"({"type":"LineString","coordinates":[[2,2],[9,9]]})")));
    EXPECT_FALSE(Intersects(S(square), S(R"({"type":"LineString","coordinates":[[5,0],[5,9]]})")));
    EXPECT_DOUBLE_EQ(Area(S(square)), 16.0);
  }
  EXPECT_FALSE(Within(inside, outside));  // only areas contain
  const Shape holed = S(
      R"({"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[2,4],[4,4],[4,2],[2,2]]]})");
  EXPECT_DOUBLE_EQ(Area(holed), 96.0);
  EXPECT_FALSE(Within(S(R"({"type":"Point","coordinates":[3,3]})"), holed));
  EXPECT_DOUBLE_EQ(Area(inside), 0.0);
}

TEST(PlanarTest, GeometryValidityHasNoCoordinateRanges) {
  const json::Value far = *json::Parse(R"({"type":"Point","coordinates":[500,-300]})");
  EXPECT_TRUE(ParseValidShape(far, CoordinateSystem::kGeometry));
  EXPECT_FALSE(ParseValidShape(far, CoordinateSystem::kGeography));
  // The other rules hold in the plane too, crossing rings included.
  const json::Value bow_tie = *json::Parse(
      R"({"type":"Polygon","coordinates":[[[100,100],[300,300],[300,100],[100,300],[100,100]]]})");
  EXPECT_EQ(InvalidReason(*ParseShape(bow_tie), CoordinateSystem::kGeometry),
            "The Polygon input is not valid because the ring number 1 intersects itself or some "
            "other ring.");
}

}  // namespace
}  // namespace orrery::spatial::planar
