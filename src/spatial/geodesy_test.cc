// Expected values come from the service's (and SQL Server's) published results, or from
// closed forms computed here independently of the implementation.

#include "spatial/geodesy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "spatial/geojson.h"

namespace orrery::spatial {
namespace {

constexpr double kA = 6378137.0;             // the service's WGS-84 semi-major axis
constexpr double kB = 6356752.314;           // and semi-minor axis, to the millimetre
const double kE2 = 1 - kB * kB / (kA * kA);  // first eccentricity squared

Shape Point(double longitude, double latitude) {
  return Shape{ShapeType::kPoint, {{{Position{longitude, latitude}}}}};
}

Shape Polygon(Ring ring) { return Shape{ShapeType::kPolygon, {{std::move(ring)}}}; }

double Radians(double degrees) { return degrees * std::numbers::pi / 180; }

// Within `relative` of `expected`, relative to it.
void ExpectRelativelyNear(double actual, double expected, double relative) {
  EXPECT_NEAR(actual, expected, std::abs(expected) * relative) << "actual " << actual;
}

// Meridian arc length from the equator to latitude φ: a(1-e²) ∫ (1 - e² sin² t)^(-3/2) dt,
// by Simpson's rule.
double MeridianArc(double latitude_degrees) {
  const int steps = 20000;
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

TEST(GeodesyTest, TheServicesDocumentedDistances) {
  // ST_DISTANCE's documented example (learn.microsoft.com/cosmos-db/query/st-distance,
  // Azure-Samples/cosmos-db-nosql-query-samples scripts/st-distance): from two offices to
  // (-122.11758113953535, 47.66901087006131), in kilometres.
  const Shape reference = Point(-122.11758113953535, 47.66901087006131);
  ExpectRelativelyNear(
      DistanceMetres(Point(-122.12826822304672, 47.63980239335718), reference) / 1000,
      3.345269817267368, 1e-12);
  ExpectRelativelyNear(
      DistanceMetres(Point(-96.84368664765994, 46.81297794314663), reference) / 1000,
      1907.438421299902, 1e-12);
}

TEST(GeodesyTest, SqlServersPublishedDistances) {
  // The same library answers SQL Server's STDistance: 373,073.004092576 m in SQL Server
  // 2019 (gis.stackexchange.com question 380531), 1,422.99560435875 m from SqlGeography
  // 2014 (stackoverflow.com question 46159104). Both to the digits printed.
  ExpectRelativelyNear(DistanceMetres(Point(-119.02138, 35.22229), Point(-121.0777, 38.148205)),
                       373073.004092576, 1e-13);
  ExpectRelativelyNear(
      DistanceMetres(Point(-79.61162263, 43.68151632), Point(-79.59586143, 43.67575602)),
      1422.99560435875, 1e-13);
}

TEST(GeodesyTest, AShortArcIsTheOneNodeRule) {
  // Along the equator the arc is a circle of radius a; one Gauss node at the middle of the
  // chord between the normals measures 2a·tan(θ/2), not aθ: 2.83 m over for one degree.
  const double theta = Radians(1);
  ExpectRelativelyNear(DistanceMetres(Point(0, 0), Point(1, 0)), 2 * kA * std::tan(theta / 2),
                       1e-14);
  EXPECT_NEAR(DistanceMetres(Point(0, 0), Point(1, 0)) - kA * theta, 2.826, 0.001);
}

TEST(GeodesyTest, ALongArcIsTheGreatEllipse) {
  // A meridian is a great ellipse. Over 60° the rule takes 21 nodes: exact.
  EXPECT_NEAR(DistanceMetres(Point(10, 0), Point(10, 60)), MeridianArc(60), 1e-5);
  EXPECT_NEAR(DistanceMetres(Point(10, 60), Point(10, 0)), MeridianArc(60), 1e-5);
}

TEST(GeodesyTest, TheGreatEllipseIsLongerThanTheGeodesic) {
  // GeographicLib's documented Inverse example: (40.6, -73.8) to (51.6, -0.5) is
  // 5551.759400 km along the geodesic. The great elliptic arc is 1.80 m longer
  // (5,551,761.2009 m by a 40-digit quadrature, independent of this code).
  const double metres = DistanceMetres(Point(-73.8, 40.6), Point(-0.5, 51.6));
  EXPECT_GT(metres, 5551759.4);
  EXPECT_NEAR(metres - 5551759.4, 1.80, 0.01);
}

TEST(GeodesyTest, DistanceIsSymmetricAndZeroForTheSamePoint) {
  EXPECT_DOUBLE_EQ(DistanceMetres(Point(31.9, -4.8), Point(31.9, -4.8)), 0);
  EXPECT_NEAR(DistanceMetres(Point(2, 3), Point(4, 5)), DistanceMetres(Point(4, 5), Point(2, 3)),
              1e-6);
}

TEST(GeodesyTest, AntipodesAreHalfAMeridianApart) {
  // No single great ellipse joins antipodes; the one through the poles is the shortest.
  EXPECT_NEAR(DistanceMetres(Point(30, 0), Point(-150, 0)), 2 * MeridianArc(90), 1e-4);
}

TEST(GeodesyTest, DistanceFromAPointToAPolygonIsZeroInsideAndToTheNearestEdgeOutside) {
  const Shape square = Polygon({{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}});
  EXPECT_DOUBLE_EQ(DistanceMetres(Point(0.5, 0.5), square), 0);
  // South of the equator edge, straight up the meridian 0.5°E to the edge's middle.
  EXPECT_NEAR(DistanceMetres(Point(0.5, -1), square), DistanceMetres(Point(0.5, -1), Point(0.5, 0)),
              1e-6);
  // Past a corner, the corner.
  EXPECT_NEAR(DistanceMetres(Point(2, 2), square), DistanceMetres(Point(2, 2), Point(1, 1)), 1e-6);
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

TEST(GeodesyTest, TheServicesDocumentedArea) {
  // ST_AREA's documented example (learn.microsoft.com/cosmos-db/query/st-area):
  // 735,970,283.0522614 m². The area inside the great elliptic edges is 0.0046 m² more
  // (6e-12); geodesic edges gave 4.8 m² more.
  const Shape square = Polygon({{31.8, -5}, {32, -5}, {32, -4.7}, {31.8, -4.7}, {31.8, -5}});
  ExpectRelativelyNear(AreaSquareMetres(square), 735970283.0522614, 1e-11);
}

TEST(GeodesyTest, AreaOfAOneDegreeCellOnTheEquatorMatchesTheAuthalicZone) {
  // The northern edge is a great ellipse, not the parallel, so allow 0.1%.
  const Shape cell = Polygon({{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}});
  ExpectRelativelyNear(AreaSquareMetres(cell), ZoneArea(1, 1), 1e-3);
}

TEST(GeodesyTest, AHoleSubtracts) {
  const Shape holed{ShapeType::kPolygon,
                    {{{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}},
                      {{0.25, 0.25}, {0.25, 0.75}, {0.75, 0.75}, {0.75, 0.25}, {0.25, 0.25}}}}};
  const Shape hole =
      Polygon({{0.25, 0.25}, {0.75, 0.25}, {0.75, 0.75}, {0.25, 0.75}, {0.25, 0.25}});
  const Shape cell = Polygon({{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}});
  ExpectRelativelyNear(AreaSquareMetres(holed), AreaSquareMetres(cell) - AreaSquareMetres(hole),
                       1e-12);
}

TEST(GeodesyTest, AClockwiseRingHasTheAreaOfTheRestOfTheGlobe) {
  // WGS-84's surface is 2 × ZoneArea(90°, 360°) = 510,065,621.7 km².
  const double earth = 2 * ZoneArea(90, 360);
  EXPECT_NEAR(earth, 5.100656217e14, 1e6);
  const Shape clockwise = Polygon({{0, 0}, {0, 1}, {1, 1}, {1, 0}, {0, 0}});
  ExpectRelativelyNear(AreaSquareMetres(clockwise), earth - ZoneArea(1, 1), 1e-6);
}

TEST(GeodesyTest, ARingAroundAPoleEnclosesTheCapOnItsLeft) {
  // Eastward round the 80th parallel, a vertex a degree: the northern cap. Each edge
  // bulges ~40 m poleward of the parallel, 5e-5 of the cap.
  Ring east;
  for (int longitude = -180; longitude <= 180; ++longitude) east.push_back({double(longitude), 80});
  const double cap = ZoneArea(90, 360) - ZoneArea(80, 360);
  ExpectRelativelyNear(AreaSquareMetres(Polygon(east)), cap, 1e-4);
  // Westward: everything south of it.
  Ring west(east.rbegin(), east.rend());
  ExpectRelativelyNear(AreaSquareMetres(Polygon(west)), 2 * ZoneArea(90, 360) - cap, 1e-6);
}

}  // namespace
}  // namespace orrery::spatial
