#include "query/spatial_access.h"

#include <cctype>
#include <string>
#include <string_view>

#include "spatial/geojson.h"
#include "spatial/spatial_cells.h"

namespace orrery::query {
namespace {

using ast::As;
using ast::ExprKind;

bool IsNamed(const ast::CallExpr& call, std::string_view name) {
  if (call.is_udf || call.name.size() != name.size()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(call.name[i])) != name[i]) return false;
  }
  return true;
}

// The value of an expression made only of literals and parameters (GeoJSON written in
// the query is an object expression of arrays of numbers, some negated).
std::optional<json::Value> ConstantValue(const ast::Expr& expr) {
  switch (expr.kind) {
    case ExprKind::kLiteral:
      return As<ast::LiteralExpr>(expr).value;
    case ExprKind::kParameter:
      return As<ast::ParameterExpr>(expr).value;
    case ExprKind::kUnary: {
      const auto& unary = As<ast::UnaryExpr>(expr);
      std::optional<json::Value> operand = ConstantValue(*unary.operand);
      if (!operand || !operand->is_number()) return std::nullopt;
      if (unary.op == ast::UnaryOp::kPlus) return operand;
      if (unary.op != ast::UnaryOp::kNegate) return std::nullopt;
      return json::Value::Double(-operand->as_double());
    }
    case ExprKind::kArray: {
      json::Array elements;
      for (const ast::ExprPtr& element : As<ast::ArrayExpr>(expr).elements) {
        std::optional<json::Value> value = ConstantValue(*element);
        if (!value) return std::nullopt;
        elements.push_back(std::move(*value));
      }
      return json::Value::MakeArray(std::move(elements));
    }
    case ExprKind::kObject: {
      json::Object members;
      for (const auto& [name, member] : As<ast::ObjectExpr>(expr).members) {
        std::optional<json::Value> value = ConstantValue(*member);
        if (!value) return std::nullopt;
        members.emplace_back(name, std::move(*value));
      }
      return json::Value::MakeObject(std::move(members));
    }
    default:
      return std::nullopt;
  }
}

// The coordinate system of an ST_ call by its name: the function itself, or its planar
// twin; nullopt for any other call.
std::optional<spatial::CoordinateSystem> SystemOf(const ast::CallExpr& call,
                                                  std::string_view function) {
  if (IsNamed(call, function)) return spatial::CoordinateSystem::kGeography;
  if (IsNamed(call, "_" + std::string(function) + "_GEOMETRY")) {
    return spatial::CoordinateSystem::kGeometry;
  }
  return std::nullopt;
}

// One argument an item path, the other constant valid GeoJSON.
struct PathAndShape {
  DocumentPath path;
  spatial::Shape shape;
};

std::optional<PathAndShape> SplitArguments(const ast::CallExpr& call, const ItemPathOf& item_path,
                                           spatial::CoordinateSystem system) {
  if (call.args.size() != 2) return std::nullopt;
  for (int path_side : {0, 1}) {
    std::optional<DocumentPath> path = item_path(*call.args[path_side]);
    if (!path) continue;
    std::optional<json::Value> constant = ConstantValue(*call.args[1 - path_side]);
    if (!constant) return std::nullopt;
    std::optional<spatial::Shape> shape = spatial::ParseValidShape(*constant, system);
    if (!shape) return std::nullopt;
    return PathAndShape{std::move(*path), std::move(*shape)};
  }
  return std::nullopt;
}

// `margin` is in metres on the globe, in coordinate units in the plane.
PathPredicate Predicate(DocumentPath path, spatial::Shape region, double margin,
                        spatial::CoordinateSystem system) {
  PathPredicate predicate;
  predicate.kind = PathPredicate::Kind::kSpatial;
  predicate.path = std::move(path);
  predicate.path.emplace_back(spatial::kCellPathSegment);
  if (system == spatial::CoordinateSystem::kGeometry) {
    predicate.planar_region = std::move(region);
    predicate.planar_margin = margin;
    return predicate;
  }
  for (const spatial::CellRange& range :
       spatial::CellRanges(spatial::CoveringBoxes(region, margin))) {
    predicate.cells.emplace_back(range.first, range.last);
  }
  return predicate;
}

}  // namespace

std::optional<PathPredicate> SpatialDistancePredicate(const ast::BinaryExpr& comparison,
                                                      const ItemPathOf& item_path) {
  const ast::Expr* distance = comparison.left.get();
  const ast::Expr* bound = comparison.right.get();
  bool upper = comparison.op == ast::BinaryOp::kLess || comparison.op == ast::BinaryOp::kLessEqual;
  if (distance->kind != ExprKind::kCall) {
    std::swap(distance, bound);
    upper =
        comparison.op == ast::BinaryOp::kGreater || comparison.op == ast::BinaryOp::kGreaterEqual;
  }
  if (!upper || distance->kind != ExprKind::kCall) return std::nullopt;
  const auto& call = As<ast::CallExpr>(*distance);
  const std::optional<spatial::CoordinateSystem> system = SystemOf(call, "ST_DISTANCE");
  if (!system) return std::nullopt;
  std::optional<json::Value> limit = ConstantValue(*bound);
  if (!limit || !limit->is_number() || !(limit->as_double() >= 0)) return std::nullopt;
  std::optional<PathAndShape> arguments = SplitArguments(call, item_path, *system);
  if (!arguments) return std::nullopt;
  return Predicate(std::move(arguments->path), std::move(arguments->shape), limit->as_double(),
                   *system);
}

std::optional<PathPredicate> SpatialRegionPredicate(const ast::CallExpr& call,
                                                    const ItemPathOf& item_path) {
  std::optional<spatial::CoordinateSystem> system = SystemOf(call, "ST_WITHIN");
  const bool within = system.has_value();
  if (!within) system = SystemOf(call, "ST_INTERSECTS");
  if (!system) return std::nullopt;
  // ST_WITHIN(constant, c.path) asks whether the constant lies in the item's shape,
  // which no cell of the item's bounding region can decide: not served.
  if (within && !item_path(*call.args[0])) return std::nullopt;
  std::optional<PathAndShape> arguments = SplitArguments(call, item_path, *system);
  if (!arguments) return std::nullopt;
  return Predicate(std::move(arguments->path), std::move(arguments->shape), 0, *system);
}

}  // namespace orrery::query
