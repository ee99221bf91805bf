#include "query/geometry_references.h"

#include <string>

#include "query/clause_walk.h"
#include "query/functions.h"

namespace orrery::query {
namespace {

void Walk(ast::Expr* expr);

void WalkQuery(ast::Query& q) {
  ForEachClauseExpr(q, [](ast::Expr& expr, ast::SortItem*) {
    Walk(&expr);
    return Status::Ok();
  }).IgnoreError();
}

void Walk(ast::Expr* expr) {
  if (expr == nullptr) return;
  if (expr->kind == ast::ExprKind::kSubquery) {
    WalkQuery(*ast::As<ast::SubqueryExpr>(*expr).query);
    return;
  }
  ast::VisitChildren(*expr, [](ast::ExprPtr& child) { Walk(child.get()); });
  if (expr->kind != ast::ExprKind::kCall) return;
  auto& call = ast::As<ast::CallExpr>(*expr);
  if (call.function == nullptr) return;
  const std::string_view name = call.function->name;
  if (!name.starts_with("ST_")) return;
  const std::string twin = "_" + std::string(name) + "_GEOMETRY";
  if (const FunctionInfo* planar = FindFunction(twin)) {
    call.function = planar;
    call.name = twin;
  }
}

}  // namespace

void ResolveGeometryFunctions(BoundQuery& bound) { WalkQuery(*bound.query); }

}  // namespace orrery::query
