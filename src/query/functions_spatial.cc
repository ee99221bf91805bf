// Spatial functions (query-language.md §5.10) over GeoJSON on the WGS-84 ellipsoid.
// Arguments that are not valid GeoJSON Points, LineStrings, Polygons or MultiPolygons
// make the measuring functions undefined, as the service's ST_DISTANCE is documented
// to be; the validity checks always answer.

#include <array>
#include <cmath>
#include <optional>

#include "query/functions_internal.h"
#include "spatial/geodesy.h"
#include "spatial/geojson.h"

namespace orrery::query::functions_internal {
namespace {

using json::Value;

Value Distance(Args a) {
  std::optional<spatial::Shape> first = spatial::ParseValidShape(*a[0]);
  std::optional<spatial::Shape> second = spatial::ParseValidShape(*a[1]);
  if (!first || !second) return Value();
  const double metres = spatial::DistanceMetres(*first, *second);
  return std::isnan(metres) ? Value() : Value::Double(metres);
}

Value Within(Args a) {
  std::optional<spatial::Shape> inner = spatial::ParseValidShape(*a[0]);
  std::optional<spatial::Shape> outer = spatial::ParseValidShape(*a[1]);
  if (!inner || !outer) return Value();
  return Value::Bool(spatial::Within(*inner, *outer));
}

Value Intersects(Args a) {
  std::optional<spatial::Shape> first = spatial::ParseValidShape(*a[0]);
  std::optional<spatial::Shape> second = spatial::ParseValidShape(*a[1]);
  if (!first || !second) return Value();
  return Value::Bool(spatial::Intersects(*first, *second));
}

Value Area(Args a) {
  std::optional<spatial::Shape> shape = spatial::ParseValidShape(*a[0]);
  if (!shape) return Value();
  const double area = spatial::AreaSquareMetres(*shape);
  return std::isnan(area) ? Value() : Value::Double(area);
}

Value IsValid(Args a) { return Value::Bool(spatial::ParseValidShape(*a[0]).has_value()); }

Value IsValidDetailed(Args a) {
  std::optional<spatial::Shape> shape = spatial::ParseShape(*a[0]);
  if (!shape) return Value();
  std::optional<std::string> reason = spatial::InvalidReason(*shape);
  if (!reason) return Value::MakeObject({{"valid", Value::Bool(true)}});
  return Value::MakeObject({{"valid", Value::Bool(false)}, {"reason", Value::String(*reason)}});
}

constexpr AggregateKind kScalar = AggregateKind::kNone;

constexpr std::array kFunctions = {
    FunctionInfo{"ST_DISTANCE", 2, 2, Distance, kScalar},
    FunctionInfo{"ST_WITHIN", 2, 2, Within, kScalar},
    FunctionInfo{"ST_INTERSECTS", 2, 2, Intersects, kScalar},
    FunctionInfo{"ST_AREA", 1, 1, Area, kScalar},
    FunctionInfo{"ST_ISVALID", 1, 1, IsValid, kScalar},
    FunctionInfo{"ST_ISVALIDDETAILED", 1, 1, IsValidDetailed, kScalar},
};

}  // namespace

std::span<const FunctionInfo> SpatialFunctions() { return kFunctions; }

}  // namespace orrery::query::functions_internal
