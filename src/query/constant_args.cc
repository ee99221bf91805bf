#include "query/constant_args.h"

#include "query/functions.h"

namespace orrery::query {

std::optional<json::Value> ConstantValue(const ast::Expr& expr) {
  switch (expr.kind) {
    case ast::ExprKind::kLiteral:
      return ast::As<ast::LiteralExpr>(expr).value;
    case ast::ExprKind::kParameter:
      return ast::As<ast::ParameterExpr>(expr).value;
    case ast::ExprKind::kArray: {
      json::Array out;
      for (const ast::ExprPtr& element : ast::As<ast::ArrayExpr>(expr).elements) {
        std::optional<json::Value> value = ConstantValue(*element);
        if (!value) return std::nullopt;
        out.push_back(std::move(*value));
      }
      return json::Value::MakeArray(std::move(out));
    }
    case ast::ExprKind::kObject: {
      json::Value out = json::Value::MakeObject();
      for (const auto& [name, member] : ast::As<ast::ObjectExpr>(expr).members) {
        std::optional<json::Value> value = ConstantValue(*member);
        if (!value) return std::nullopt;
        if (!value->is_undefined()) out.Set(name, std::move(*value));
      }
      return out;
    }
    case ast::ExprKind::kUnary: {
      const auto& unary = ast::As<ast::UnaryExpr>(expr);
      if (unary.op != ast::UnaryOp::kNegate) return std::nullopt;
      std::optional<json::Value> value = ConstantValue(*unary.operand);
      if (!value || !value->is_number()) return std::nullopt;
      if (value->is_integer()) return json::Value::Int(-value->as_int());
      return json::Value::Double(-value->as_double());
    }
    default:
      return std::nullopt;
  }
}

std::optional<std::vector<std::string>> RootPath(const ast::Expr& expr, int root_slot) {
  std::vector<std::string> reversed;
  const ast::Expr* at = &expr;
  while (at->kind == ast::ExprKind::kProperty) {
    const auto& property = ast::As<ast::PropertyExpr>(*at);
    reversed.push_back(property.name);
    at = property.object.get();
  }
  if (reversed.empty() || at->kind != ast::ExprKind::kIdentifier ||
      ast::As<ast::IdentifierExpr>(*at).slot != root_slot) {
    return std::nullopt;
  }
  return std::vector<std::string>(reversed.rbegin(), reversed.rend());
}

bool IsCallOf(const ast::Expr& expr, std::string_view name) {
  if (expr.kind != ast::ExprKind::kCall) return false;
  const auto& call = ast::As<ast::CallExpr>(expr);
  return call.function != nullptr && call.function->name == name;
}

int RootSlot(const ast::Query& query) {
  if (query.from.empty()) return -2;
  const ast::FromSource& root = query.from.front();
  if (root.kind != ast::SourceKind::kCollection || root.collection == nullptr ||
      root.collection->kind != ast::ExprKind::kIdentifier) {
    return -2;
  }
  return root.slot;
}

}  // namespace orrery::query
