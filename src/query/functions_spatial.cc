// Spatial functions (query-language.md §5.10) over GeoJSON on the WGS-84 ellipsoid, and
// their twins in the plane for geometry containers.
// Arguments that are not valid GeoJSON Points, LineStrings, Polygons or MultiPolygons
// make the measuring functions undefined, as the service's ST_DISTANCE is documented
// to be; the validity checks always answer.

#include <array>
#include <cmath>
#include <optional>

#include "query/functions_internal.h"
#include "spatial/geodesy.h"
#include "spatial/geojson.h"
#include "spatial/planar.h"

namespace orrery::query::functions_internal {
namespace {

using json::Value;

constexpr spatial::CoordinateSystem kGeography = spatial::CoordinateSystem::kGeography;
constexpr spatial::CoordinateSystem kGeometry = spatial::CoordinateSystem::kGeometry;

template <spatial::CoordinateSystem kSystem>
std::optional<spatial::Shape> Valid(const Value& value) {
  return spatial::ParseValidShape(value, kSystem);
}

// The value of `measure(first, second)` when both arguments are valid shapes, else
// undefined.
template <spatial::CoordinateSystem kSystem, typename Measure>
Value OfTwoShapes(Args a, Measure measure) {
  std::optional<spatial::Shape> first = Valid<kSystem>(*a[0]);
  std::optional<spatial::Shape> second = Valid<kSystem>(*a[1]);
  if (!first || !second) return Value();
  return measure(*first, *second);
}

template <spatial::CoordinateSystem kSystem>
Value Distance(Args a) {
  return OfTwoShapes<kSystem>(a, [](const spatial::Shape& x, const spatial::Shape& y) {
    const double distance =
        kSystem == kGeometry ? spatial::planar::Distance(x, y) : spatial::DistanceMetres(x, y);
    return std::isnan(distance) ? Value() : Value::Double(distance);
  });
}

template <spatial::CoordinateSystem kSystem>
Value Within(Args a) {
  return OfTwoShapes<kSystem>(a, [](const spatial::Shape& inner, const spatial::Shape& outer) {
    return Value::Bool(kSystem == kGeometry ? spatial::planar::Within(inner, outer)
                                            : spatial::Within(inner, outer));
  });
}

template <spatial::CoordinateSystem kSystem>
Value Intersects(Args a) {
  return OfTwoShapes<kSystem>(a, [](const spatial::Shape& x, const spatial::Shape& y) {
    return Value::Bool(kSystem == kGeometry ? spatial::planar::Intersects(x, y)
                                            : spatial::Intersects(x, y));
  });
}

template <spatial::CoordinateSystem kSystem>
Value Area(Args a) {
  std::optional<spatial::Shape> shape = Valid<kSystem>(*a[0]);
  if (!shape) return Value();
  const double area =
      kSystem == kGeometry ? spatial::planar::Area(*shape) : spatial::AreaSquareMetres(*shape);
  return std::isnan(area) ? Value() : Value::Double(area);
}

template <spatial::CoordinateSystem kSystem>
Value IsValid(Args a) {
  return Value::Bool(Valid<kSystem>(*a[0]).has_value());
}

template <spatial::CoordinateSystem kSystem>
Value IsValidDetailed(Args a) {
  std::optional<spatial::Shape> shape = spatial::ParseShape(*a[0]);
  if (!shape) return Value();
  std::optional<std::string> reason = spatial::InvalidReason(*shape, kSystem);
  if (!reason) return Value::MakeObject({{"valid", Value::Bool(true)}});
  return Value::MakeObject({{"valid", Value::Bool(false)}, {"reason", Value::String(*reason)}});
}

constexpr AggregateKind kScalar = AggregateKind::kNone;

// The geometry twins (GeometryTwinOf) serve containers whose geospatialConfig type is
// "Geometry": the same arguments, measured in the plane.
constexpr std::array kFunctions = {
    FunctionInfo{"ST_DISTANCE", 2, 2, Distance<kGeography>, kScalar},
    FunctionInfo{"ST_WITHIN", 2, 2, Within<kGeography>, kScalar},
    FunctionInfo{"ST_INTERSECTS", 2, 2, Intersects<kGeography>, kScalar},
    FunctionInfo{"ST_AREA", 1, 1, Area<kGeography>, kScalar},
    FunctionInfo{"ST_ISVALID", 1, 1, IsValid<kGeography>, kScalar},
    FunctionInfo{"ST_ISVALIDDETAILED", 1, 1, IsValidDetailed<kGeography>, kScalar},
    FunctionInfo{"_ST_DISTANCE_GEOMETRY", 2, 2, Distance<kGeometry>, kScalar},
    FunctionInfo{"_ST_WITHIN_GEOMETRY", 2, 2, Within<kGeometry>, kScalar},
    FunctionInfo{"_ST_INTERSECTS_GEOMETRY", 2, 2, Intersects<kGeometry>, kScalar},
    FunctionInfo{"_ST_AREA_GEOMETRY", 1, 1, Area<kGeometry>, kScalar},
    FunctionInfo{"_ST_ISVALID_GEOMETRY", 1, 1, IsValid<kGeometry>, kScalar},
    FunctionInfo{"_ST_ISVALIDDETAILED_GEOMETRY", 1, 1, IsValidDetailed<kGeometry>, kScalar},
};

}  // namespace

std::span<const FunctionInfo> SpatialFunctions() { return kFunctions; }

}  // namespace orrery::query::functions_internal
