#include "query/computed_references.h"

#include "query/clause_walk.h"

namespace orrery::query {
namespace {

class ReferenceResolver {
 public:
  ReferenceResolver(int root_slot, const ComputedProperties& computed)
      : root_slot_(root_slot), computed_(computed) {}

  void WalkQuery(ast::Query& q) {
    ForEachClauseExpr(q, [this](ast::Expr& expr, ast::SortItem*) {
      Walk(&expr);
      return Status::Ok();
    }).IgnoreError();
  }

 private:
  void Walk(ast::Expr* expr) {
    if (expr == nullptr) return;
    if (expr->kind == ast::ExprKind::kProperty) {
      auto& property = ast::As<ast::PropertyExpr>(*expr);
      if (property.object->kind == ast::ExprKind::kIdentifier &&
          ast::As<ast::IdentifierExpr>(*property.object).slot == root_slot_) {
        property.computed = computed_.Find(property.name);
      }
    } else if (expr->kind == ast::ExprKind::kSubquery) {
      WalkQuery(*ast::As<ast::SubqueryExpr>(*expr).query);
      return;
    }
    ast::VisitChildren(*expr, [this](ast::ExprPtr& child) { Walk(child.get()); });
  }

  const int root_slot_;
  const ComputedProperties& computed_;
};

}  // namespace

void ResolveComputedReferences(BoundQuery& bound, const ComputedProperties& computed) {
  ast::Query& q = *bound.query;
  if (computed.empty() || q.from.empty()) return;
  const ast::FromSource& root = q.from.front();
  // Only `FROM c` binds the whole item to an alias; `FROM c.items` or `FROM x IN
  // c.tags` bind parts of it, whose members are never computed properties.
  if (root.kind != ast::SourceKind::kCollection || root.collection == nullptr ||
      root.collection->kind != ast::ExprKind::kIdentifier) {
    return;
  }
  ReferenceResolver(root.slot, computed).WalkQuery(q);
}

}  // namespace orrery::query
