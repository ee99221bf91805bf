#include "query/vector_references.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "query/clause_walk.h"
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
    return ForEachClauseExpr(q, [this](ast::Expr& expr, ast::SortItem* sort) {
      ORRERY_RETURN_IF_ERROR(Walk(&expr));
      if (sort != nullptr && sort->ranks_by_score && IsVectorDistanceCall(expr)) {
        sort->descending = RanksDescending(last_resolved_.value_or(DistanceFunction::kCosine));
      }
      return Status::Ok();
    });
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

namespace {

// A search-list multiplier of VectorDistance's options, kept within the documented 1..100.
int Multiplier(const json::Value& options, std::string_view name, int fallback) {
  const json::Value* value = options.is_object() ? options.Find(name) : nullptr;
  if (value == nullptr || !value->is_number()) return fallback;
  return static_cast<int>(std::clamp(value->as_double(), 1.0, 100.0));
}

}  // namespace

bool IsVectorDistanceCall(const ast::Expr& expr) { return IsCallOf(expr, "VectorDistance"); }

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
    const auto* brute_force = call.args[2]->kind == ast::ExprKind::kLiteral
                                  ? &ast::As<ast::LiteralExpr>(*call.args[2]).value
                                  : nullptr;
    out.brute_force = brute_force != nullptr && brute_force->is_bool() && brute_force->as_bool();
    out.filtered = q.where != nullptr;
    const json::Value& options = ast::As<ast::LiteralExpr>(*call.args[3]).value;
    out.search_list_multiplier =
        Multiplier(options, "searchListSizeMultiplier", out.search_list_multiplier);
    out.quantized_list_multiplier =
        Multiplier(options, "quantizedVectorListMultiplier", out.quantized_list_multiplier);
    for (const json::Value& x : vector->as_array()) {
      if (!x.is_number()) return std::nullopt;
      out.vector.push_back(x.as_double());
    }
    return out;
  }
  return std::nullopt;
}

bool IsFullTextScoreWithStatistics(const ast::Expr& expr) {
  return IsCallOf(expr, "_FullTextScore");
}

Status ResolveVectorDistances(std::string_view text, BoundQuery& bound,
                              const VectorPolicy* policy) {
  ast::Query& q = *bound.query;
  return VectorResolver(text, RootSlot(q), policy).WalkQuery(q);
}

}  // namespace orrery::query
