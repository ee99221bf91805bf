// Expected values come from published geodesic results or from closed forms computed
// here independently of Boost.Geometry.

#include "spatial/geodesy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "spatial/geojson.h"

namespace orrery::spatial {
namespace {

constexpr double kA = 6378137.0;          // WGS-84 semi-major axis
constexpr double kF = 1 / 298.257223563;  // WGS-84 flattening
const double kE2 = kF * (2 - kF);         // first eccentricity squared
const double kB = kA * (1 - kF);          // semi-minor axis

Shape Point(double longitude, double latitude) {
  return Shape{ShapeType::kPoint, {{{Position{longitude, latitude}}}}};
}

Shape Polygon(Ring ring) { return Shape{ShapeType::kPolygon, {{std::move(ring)}}}; }

double Radians(double degrees) { return degrees * std::numbers::pi / 180; }

// Meridian arc length from the equator to latitude φ: a(1-e²) ∫ (1 - e² sin² t)^(-3/2) dt,
// by Simpson's rule.
double MeridianArc(double latitude_degrees) {
  const int steps = 10000;
  const double end = Radians(latitude_degrees);
  const double h = end / steps;
  double sum = 0;
  for (int i = 0; i <= steps; ++i) {
    const double s = std::sin(i * h);
    const double f = std::pow(1 - kE2 * s * s, -1.5);
    sum += f * (i == 0 || i == steps ? 1 : (i % 2 ? 4 : 2));
  }
  return kA * (1 - kE2) * sum * h / 3;
}

// Area between the equator and latitude φ over Δλ of longitude (authalic formula).
double ZoneArea(double latitude_degrees, double longitude_span_degrees) {
  const double e = std::sqrt(kE2);
  const double s = std::sin(Radians(latitude_degrees));
  const double q = s / (1 - kE2 * s * s) + std::log((1 + e * s) / (1 - e * s)) / (2 * e);
  return kB * kB * Radians(longitude_span_degrees) * q / 2;
}

TEST(GeodesyTest, OneDegreeAlongTheEquatorIsTheSemiMajorAxisTimesOneDegree) {
  EXPECT_NEAR(DistanceMetres(Point(0, 0), Point(1, 0)), kA * Radians(1), 0.01);
}

TEST(GeodesyTest, OneDegreeAlongAMeridianIsTheMeridianArc) {
  EXPECT_NEAR(DistanceMetres(Point(0, 0), Point(0, 1)), MeridianArc(1), 0.01);
  EXPECT_NEAR(DistanceMetres(Point(10, 45), Point(10, 46)), MeridianArc(46) - MeridianArc(45),
              0.01);
}

TEST(GeodesyTest, GeographicLibsJfkToLhrExample) {
  // GeographicLib's documented Inverse example: (40.6, -73.8) to (51.6, -0.5) is
  // 5551.759400 km on WGS-84.
  EXPECT_NEAR(DistanceMetres(Point(-73.8, 40.6), Point(-0.5, 51.6)), 5551759.4, 1.0);
}

TEST(GeodesyTest, DistanceIsSymmetricAndZeroForTheSamePoint) {
  EXPECT_DOUBLE_EQ(DistanceMetres(Point(31.9, -4.8), Point(31.9, -4.8)), 0);
  EXPECT_NEAR(DistanceMetres(Point(2, 3), Point(4, 5)), DistanceMetres(Point(4, 5), Point(2, 3)),
              1e-6);
}

TEST(GeodesyTest, DistanceFromAPointToAPolygonIsZeroInsideAndToTheNearestEdgeOutside) {
  const Shape square = Polygon({{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}});
  EXPECT_DOUBLE_EQ(DistanceMetres(Point(0.5, 0.5), square), 0);
  // South of the equator edge, straight down the meridian 0.5°E.
  EXPECT_NEAR(DistanceMetres(Point(0.5, -1), square), MeridianArc(1), 5);
}

TEST(GeodesyTest, WithinFollowsTheRingOrder) {
  const Shape square = Polygon({{31.8, -5}, {32, -5}, {32, -4.7}, {31.8, -4.7}, {31.8, -5}});
  EXPECT_TRUE(Within(Point(31.9, -4.8), square));
  EXPECT_FALSE(Within(Point(30, -4.8), square));
  // Clockwise: the rest of the globe.
  const Shape inverted = Polygon({{31.8, -5}, {31.8, -4.7}, {32, -4.7}, {32, -5}, {31.8, -5}});
  EXPECT_FALSE(Within(Point(31.9, -4.8), inverted));
  EXPECT_TRUE(Within(Point(30, -4.8), inverted));
}

TEST(GeodesyTest, IntersectsPointsLinesAndPolygons) {
  const Shape square = Polygon({{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}});
  const Shape crossing{ShapeType::kLineString, {{{{-1, 0.5}, {2, 0.5}}}}};
  const Shape outside{ShapeType::kLineString, {{{{-1, 5}, {2, 5}}}}};
  EXPECT_TRUE(Intersects(square, crossing));
  EXPECT_FALSE(Intersects(square, outside));
  EXPECT_TRUE(Intersects(Point(0.5, 0.5), square));
  EXPECT_FALSE(Intersects(Point(5, 5), square));
}

TEST(GeodesyTest, AreaOfAOneDegreeCellOnTheEquatorMatchesTheAuthalicZone) {
  // The northern edge is a geodesic, not the parallel, so allow 0.1%.
  const Shape cell = Polygon({{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}});
  const double expected = ZoneArea(1, 1);
  EXPECT_NEAR(AreaSquareMetres(cell), expected, expected * 1e-3);
}

TEST(GeodesyTest, TheServicesDocumentedArea) {
  // ST_AREA's documented example gives 735,970,283.0522614 m²; Vincenty-based area
  // series give 4.7 m² more (6e-9 relative).
  const Shape square = Polygon({{31.8, -5}, {32, -5}, {32, -4.7}, {31.8, -4.7}, {31.8, -5}});
  EXPECT_NEAR(AreaSquareMetres(square), 735970283.0522614, 10);  // we give 735,970,287.8
}

TEST(GeodesyTest, AClockwiseRingHasTheAreaOfTheRestOfTheGlobe) {
  // WGS-84's surface is 2 × ZoneArea(90°, 360°) = 510,065,621.7 km².
  const double earth = 2 * ZoneArea(90, 360);
  EXPECT_NEAR(earth, 5.100656217e14, 1e6);
  const Shape clockwise = Polygon({{0, 0}, {0, 1}, {1, 1}, {1, 0}, {0, 0}});
  EXPECT_NEAR(AreaSquareMetres(clockwise), earth - ZoneArea(1, 1), earth * 1e-6);
}

}  // namespace
}  // namespace orrery::spatial
