#pragma once

// Shapes (geojson.h) as Boost.Geometry models of one point type: geographic degrees for
// geodesy.cc and ring_crossings.cc, the plane for planar.cc. Include it only from the .cc
// files that already pay for the Boost.Geometry headers.

#include <boost/geometry.hpp>
#include <variant>

#include "spatial/geojson.h"

namespace orrery::spatial {

template <typename Point>
struct BoostShapes {
  using Line = boost::geometry::model::linestring<Point>;
  // Counter-clockwise, closed: GeoJSON's own ring order.
  using Polygon = boost::geometry::model::polygon<Point, false, true>;
  using MultiPolygon = boost::geometry::model::multi_polygon<Polygon>;
  using Any = std::variant<Point, Line, Polygon, MultiPolygon>;

  static Point ToPoint(const Position& position) {
    return Point(position.longitude, position.latitude);
  }

  static Line ToLine(const Ring& ring) {
    Line line;
    line.reserve(ring.size());
    for (const Position& position : ring) line.push_back(ToPoint(position));
    return line;
  }

  // The rings as written: exterior first, then holes.
  static Polygon ToPolygon(const PolygonRings& rings) {
    Polygon polygon;
    for (const Position& position : rings[0]) polygon.outer().push_back(ToPoint(position));
    for (size_t i = 1; i < rings.size(); ++i) {
      polygon.inners().emplace_back();
      for (const Position& position : rings[i]) {
        polygon.inners().back().push_back(ToPoint(position));
      }
    }
    return polygon;
  }

  static Any ToAny(const Shape& shape) {
    switch (shape.type) {
      case ShapeType::kPoint:
        return ToPoint(shape.point());
      case ShapeType::kLineString:
        return ToLine(shape.line());
      case ShapeType::kPolygon:
        return ToPolygon(shape.polygons[0]);
      case ShapeType::kMultiPolygon: {
        MultiPolygon multi;
        for (const PolygonRings& rings : shape.polygons) multi.push_back(ToPolygon(rings));
        return multi;
      }
    }
    return Point();
  }
};

}  // namespace orrery::spatial
