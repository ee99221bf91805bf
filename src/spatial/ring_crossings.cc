#include "spatial/ring_crossings.h"

#include <boost/geometry.hpp>

#include "spatial/boost_shapes.h"

namespace orrery::spatial {
namespace {

namespace bg = boost::geometry;

// Geography: edges are great-circle arcs on the ellipsoid, as in distance and area
// (geodesy.cc). Geometry: straight segments in the plane (planar.cc).
using GeoPoint = bg::model::point<double, 2, bg::cs::geographic<bg::degree>>;
using PlanePoint = bg::model::d2::point_xy<double>;

template <typename Point>
struct Rings {
  using Line = typename BoostShapes<Point>::Line;
  using Area = bg::model::polygon<Point>;

  static Line ToLine(const Ring& ring) { return BoostShapes<Point>::ToLine(ring); }

  // A closed ring as a linestring meets itself at its start and end: that is not a
  // crossing. Anything else is: an edge crossing another, or a vertex visited twice.
  static bool CrossesItself(const Line& ring) {
    if (ring.size() < 4) return false;
    // Dropping the closing point leaves an open path whose self-intersections are
    // exactly the ring's, but for the last edge meeting the first, checked below.
    const Line open(ring.begin(), ring.end() - 1);
    if (bg::intersects(open)) return true;
    const Line last{ring[ring.size() - 2], ring.back()};
    const Line middle(ring.begin() + 1, ring.end() - 2);
    return middle.size() >= 2 && bg::intersects(last, middle);
  }

  // A ring as the area it encloses, whatever the direction it was written in.
  static Area ToArea(const Line& ring) {
    Area area;
    area.outer().assign(ring.begin(), ring.end());
    bg::correct(area);
    return area;
  }

  // A hole lies inside the exterior ring and outside every other hole; it may touch
  // them at a point.
  static bool HoleCrosses(const Area& hole, const Area& exterior) {
    return !bg::covered_by(hole, exterior);
  }
  static bool HolesCross(const Area& a, const Area& b) {
    return bg::intersects(a, b) && !bg::touches(a, b);
  }

  static std::optional<size_t> FirstCrossing(const PolygonRings& polygon) {
    std::vector<Area> areas;
    areas.reserve(polygon.size());
    for (size_t i = 0; i < polygon.size(); ++i) {
      const Line ring = ToLine(polygon[i]);
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
};

}  // namespace

std::optional<size_t> FirstCrossingRing(const PolygonRings& polygon, CoordinateSystem system) {
  return system == CoordinateSystem::kGeometry ? Rings<PlanePoint>::FirstCrossing(polygon)
                                               : Rings<GeoPoint>::FirstCrossing(polygon);
}

}  // namespace orrery::spatial
