#include "spatial/planar.h"

#include <boost/geometry.hpp>
#include <variant>

#include "spatial/boost_shapes.h"

namespace orrery::spatial::planar {
namespace {

namespace bg = boost::geometry;

using Point = bg::model::d2::point_xy<double>;
using Plane = BoostShapes<Point>;
using Polygon = Plane::Polygon;
using MultiPolygon = Plane::MultiPolygon;
using Any = Plane::Any;

Any ToPlanar(const Shape& shape) {
  Any planar = Plane::ToAny(shape);
  // Either direction of a ring encloses the same region in the plane.
  if (auto* polygon = std::get_if<Polygon>(&planar)) bg::correct(*polygon);
  if (auto* multi = std::get_if<MultiPolygon>(&planar)) bg::correct(*multi);
  return planar;
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
