#pragma once

// The WHERE conjuncts a spatial index serves (query-language.md §9.2), as PathPredicates
// of kind kSpatial: `ST_DISTANCE(c.path, constant) < d` (or <=, either argument order,
// either side of the comparison), `ST_WITHIN(c.path, constant)` and
// `ST_INTERSECTS(c.path, constant)` (either order) where the constant is valid GeoJSON;
// in a Geometry container, the same over their planar twins (geometry_references.h).
// Internal to src/query/ (access_path_builder.cc).

#include <functional>
#include <optional>

#include "query/access_path.h"
#include "query/ast.h"

namespace orrery::query {

// The item path an expression reads, if it is one (the builder's ItemPath).
using ItemPathOf = std::function<std::optional<DocumentPath>(const ast::Expr&)>;

std::optional<PathPredicate> SpatialDistancePredicate(const ast::BinaryExpr& comparison,
                                                      const ItemPathOf& item_path);
std::optional<PathPredicate> SpatialRegionPredicate(const ast::CallExpr& call,
                                                    const ItemPathOf& item_path);

}  // namespace orrery::query
