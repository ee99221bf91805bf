#include "spatial/planar.h"

#include <boost/geometry.hpp>
#include <variant>

namespace orrery::spatial::planar {
namespace {

namespace bg = boost::geometry;

using Point = bg::model::d2::point_xy<double>;
using Line = bg::model::linestring<Point>;
using Polygon = bg::model::polygon<Point, false, true>;  // counter-clockwise, closed
using MultiPolygon = bg::model::multi_polygon<Polygon>;
using Any = std::variant<Point, Line, Polygon, MultiPolygon>;

Point ToPoint(const Position& p) { return Point(p.longitude, p.latitude); }

Polygon ToPolygon(const PolygonRings& rings) {
  Polygon polygon;
  for (const Position& p : rings[0]) polygon.outer().push_back(ToPoint(p));
  for (size_t i = 1; i < rings.size(); ++i) {
    polygon.inners().emplace_back();
    for (const Position& p : rings[i]) polygon.inners().back().push_back(ToPoint(p));
  }
  // Either direction encloses the same region in the plane.
  bg::correct(polygon);
  return polygon;
}

Any ToPlanar(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::kPoint:
      return ToPoint(shape.point());
    case ShapeType::kLineString: {
      Line line;
      for (const Position& p : shape.line()) line.push_back(ToPoint(p));
      return line;
    }
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

bool IsAreal(const Any& shape) {
  return std::holds_alternative<Polygon>(shape) || std::holds_alternative<MultiPolygon>(shape);
}

}  // namespace

double Distance(const Shape& a, const Shape& b) {
  return std::visit([](const auto& x, const auto& y) { return bg::distance(x, y); }, ToPlanar(a),
                    ToPlanar(b));
}

bool Within(const Shape& inner, const Shape& outer) {
  const Any container = ToPlanar(outer);
  if (!IsAreal(container)) return false;
  return std::visit(
      [](const auto& x, const auto& y) {
        using Outer = std::decay_t<decltype(y)>;
        if constexpr (std::is_same_v<Outer, Polygon> || std::is_same_v<Outer, MultiPolygon>) {
          return bg::within(x, y);
        } else {
          return false;
        }
      },
      ToPlanar(inner), container);
}

bool Intersects(const Shape& a, const Shape& b) {
  return std::visit([](const auto& x, const auto& y) { return bg::intersects(x, y); }, ToPlanar(a),
                    ToPlanar(b));
}

double Area(const Shape& shape) {
  const Any planar = ToPlanar(shape);
  return std::visit([](const auto& x) { return static_cast<double>(bg::area(x)); }, planar);
}

}  // namespace orrery::spatial::planar
