#include "spatial/geodesy.h"

#include <algorithm>
#include <boost/geometry.hpp>
#include <cmath>
#include <limits>
#include <numbers>
#include <variant>
#include <vector>

#include "spatial/boost_shapes.h"

namespace orrery::spatial {
namespace {

// ---------------------------------------------------------------------------------------
// Lengths and areas: the service's own measure.
//
// The service (like SQL Server's geography type, whose spatial library it shares) does not
// measure along geodesics. A point is the direction of its surface normal, an edge is the
// straight segment between two such directions (which the ellipsoid maps onto the great
// elliptic arc through both points), and an edge's length is a Gauss–Legendre quadrature
// of the speed of that map along the segment, with one node per 0.05 rad of angle between
// the normals. Calibration (README.md): the ST_DISTANCE and ST_AREA documentation's
// values, and two published SQL Server STDistance values, agree with this to 1e-12 or
// better, where Vincenty's geodesic was off by up to 4e-8; the one-node rule is what puts
// the documented 3.3 km example 7.7e-5 m above the geodesic.

// The semi-minor axis is WGS-84's rounded to the millimetre: 6356752.3142 or the exact
// 6356752.314245 move the documented values by 2e-11, 6356752.314 fits them to 1e-15.
constexpr double kSemiMajor = 6378137.0;
constexpr double kSemiMinor = 6356752.314;
constexpr double kA2 = kSemiMajor * kSemiMajor;
constexpr double kB2 = kSemiMinor * kSemiMinor;
constexpr double kE2 = 1 - kB2 / kA2;  // first eccentricity squared
const double kE = std::sqrt(kE2);

// Gauss–Legendre nodes per radian of normal angle. The published values need one node at
// 5.3e-4 rad (3.3 km), two at 0.0586 rad (373 km) and six at 0.2985 rad (1,907 km): one
// node per step of 0.0498 to 0.0586 rad. The step is not published; 0.05 is inside.
constexpr double kRadiansPerGaussNode = 0.05;
// A single rule stays exact to 1e-14 up to here; past it the segment between the normals
// passes close to the centre and the quadrature fails, so longer arcs are halved.
constexpr double kMaxSingleRuleAngle = 2.5;
// Enough rules for the longest single-rule arc, and for the areas' finer integration.
constexpr int kMaxGaussNodes = 128;

struct Vec3 {
  double x = 0;
  double y = 0;
  double z = 0;
};

Vec3 operator+(const Vec3& a, const Vec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 operator-(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 operator*(double k, const Vec3& v) { return {k * v.x, k * v.y, k * v.z}; }
double Dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 Cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double Norm(const Vec3& v) { return std::sqrt(Dot(v, v)); }
Vec3 Unit(const Vec3& v) { return (1 / Norm(v)) * v; }

double Angle(const Vec3& a, const Vec3& b) { return std::atan2(Norm(Cross(a, b)), Dot(a, b)); }

// The outward normal at a position: geodetic latitude is the normal's latitude. Degrees
// times π/180, not ×π then ÷180: only that order gave SqlGeography's 15th digit.
Vec3 Normal(const Position& position) {
  constexpr double kRadians = std::numbers::pi / 180;
  const double longitude = position.longitude * kRadians;
  const double latitude = position.latitude * kRadians;
  const double c = std::cos(latitude);
  return {c * std::cos(longitude), c * std::sin(longitude), std::sin(latitude)};
}

// Nodes and weights on [0, 1] (the weights sum to 1).
struct GaussRule {
  std::vector<double> nodes;
  std::vector<double> weights;
};

// Newton's iteration on the Legendre polynomial from the usual cosine guesses.
GaussRule BuildRule(int n) {
  GaussRule rule{std::vector<double>(n), std::vector<double>(n)};
  for (int i = 0; i < (n + 1) / 2; ++i) {
    double z = std::cos(std::numbers::pi * (i + 0.75) / (n + 0.5));
    double derivative = 1;
    for (int iteration = 0; iteration < 100; ++iteration) {
      double p1 = 1;
      double p2 = 0;
      for (int j = 1; j <= n; ++j) {
        const double p3 = p2;
        p2 = p1;
        p1 = ((2 * j - 1) * z * p2 - (j - 1) * p3) / j;
      }
      derivative = n * (z * p1 - p2) / (z * z - 1);
      const double previous = z;
      z = previous - p1 / derivative;
      if (std::abs(z - previous) <= 1e-15) break;  // quadratic: the next step is ~1e-30
    }
    const double weight = 1 / ((1 - z * z) * derivative * derivative);  // half of 2/…
    rule.nodes[i] = (1 - z) / 2;
    rule.nodes[n - 1 - i] = (1 + z) / 2;
    rule.weights[i] = weight;
    rule.weights[n - 1 - i] = weight;
  }
  return rule;
}

const GaussRule& Rule(int nodes) {
  static const std::vector<GaussRule> rules = [] {
    std::vector<GaussRule> out;
    for (int n = 1; n <= kMaxGaussNodes; ++n) out.push_back(BuildRule(n));
    return out;
  }();
  return rules[std::clamp(nodes, 1, kMaxGaussNodes) - 1];
}

int NodesFor(double angle) {
  return std::max(1, static_cast<int>(std::ceil(angle / kRadiansPerGaussNode)));
}

// The direction halfway along the arc from `a` to `b`. Antipodal points have no single
// great ellipse; the one through the poles (the shortest) is taken.
Vec3 Midway(const Vec3& a, const Vec3& b) {
  const Vec3 sum = a + b;
  if (Norm(sum) > 1e-9) return Unit(sum);
  Vec3 toward_pole = Vec3{0, 0, 1} - a.z * a;
  if (Norm(toward_pole) < 1e-9) toward_pole = Vec3{1, 0, 0} - a.x * a;
  return Unit(toward_pole);
}

// How fast the ellipsoid point whose outward normal is m (any length) moves as m moves
// by d: X(m) = D m / √(m·D m) with D = diag(a², a², b²).
double Speed(const Vec3& m, const Vec3& d) {
  const Vec3 dm{kA2 * m.x, kA2 * m.y, kB2 * m.z};
  const Vec3 dd{kA2 * d.x, kA2 * d.y, kB2 * d.z};
  const double s2 = Dot(m, dm);
  const double s = std::sqrt(s2);
  const double k = Dot(m, dd) / (s2 * s);
  return Norm(Vec3{dd.x / s - dm.x * k, dd.y / s - dm.y * k, dd.z / s - dm.z * k});
}

// Length in metres of the edge between two unit normals.
double ArcLength(const Vec3& from, const Vec3& to) {
  const double angle = Angle(from, to);
  if (angle > kMaxSingleRuleAngle) {
    const Vec3 middle = Midway(from, to);
    return ArcLength(from, middle) + ArcLength(middle, to);
  }
  const GaussRule& rule = Rule(NodesFor(angle));
  const Vec3 d = to - from;
  double total = 0;
  for (size_t i = 0; i < rule.nodes.size(); ++i) {
    total += rule.weights[i] * Speed(from + rule.nodes[i] * d, d);
  }
  return total;
}

// The least angle between `p` and the normals along the edge a→b (a great circle arc).
double AngleToEdge(const Vec3& p, const Vec3& a, const Vec3& b) {
  const double ends = std::min(Angle(p, a), Angle(p, b));
  const Vec3 axis = Cross(a, b);
  if (Norm(axis) < 1e-15) return ends;
  const Vec3 u = Unit(axis);
  const Vec3 foot = p - Dot(p, u) * u;
  if (Dot(Cross(a, foot), u) < 0 || Dot(Cross(foot, b), u) < 0) return ends;
  return std::atan2(std::abs(Dot(p, u)), Norm(foot));
}

// No arc turns its normal faster than the ellipsoid's greatest curvature a/b², so an arc
// is at least its normals' angle times b²/a. Less a margin for the quadrature's own error.
constexpr double kMetresPerRadianAtLeast = kB2 / kSemiMajor * (1 - 1e-5);

// The shortest edge length from `p` to a point of the edge a→b, or `best` when that
// cannot beat it. The length along the edge has one minimum: a golden-section search.
double PointToEdge(const Vec3& p, const Vec3& a, const Vec3& b, double best) {
  if (AngleToEdge(p, a, b) * kMetresPerRadianAtLeast >= best) return best;
  const Vec3 d = b - a;
  const auto length_at = [&](double t) { return ArcLength(p, Unit(a + t * d)); };
  best = std::min({best, ArcLength(p, a), ArcLength(p, b)});
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double low = 0;
  double high = 1;
  double left = high - ratio * (high - low);
  double right = low + ratio * (high - low);
  double left_length = length_at(left);
  double right_length = length_at(right);
  for (int iteration = 0; iteration < 60; ++iteration) {
    if (left_length <= right_length) {
      high = right;
      right = left;
      right_length = left_length;
      left = high - ratio * (high - low);
      left_length = length_at(left);
    } else {
      low = left;
      left = right;
      left_length = right_length;
      right = low + ratio * (high - low);
      right_length = length_at(right);
    }
  }
  return std::min({best, left_length, right_length});
}

// Areas: the region's authalic integral, sin β being the sine of the authalic latitude
// β(φ), ∫∫ dA = R_q² ∫∫ cos β dβ dλ = −R_q² ∮ sin β dλ for a ring that keeps its
// interior on the left. Integrated along each edge's own (great elliptic) arc; the
// documented area agrees to 6e-12 (0.005 m²), nearer than any quadrature we tried.
double AuthalicQ(double sin_latitude) {
  const double s = sin_latitude;
  return (1 - kE2) * (s / (1 - kE2 * s * s) + std::atanh(kE * s) / kE);
}
const double kPoleQ = AuthalicQ(1);
const double kAuthalicRadius2 = kA2 * kPoleQ / 2;

double SinAuthalic(const Vec3& normal) { return AuthalicQ(normal.z / Norm(normal)) / kPoleQ; }

// +1 or −1 when the edge a→b passes near that pole (within about 14°), else 0. Near a
// pole the longitude sweeps fast, so there the integrand is taken relative to ±1.
int NearPole(const Vec3& a, const Vec3& b) {
  constexpr double kPoleZoneZ = 0.97;
  double extreme = std::abs(a.z) > std::abs(b.z) ? a.z : b.z;
  const Vec3 axis = Cross(a, b);
  if (Norm(axis) > 1e-15) {
    const Vec3 u = Unit(axis);
    const Vec3 top = Vec3{0, 0, 1} - u.z * u;  // the circle's northernmost direction
    if (Norm(top) > 1e-15) {
      for (const Vec3& t : {Unit(top), -1.0 * Unit(top)}) {
        if (Dot(Cross(a, t), u) >= 0 && Dot(Cross(t, b), u) >= 0 &&
            std::abs(t.z) > std::abs(extreme)) {
          extreme = t.z;
        }
      }
    }
  }
  if (std::abs(extreme) < kPoleZoneZ) return 0;
  return extreme > 0 ? 1 : -1;
}

// ∫ (sin β − c) dλ along the edge a→b (λ the longitude), by Gauss–Legendre in the
// direction-space parameter with several nodes per step of the length rule.
double EdgeIntegral(const Vec3& a, const Vec3& b, double c, bool near_pole) {
  const double angle = Angle(a, b);
  if (angle > kMaxSingleRuleAngle) {
    const Vec3 middle = Midway(a, b);
    return EdgeIntegral(a, middle, c, near_pole) + EdgeIntegral(middle, b, c, near_pole);
  }
  const int nodes = (4 + 2 * NodesFor(angle)) * (near_pole ? 2 : 1);
  const GaussRule& rule = Rule(nodes);
  const Vec3 d = b - a;
  double total = 0;
  for (size_t i = 0; i < rule.nodes.size(); ++i) {
    const Vec3 m = a + rule.nodes[i] * d;
    const double r2 = m.x * m.x + m.y * m.y;
    if (r2 <= 0) continue;  // on the axis, where sin β − c is 0 too
    const double longitude_rate = (m.x * d.y - m.y * d.x) / r2;
    total += rule.weights[i] * (SinAuthalic(m) - c) * longitude_rate;
  }
  return total;
}

// The ring's longitude step, in radians, the short way round.
double LongitudeStep(const Position& from, const Position& to) {
  double step = to.longitude - from.longitude;
  if (step > 180) step -= 360;
  if (step <= -180) step += 360;
  return step * (std::numbers::pi / 180);
}

// Area in square metres of the region on the ring's left; a ring that keeps its interior
// on the right (a hole as GeoJSON writes it) gives minus the area it encloses, unless it
// goes around a pole.
double RingArea(const Ring& ring) {
  if (ring.size() < 4) return 0;
  // Relative to the first vertex's sin β, a small ring's terms do not cancel.
  const double reference = SinAuthalic(Normal(ring[0]));
  double integral = 0;    // Σ ∫ (sin β − c) dλ
  double constants = 0;   // Σ (c − reference) Δλ
  double longitudes = 0;  // Σ Δλ: 0, or ±2π around a pole
  for (size_t i = 1; i < ring.size(); ++i) {
    const Vec3 a = Normal(ring[i - 1]);
    const Vec3 b = Normal(ring[i]);
    const double step = LongitudeStep(ring[i - 1], ring[i]);
    const int pole = NearPole(a, b);
    const double c = pole != 0 ? pole : reference;
    integral += EdgeIntegral(a, b, c, pole != 0);
    constants += (c - reference) * step;
    longitudes += step;
  }
  const double turns = std::round(longitudes / (2 * std::numbers::pi));
  const double sin_integral =
      integral + constants + reference * turns * 2 * std::numbers::pi;  // ∮ sin β dλ
  return kAuthalicRadius2 * (std::abs(turns) * 2 * std::numbers::pi - sin_integral);
}

// The whole ellipsoid, 4π R_q².
const double kEarthArea = 4 * std::numbers::pi * kAuthalicRadius2;

// ---------------------------------------------------------------------------------------
// Within and intersects: Boost.Geometry on the ellipsoid. Its edges are geodesics, some
// 300 m from the service's great elliptic arcs midway along a 1,500 km edge, which only
// matters for a point that near a long edge.

namespace bg = boost::geometry;

using GeoPoint = bg::model::point<double, 2, bg::cs::geographic<bg::degree>>;
using Geo = BoostShapes<GeoPoint>;
using GeoPolygon = Geo::Polygon;
using GeoMultiPolygon = Geo::MultiPolygon;
using GeoShape = Geo::Any;

const bg::srs::spheroid<double> kWgs84(kSemiMajor, kSemiMinor);

using BoostArea =
    bg::strategy::area::geographic<bg::strategy::vincenty, 4, bg::srs::spheroid<double>>;

GeoPoint ToPoint(const Position& position) { return Geo::ToPoint(position); }
GeoPolygon ToPolygon(const PolygonRings& rings) { return Geo::ToPolygon(rings); }
GeoShape ToGeo(const Shape& shape) { return Geo::ToAny(shape); }

// Signed area of one ring as written: positive when counter-clockwise. Only its sign is
// used, to tell an inverted polygon.
double SignedRingArea(const Ring& ring) {
  GeoPolygon polygon;
  for (const Position& position : ring) polygon.outer().push_back(ToPoint(position));
  return bg::area(polygon, BoostArea(kWgs84));
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

// The rings' signed areas added up, as written: holes, clockwise, subtract.
double AreaAsWritten(const PolygonRings& rings) {
  double total = 0;
  for (const Ring& ring : rings) total += RingArea(ring);
  return total;
}

double PolygonArea(const PolygonRings& rings) {
  if (IsInverted(rings)) return kEarthArea - std::abs(AreaAsWritten(Reversed(rings)));
  return AreaAsWritten(rings);
}

// A point against a polygon that may be inverted (clockwise exterior ring).
bool PointInPolygon(const Position& point, const PolygonRings& rings) {
  if (IsInverted(rings)) {
    return !bg::covered_by(ToPoint(point), ToPolygon(Reversed(rings)));
  }
  return bg::within(ToPoint(point), ToPolygon(rings));
}

// Every vertex of the shape, and every edge (each polygon ring's edges included).
std::vector<Position> Vertices(const Shape& shape) {
  std::vector<Position> out;
  for (const PolygonRings& polygon : shape.polygons) {
    for (const Ring& ring : polygon) out.insert(out.end(), ring.begin(), ring.end());
  }
  return out;
}

struct Edge {
  Vec3 from;
  Vec3 to;
};

std::vector<Edge> Edges(const Shape& shape) {
  std::vector<Edge> out;
  for (const PolygonRings& polygon : shape.polygons) {
    for (const Ring& ring : polygon) {
      for (size_t i = 1; i < ring.size(); ++i) {
        out.push_back(Edge{Normal(ring[i - 1]), Normal(ring[i])});
      }
    }
  }
  return out;
}

double VertexToEdges(const Shape& from, const Shape& to) {
  double best = std::numeric_limits<double>::infinity();
  const std::vector<Edge> edges = Edges(to);
  for (const Position& vertex : Vertices(from)) {
    const Vec3 p = Normal(vertex);
    if (edges.empty()) {
      for (const Position& other : Vertices(to)) best = std::min(best, ArcLength(p, Normal(other)));
      continue;
    }
    for (const Edge& edge : edges) best = PointToEdge(p, edge.from, edge.to, best);
  }
  return best;
}

}  // namespace

bool IsInverted(const PolygonRings& rings) { return SignedRingArea(rings[0]) < 0; }

namespace {

bool IntersectsUnguarded(const Shape& a, const Shape& b);

double DistanceMetresUnguarded(const Shape& a, const Shape& b) {
  if (a.type == ShapeType::kPoint && b.type == ShapeType::kPoint) {
    return ArcLength(Normal(a.point()), Normal(b.point()));
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
