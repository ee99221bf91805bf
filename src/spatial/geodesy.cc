#include "spatial/geodesy.h"

#include <algorithm>
#include <boost/geometry.hpp>
#include <cmath>
#include <limits>
#include <variant>

#include "spatial/boost_shapes.h"

namespace orrery::spatial {
namespace {

namespace bg = boost::geometry;

using GeoPoint = bg::model::point<double, 2, bg::cs::geographic<bg::degree>>;
using Geo = BoostShapes<GeoPoint>;
using GeoLine = Geo::Line;
using GeoSegment = bg::model::segment<GeoPoint>;
using GeoPolygon = Geo::Polygon;
using GeoMultiPolygon = Geo::MultiPolygon;
using GeoShape = Geo::Any;

const bg::srs::spheroid<double> kWgs84(6378137.0, 6356752.3142451793);

// Vincenty's inverse formula: sub-millimetre on the ellipsoid. (Boost 1.74 ships
// Karney's formula only half-wired: its strategy policy is commented out.)
using PointDistance =
    bg::strategy::distance::geographic<bg::strategy::vincenty, bg::srs::spheroid<double>>;
using SegmentDistance = bg::strategy::distance::geographic_cross_track<bg::strategy::vincenty,
                                                                       bg::srs::spheroid<double>>;
using Area = bg::strategy::area::geographic<bg::strategy::vincenty, 4, bg::srs::spheroid<double>>;

GeoPoint ToPoint(const Position& position) { return Geo::ToPoint(position); }
GeoPolygon ToPolygon(const PolygonRings& rings) { return Geo::ToPolygon(rings); }
GeoShape ToGeo(const Shape& shape) { return Geo::ToAny(shape); }

// Signed area of one ring as written: positive when counter-clockwise.
double SignedRingArea(const Ring& ring) {
  GeoPolygon polygon;
  for (const Position& position : ring) polygon.outer().push_back(ToPoint(position));
  return bg::area(polygon, Area(kWgs84));
}

}  // namespace
bool IsInverted(const PolygonRings& rings);
namespace {

// The polygon with its exterior ring turned counter-clockwise: the complement of an
// inverted polygon's region.
PolygonRings Reversed(const PolygonRings& rings) {
  PolygonRings reversed = rings;
  std::reverse(reversed[0].begin(), reversed[0].end());
  return reversed;
}

double EarthArea() {
  // The whole ellipsoid: twice the area of a hemisphere bounded by the equator.
  GeoPolygon north;
  for (double longitude : {-180.0, -90.0, 0.0, 90.0, 180.0}) {
    north.outer().push_back(GeoPoint(longitude, 0));
  }
  north.outer().push_back(GeoPoint(180, 90));
  north.outer().push_back(GeoPoint(-180, 90));
  north.outer().push_back(GeoPoint(-180, 0));
  return 2 * std::abs(bg::area(north, Area(kWgs84)));
}

double PolygonArea(const PolygonRings& rings) {
  if (IsInverted(rings)) {
    static const double earth = EarthArea();
    return earth - std::abs(bg::area(ToPolygon(Reversed(rings)), Area(kWgs84)));
  }
  return bg::area(ToPolygon(rings), Area(kWgs84));
}

// A point against a polygon that may be inverted (clockwise exterior ring).
bool PointInPolygon(const Position& point, const PolygonRings& rings) {
  if (IsInverted(rings)) {
    return !bg::covered_by(ToPoint(point), ToPolygon(Reversed(rings)));
  }
  return bg::within(ToPoint(point), ToPolygon(rings));
}

// Every vertex of the shape and every edge (each polygon ring's edges included).
std::vector<Position> Vertices(const Shape& shape) {
  std::vector<Position> out;
  for (const PolygonRings& polygon : shape.polygons) {
    for (const Ring& ring : polygon) out.insert(out.end(), ring.begin(), ring.end());
  }
  return out;
}

std::vector<GeoSegment> Edges(const Shape& shape) {
  std::vector<GeoSegment> out;
  for (const PolygonRings& polygon : shape.polygons) {
    for (const Ring& ring : polygon) {
      for (size_t i = 1; i < ring.size(); ++i) {
        out.emplace_back(ToPoint(ring[i - 1]), ToPoint(ring[i]));
      }
    }
  }
  return out;
}

double VertexToEdges(const Shape& from, const Shape& to) {
  double best = std::numeric_limits<double>::infinity();
  const std::vector<GeoSegment> edges = Edges(to);
  for (const Position& vertex : Vertices(from)) {
    const GeoPoint point = ToPoint(vertex);
    if (edges.empty()) {
      for (const Position& other : Vertices(to)) {
        best = std::min(best, bg::distance(point, ToPoint(other), PointDistance(kWgs84)));
      }
      continue;
    }
    for (const GeoSegment& edge : edges) {
      best = std::min(best, bg::distance(point, edge, SegmentDistance(kWgs84)));
    }
  }
  return best;
}

}  // namespace

bool IsInverted(const PolygonRings& rings) { return SignedRingArea(rings[0]) < 0; }

namespace {

bool IntersectsUnguarded(const Shape& a, const Shape& b);

double DistanceMetresUnguarded(const Shape& a, const Shape& b) {
  if (a.type == ShapeType::kPoint && b.type == ShapeType::kPoint) {
    return bg::distance(ToPoint(a.point()), ToPoint(b.point()), PointDistance(kWgs84));
  }
  if (IntersectsUnguarded(a, b)) return 0;
  // Shapes that do not meet are nearest at a vertex of one of them.
  return std::min(VertexToEdges(a, b), VertexToEdges(b, a));
}

bool WithinUnguarded(const Shape& inner, const Shape& outer) {
  if (outer.type != ShapeType::kPolygon && outer.type != ShapeType::kMultiPolygon) return false;
  if (inner.type == ShapeType::kPoint) {
    return std::any_of(
        outer.polygons.begin(), outer.polygons.end(),
        [&](const PolygonRings& rings) { return PointInPolygon(inner.point(), rings); });
  }
  const GeoShape geo_inner = ToGeo(inner);
  const GeoShape geo_outer = ToGeo(outer);
  return std::visit(
      [](const auto& in, const auto& out) -> bool {
        using Out = std::decay_t<decltype(out)>;
        using In = std::decay_t<decltype(in)>;
        if constexpr ((std::is_same_v<Out, GeoPolygon> ||
                       std::is_same_v<Out, GeoMultiPolygon>)&&!std::is_same_v<In, GeoPoint>) {
          return bg::within(in, out);
        } else {
          return false;
        }
      },
      geo_inner, geo_outer);
}

bool IntersectsUnguarded(const Shape& a, const Shape& b) {
  if (a.type == ShapeType::kPoint && b.type != ShapeType::kPoint &&
      b.type != ShapeType::kLineString) {
    return std::any_of(b.polygons.begin(), b.polygons.end(), [&](const PolygonRings& rings) {
      return IsInverted(rings) ? !bg::within(ToPoint(a.point()), ToPolygon(Reversed(rings)))
                               : bg::covered_by(ToPoint(a.point()), ToPolygon(rings));
    });
  }
  if (b.type == ShapeType::kPoint && a.type != ShapeType::kPoint) return IntersectsUnguarded(b, a);
  const GeoShape geo_a = ToGeo(a);
  const GeoShape geo_b = ToGeo(b);
  return std::visit([](const auto& x, const auto& y) -> bool { return bg::intersects(x, y); },
                    geo_a, geo_b);
}

double AreaSquareMetresUnguarded(const Shape& shape) {
  if (shape.type != ShapeType::kPolygon && shape.type != ShapeType::kMultiPolygon) return 0;
  double total = 0;
  for (const PolygonRings& rings : shape.polygons) total += PolygonArea(rings);
  return total;
}

}  // namespace

// Boost.Geometry throws on some inputs it cannot handle (an overlay of self-touching
// rings, say). A query must not fail for one odd item: it gets no answer instead.
template <typename T, typename F>
T Guarded(T on_error, F&& compute) {
  try {
    return compute();
  } catch (const std::exception&) {
    return on_error;
  }
}

double DistanceMetres(const Shape& a, const Shape& b) {
  return Guarded(std::numeric_limits<double>::quiet_NaN(),
                 [&] { return DistanceMetresUnguarded(a, b); });
}

bool Within(const Shape& inner, const Shape& outer) {
  return Guarded(false, [&] { return WithinUnguarded(inner, outer); });
}

bool Intersects(const Shape& a, const Shape& b) {
  return Guarded(false, [&] { return IntersectsUnguarded(a, b); });
}

double AreaSquareMetres(const Shape& shape) {
  return Guarded(std::numeric_limits<double>::quiet_NaN(),
                 [&] { return AreaSquareMetresUnguarded(shape); });
}

}  // namespace orrery::spatial
