#include "query/vector_references.h"

#include <optional>
#include <vector>

#include "query/errors.h"
#include "query/functions.h"

namespace orrery::query {
namespace {

// The path of `expr` below the root alias (`c.a.b` → {"a", "b"}), or nullopt.
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

// The value of an options argument known before the query runs: a literal, a
// parameter, or an object constructor of those. nullopt when it depends on the item.
std::optional<json::Value> ConstantValue(const ast::Expr& expr) {
  switch (expr.kind) {
    case ast::ExprKind::kLiteral:
      return ast::As<ast::LiteralExpr>(expr).value;
    case ast::ExprKind::kParameter:
      return ast::As<ast::ParameterExpr>(expr).value;
    case ast::ExprKind::kObject: {
      json::Value out = json::Value::MakeObject();
      for (const auto& [name, member] : ast::As<ast::ObjectExpr>(expr).members) {
        std::optional<json::Value> value = ConstantValue(*member);
        if (!value) return std::nullopt;
        if (!value->is_undefined()) out.Set(name, std::move(*value));
      }
      return out;
    }
    default:
      return std::nullopt;
  }
}

class VectorResolver {
 public:
  VectorResolver(std::string_view text, int root_slot, const VectorPolicy* policy)
      : text_(text), root_slot_(root_slot), policy_(policy) {}

  Status WalkQuery(ast::Query& q) {
    ORRERY_RETURN_IF_ERROR(Walk(q.select.value.get()));
    for (ast::SelectItem& item : q.select.items) ORRERY_RETURN_IF_ERROR(Walk(item.expr.get()));
    for (ast::FromSource& source : q.from) {
      ORRERY_RETURN_IF_ERROR(Walk(source.collection.get()));
      if (source.subquery) ORRERY_RETURN_IF_ERROR(WalkQuery(*source.subquery));
    }
    ORRERY_RETURN_IF_ERROR(Walk(q.where.get()));
    for (ast::ExprPtr& key : q.group_by) ORRERY_RETURN_IF_ERROR(Walk(key.get()));
    for (ast::SortItem& item : q.order_by) {
      ORRERY_RETURN_IF_ERROR(Walk(item.expr.get()));
      if (item.ranks_by_score && IsVectorDistanceCall(*item.expr)) {
        item.descending = RanksDescending(last_resolved_.value_or(DistanceFunction::kCosine));
      }
    }
    return Status::Ok();
  }

 private:
  Status Walk(ast::Expr* expr) {
    if (expr == nullptr) return Status::Ok();
    if (expr->kind == ast::ExprKind::kSubquery) {
      return WalkQuery(*ast::As<ast::SubqueryExpr>(*expr).query);
    }
    Status status;
    ast::VisitChildren(*expr, [&](ast::ExprPtr& child) {
      if (status.ok()) status = Walk(child.get());
    });
    ORRERY_RETURN_IF_ERROR(status);
    last_resolved_.reset();
    if (IsVectorDistanceCall(*expr)) return Resolve(ast::As<ast::CallExpr>(*expr));
    return Status::Ok();
  }

  Status Resolve(ast::CallExpr& call) {
    json::Value options = json::Value::MakeObject();
    if (call.args.size() == 4) {
      std::optional<json::Value> given = ConstantValue(*call.args[3]);
      if (!given) return Status::Ok();  // resolved per item, with the defaults
      if (!given->is_object()) {
        return QueryError(text_, call.args[3]->range, kSemanticError,
                          "The fourth argument of VectorDistance must be an object of options.");
      }
      options = std::move(*given);
    }
    const VectorEmbedding* embedding = nullptr;
    for (size_t i = 0; i < 2 && i < call.args.size() && policy_ != nullptr; ++i) {
      if (auto path = RootPath(*call.args[i], root_slot_)) {
        if ((embedding = policy_->Find(*path)) != nullptr) break;
      }
    }
    DistanceFunction distance = embedding ? embedding->distance : DistanceFunction::kCosine;
    VectorDataType data_type = embedding ? embedding->data_type : VectorDataType::kFloat32;
    if (const json::Value* given = options.Find("distanceFunction")) {
      std::optional<DistanceFunction> parsed =
          given->is_string() ? ParseDistanceFunction(given->as_string()) : std::nullopt;
      if (!parsed) {
        return QueryError(text_, call.args[3]->range, kSemanticError,
                          "Invalid distanceFunction in the options of VectorDistance: expected "
                          "'cosine', 'dotproduct' or 'euclidean'.");
      }
      distance = *parsed;
    }
    if (const json::Value* given = options.Find("dataType")) {
      std::optional<VectorDataType> parsed =
          given->is_string() ? ParseVectorDataType(given->as_string()) : std::nullopt;
      if (!parsed) {
        return QueryError(text_, call.args[3]->range, kSemanticError,
                          "Invalid dataType in the options of VectorDistance: expected "
                          "'float32', 'float16', 'int8' or 'uint8'.");
      }
      data_type = *parsed;
    }
    options.Set("distanceFunction",
                json::Value::String(std::string(DistanceFunctionName(distance))));
    options.Set("dataType", json::Value::String(std::string(DataTypeName(data_type))));
    const SourceRange at = call.range;
    if (call.args.size() < 3) {
      call.args.push_back(std::make_unique<ast::LiteralExpr>(at, json::Value::Bool(false)));
    }
    if (call.args.size() < 4) {
      call.args.push_back(std::make_unique<ast::LiteralExpr>(at, std::move(options)));
    } else {
      call.args[3] = std::make_unique<ast::LiteralExpr>(at, std::move(options));
    }
    last_resolved_ = distance;
    return Status::Ok();
  }

  std::string_view text_;
  const int root_slot_;
  const VectorPolicy* policy_;
  // The distance function of the call just resolved (for its ORDER BY item).
  std::optional<DistanceFunction> last_resolved_;
};

}  // namespace

bool IsVectorDistanceCall(const ast::Expr& expr) {
  if (expr.kind != ast::ExprKind::kCall) return false;
  const auto& call = ast::As<ast::CallExpr>(expr);
  return call.function != nullptr && call.function->name == "VectorDistance";
}

bool IsFullTextScoreWithStatistics(const ast::Expr& expr) {
  if (expr.kind != ast::ExprKind::kCall) return false;
  const auto& call = ast::As<ast::CallExpr>(expr);
  return call.function != nullptr && call.function->name == "_FullTextScore";
}

Status ResolveVectorDistances(std::string_view text, BoundQuery& bound,
                              const VectorPolicy* policy) {
  ast::Query& q = *bound.query;
  int root_slot = -2;  // no alias binds the whole item
  if (!q.from.empty()) {
    const ast::FromSource& root = q.from.front();
    if (root.kind == ast::SourceKind::kCollection && root.collection != nullptr &&
        root.collection->kind == ast::ExprKind::kIdentifier) {
      root_slot = root.slot;
    }
  }
  return VectorResolver(text, root_slot, policy).WalkQuery(q);
}

}  // namespace orrery::query
