#include "query/full_text_references.h"

#include <optional>

#include "query/clause_walk.h"
#include "query/constant_args.h"
#include "query/functions.h"

namespace orrery::query {
namespace {

constexpr std::string_view kDefaultLanguage = "en-US";

bool IsFullTextContains(const ast::CallExpr& call) {
  return IsCallOf(call, "FullTextContains") || IsCallOf(call, "FullTextContainsAll") ||
         IsCallOf(call, "FullTextContainsAny");
}

class LanguageResolver {
 public:
  LanguageResolver(int root_slot, const FullTextPolicy& policy)
      : root_slot_(root_slot), policy_(policy) {}

  void WalkQuery(ast::Query& q) {
    ForEachClauseExpr(q, [this](ast::Expr& expr, ast::SortItem*) {
      Walk(&expr);
      return Status::Ok();
    }).IgnoreError();
  }

 private:
  void Walk(ast::Expr* expr) {
    if (expr == nullptr) return;
    if (expr->kind == ast::ExprKind::kSubquery) {
      WalkQuery(*ast::As<ast::SubqueryExpr>(*expr).query);
      return;
    }
    ast::VisitChildren(*expr, [this](ast::ExprPtr& child) { Walk(child.get()); });
    if (expr->kind == ast::ExprKind::kCall) Resolve(ast::As<ast::CallExpr>(*expr));
  }

  void Resolve(ast::CallExpr& call) {
    if (!IsFullTextContains(call) || call.args.empty()) return;
    std::optional<std::vector<std::string>> path = RootPath(*call.args.front(), root_slot_);
    const std::string& language = path ? policy_.LanguageOf(*path) : policy_.default_language();
    if (language == kDefaultLanguage) return;
    const std::string twin = "_" + std::string(call.function->name);
    call.function = FindFunction(twin);
    call.name = twin;
    call.args.insert(call.args.begin(),
                     std::make_unique<ast::LiteralExpr>(call.range, json::Value::String(language)));
  }

  const int root_slot_;
  const FullTextPolicy& policy_;
};

}  // namespace

void ResolveFullTextLanguages(BoundQuery& bound, const FullTextPolicy* policy) {
  ast::Query& q = *bound.query;
  if (policy == nullptr) return;
  LanguageResolver(RootSlot(q), *policy).WalkQuery(q);
}

}  // namespace orrery::query
