#include "spatial/ring_crossings.h"

#include <boost/geometry.hpp>

namespace orrery::spatial {
namespace {

namespace bg = boost::geometry;

// Edges are great-circle arcs on the ellipsoid, as in distance and area (geodesy.cc).
using GeoPoint = bg::model::point<double, 2, bg::cs::geographic<bg::degree>>;
using GeoLine = bg::model::linestring<GeoPoint>;
using GeoArea = bg::model::polygon<GeoPoint>;

GeoLine ToLine(const Ring& ring) {
  GeoLine line;
  line.reserve(ring.size());
  for (const Position& p : ring) line.emplace_back(p.longitude, p.latitude);
  return line;
}

// A closed ring as a linestring meets itself at its start and end: that is not a
// crossing. Anything else is: an edge crossing another, or a vertex visited twice.
bool CrossesItself(const GeoLine& ring) {
  if (ring.size() < 4) return false;
  // Dropping the closing point leaves an open path whose self-intersections are exactly
  // the ring's, but for the last edge meeting the first, checked below.
  const GeoLine open(ring.begin(), ring.end() - 1);
  if (bg::intersects(open)) return true;
  const GeoLine last{ring[ring.size() - 2], ring.back()};
  const GeoLine middle(ring.begin() + 1, ring.end() - 2);
  return middle.size() >= 2 && bg::intersects(last, middle);
}

// A ring as the area it encloses, whatever the direction it was written in.
GeoArea ToArea(const GeoLine& ring) {
  GeoArea area;
  area.outer().assign(ring.begin(), ring.end());
  bg::correct(area);
  return area;
}

// A hole lies inside the exterior ring and outside every other hole; it may touch them
// at a point.
bool HoleCrosses(const GeoArea& hole, const GeoArea& exterior) {
  return !bg::covered_by(hole, exterior);
}
bool HolesCross(const GeoArea& a, const GeoArea& b) {
  return bg::intersects(a, b) && !bg::touches(a, b);
}

}  // namespace

std::optional<size_t> FirstCrossingRing(const PolygonRings& polygon) {
  std::vector<GeoArea> areas;
  areas.reserve(polygon.size());
  for (size_t i = 0; i < polygon.size(); ++i) {
    const GeoLine ring = ToLine(polygon[i]);
    if (CrossesItself(ring)) return i + 1;
    areas.push_back(ToArea(ring));
  }
  // Pairs are named by their first ring, as the exterior's crossing with a hole is.
  for (size_t i = 0; i < areas.size(); ++i) {
    for (size_t j = i + 1; j < areas.size(); ++j) {
      const bool crossing =
          i == 0 ? HoleCrosses(areas[j], areas[0]) : HolesCross(areas[i], areas[j]);
      if (crossing) return i + 1;
    }
  }
  return std::nullopt;
}

}  // namespace orrery::spatial
