#include "query/vector_references.h"

#include <cmath>
#include <optional>
#include <vector>

#include "query/constant_args.h"
#include "query/errors.h"
#include "query/functions.h"

namespace orrery::query {
namespace {

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

std::optional<VectorRanking> FindVectorRanking(const BoundQuery& bound) {
  const ast::Query& q = *bound.query;
  if (q.order_by.size() != 1 || !q.order_by.front().ranks_by_score || q.order_by_rank ||
      !IsVectorDistanceCall(*q.order_by.front().expr) || q.from.size() != 1 || bound.is_aggregate ||
      q.select.distinct) {
    return std::nullopt;
  }
  const int root_slot = RootSlot(q);
  if (root_slot == -2) return std::nullopt;
  const auto& call = ast::As<ast::CallExpr>(*q.order_by.front().expr);
  if (call.args.size() != 4 || call.args[3]->kind != ast::ExprKind::kLiteral) return std::nullopt;
  const json::Value* f = ast::As<ast::LiteralExpr>(*call.args[3]).value.Find("distanceFunction");
  std::optional<DistanceFunction> distance =
      f != nullptr && f->is_string() ? ParseDistanceFunction(f->as_string()) : std::nullopt;
  if (!distance) return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    std::optional<std::vector<std::string>> path = RootPath(*call.args[i], root_slot);
    std::optional<json::Value> vector = ConstantValue(*call.args[1 - i]);
    if (!path || !vector || !vector->is_array() || vector->as_array().empty()) continue;
    VectorRanking out{std::move(*path), {}, *distance};
    for (const json::Value& x : vector->as_array()) {
      if (!x.is_number()) return std::nullopt;
      out.vector.push_back(x.as_double());
    }
    return out;
  }
  return std::nullopt;
}

std::optional<double> VectorScore(DistanceFunction distance, const std::vector<float>& item,
                                  const std::vector<double>& query) {
  double dot = 0, xx = 0, yy = 0, squared = 0;
  for (size_t i = 0; i < item.size(); ++i) {
    const double p = item[i];
    const double q = query[i];
    dot += p * q;
    xx += p * p;
    yy += q * q;
    squared += (p - q) * (p - q);
  }
  switch (distance) {
    case DistanceFunction::kCosine:
      if (xx == 0 || yy == 0) return std::nullopt;
      return dot / (std::sqrt(xx) * std::sqrt(yy));
    case DistanceFunction::kDotProduct:
      return dot;
    case DistanceFunction::kEuclidean:
      return std::sqrt(squared);
  }
  return std::nullopt;
}

bool IsFullTextScoreWithStatistics(const ast::Expr& expr) {
  if (expr.kind != ast::ExprKind::kCall) return false;
  const auto& call = ast::As<ast::CallExpr>(expr);
  return call.function != nullptr && call.function->name == "_FullTextScore";
}

Status ResolveVectorDistances(std::string_view text, BoundQuery& bound,
                              const VectorPolicy* policy) {
  ast::Query& q = *bound.query;
  return VectorResolver(text, RootSlot(q), policy).WalkQuery(q);
}

}  // namespace orrery::query
