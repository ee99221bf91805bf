#include "query/rank_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "json/json.h"
#include "query/clause_walk.h"
#include "query/constant_args.h"
#include "query/errors.h"
#include "query/full_text_policy.h"
#include "query/functions.h"
#include "query/vector_policy.h"
#include "query/vector_references.h"

namespace orrery::query {
namespace {

bool IsRankOnly(const ast::Expr& expr) {
  return IsCallOf(expr, "FullTextScore") || IsCallOf(expr, "RRF");
}

class RankPlanner {
 public:
  RankPlanner(std::string_view text, BoundQuery& bound, const FullTextPolicy* policy)
      : text_(text), q_(*bound.query), bound_(bound), policy_(policy) {}

  Result<RankPlan> Plan() {
    ORRERY_RETURN_IF_ERROR(CheckNoRankFunctionsOutside(q_));
    if (!q_.order_by_rank) return RankPlan{};
    ast::SortItem& item = q_.order_by.front();
    if (q_.order_by_rank_direction) {
      return Error(item.expr->range,
                   "Specifying a sort order (ASC or DESC) in the ORDER BY RANK clause is not "
                   "allowed.");
    }
    if (bound_.is_aggregate || q_.select.distinct) {
      return Error(item.expr->range,
                   "ORDER BY RANK cannot be combined with aggregates, GROUP BY or DISTINCT.");
    }
    if (q_.from.empty() || q_.from.front().kind != ast::SourceKind::kCollection ||
        q_.from.front().collection == nullptr ||
        q_.from.front().collection->kind != ast::ExprKind::kIdentifier) {
      return Error(item.expr->range, "ORDER BY RANK needs a FROM clause over the container.");
    }
    root_slot_ = q_.from.front().slot;
    alias_ = q_.from.front().alias;
    RankPlan plan;
    ast::Expr& score = *item.expr;
    if (IsCallOf(score, "RRF")) {
      plan.rrf = true;
      ORRERY_RETURN_IF_ERROR(AddRrf(ast::As<ast::CallExpr>(score), plan));
    } else {
      ORRERY_RETURN_IF_ERROR(AddComponent(score, 1, plan));
    }
    item.ranks_by_score = true;
    item.descending = true;  // by the fused rank
    plan.statistics_query = StatisticsQuery(plan);
    return plan;
  }

 private:
  Status Error(SourceRange range, const std::string& message) const {
    return QueryError(text_, range, kSemanticError, message);
  }

  // FullTextScore and RRF only in the ORDER BY RANK item, RRF only at its top.
  Status CheckNoRankFunctionsOutside(ast::Query& q) {
    return ForEachClauseExpr(q, [this](ast::Expr& expr, ast::SortItem* sort) {
      const bool rank_item = q_.order_by_rank && sort == &q_.order_by.front();
      if (!rank_item) return Check(expr);
      if (IsCallOf(expr, "FullTextScore")) return CheckChildren(expr);
      if (!IsCallOf(expr, "RRF")) return Check(expr);
      for (ast::ExprPtr& arg : ast::As<ast::CallExpr>(expr).args) {
        ORRERY_RETURN_IF_ERROR(IsCallOf(*arg, "FullTextScore") ? CheckChildren(*arg) : Check(*arg));
      }
      return Status::Ok();
    });
  }

  Status CheckChildren(ast::Expr& expr) {
    Status status;
    ast::VisitChildren(expr, [&](ast::ExprPtr& child) {
      if (status.ok()) status = Check(*child);
    });
    return status;
  }

  Status Check(ast::Expr& expr) {
    if (IsRankOnly(expr)) {
      return Error(expr.range, std::string(ast::As<ast::CallExpr>(expr).function->name) +
                                   " can only be used in an ORDER BY RANK clause.");
    }
    if (expr.kind == ast::ExprKind::kSubquery) {
      return CheckNoRankFunctionsOutside(*ast::As<ast::SubqueryExpr>(expr).query);
    }
    return CheckChildren(expr);
  }

  Status AddRrf(ast::CallExpr& rrf, RankPlan& plan) {
    std::vector<ast::Expr*> components;
    std::optional<json::Value> weights;
    for (size_t i = 0; i < rrf.args.size(); ++i) {
      ast::Expr& arg = *rrf.args[i];
      const bool last = i + 1 == rrf.args.size();
      if (last && i > 0 && !IsCallOf(arg, "FullTextScore") && !IsCallOf(arg, "VectorDistance")) {
        weights = ConstantValue(arg);
        if (!weights || !weights->is_array()) {
          return Error(arg.range, "The weights of RRF must be an array of numbers.");
        }
        continue;
      }
      components.push_back(&arg);
    }
    if (weights) {
      if (weights->as_array().size() != components.size()) {
        return Error(rrf.range, "RRF needs one weight for each of its " +
                                    std::to_string(components.size()) + " scoring functions.");
      }
      for (const json::Value& w : weights->as_array()) {
        if (!w.is_number())
          return Error(rrf.range, "The weights of RRF must be an array of numbers.");
      }
    }
    for (size_t i = 0; i < components.size(); ++i) {
      const double weight = weights ? weights->as_array()[i].as_double() : 1.0;
      ORRERY_RETURN_IF_ERROR(AddComponent(*components[i], weight, plan));
    }
    return Status::Ok();
  }

  Status AddComponent(ast::Expr& expr, double weight, RankPlan& plan) {
    RankComponent component;
    component.weight = std::fabs(weight);
    if (IsCallOf(expr, "VectorDistance")) {
      auto& call = ast::As<ast::CallExpr>(expr);
      component.call = &call;
      DistanceFunction distance = DistanceFunction::kCosine;
      if (call.args.size() == 4 && call.args[3]->kind == ast::ExprKind::kLiteral) {
        const json::Value* f =
            ast::As<ast::LiteralExpr>(*call.args[3]).value.Find("distanceFunction");
        if (f != nullptr && f->is_string()) {
          distance = ParseDistanceFunction(f->as_string()).value_or(DistanceFunction::kCosine);
        }
      }
      component.descending = RanksDescending(distance) != (weight < 0);
      plan.components.push_back(std::move(component));
      return Status::Ok();
    }
    if (!IsCallOf(expr, "FullTextScore")) {
      return Error(expr.range, "ORDER BY RANK takes FullTextScore, VectorDistance or RRF of them.");
    }
    auto& call = ast::As<ast::CallExpr>(expr);
    component.call = &call;
    component.full_text = true;
    component.descending = weight >= 0;
    std::optional<std::vector<std::string>> path = RootPath(*call.args.front(), root_slot_);
    if (!path) {
      return Error(call.args.front()->range,
                   "The first argument of FullTextScore must be a property path of the item.");
    }
    component.text_expr = ast::ToString(*call.args.front());
    component.language = policy_ != nullptr ? policy_->LanguageOf(*path) : "en-US";
    for (size_t i = 1; i < call.args.size(); ++i) {
      std::optional<json::Value> term = ConstantValue(*call.args[i]);
      const bool list = term && term->is_array() && call.args.size() == 2;
      for (const json::Value& t :
           list ? term->as_array() : json::Array{term.value_or(json::Value())}) {
        if (!t.is_string()) {
          return Error(call.args[i]->range,
                       "The terms of FullTextScore must be strings (or one array of strings).");
        }
        component.terms.push_back(t.as_string());
      }
    }
    if (component.terms.empty()) {
      return Error(call.range, "FullTextScore needs at least one term.");
    }
    component.statistics_index = full_text_count_++;
    plan.components.push_back(std::move(component));
    return Status::Ok();
  }

  std::string StatisticsQuery(const RankPlan& plan) const {
    if (full_text_count_ == 0) return "";
    std::string statistics;
    for (const RankComponent& c : plan.components) {
      if (!c.full_text) continue;
      const std::string language = json::Write(json::Value::String(c.language));
      std::string hits;
      for (const std::string& term : c.terms) {
        hits += (hits.empty() ? "" : ", ") + std::string("SUM(_FullTextHit(") + c.text_expr + ", " +
                json::Write(json::Value::String(term)) + ", " + language + "))";
      }
      statistics += (statistics.empty() ? "" : ", ") +
                    std::string("{\"totalWordCount\": SUM(_FullTextWordCount(") + c.text_expr +
                    ", " + language + ")), \"hitCounts\": [" + hits + "]}";
    }
    return "SELECT COUNT(1) AS documentCount, [" + statistics + "] AS fullTextStatistics FROM " +
           alias_;
  }

  std::string_view text_;
  ast::Query& q_;
  BoundQuery& bound_;
  const FullTextPolicy* policy_;
  int root_slot_ = -2;
  std::string alias_;
  int full_text_count_ = 0;
};

bool Ranked(const RankComponent& component, const json::Value& score) {
  if (!score.is_number()) return false;
  return !component.full_text || score.as_double() > 0;
}

// Where RRF ranks a row its component does not score: last, as the SDKs' coalescing to
// -1 (FullTextScore) or the most distant double (VectorDistance) places it.
double ScoreOrWorst(const RankComponent& component, const json::Value& score) {
  if (score.is_number()) return score.as_double();
  if (component.full_text) return -1;
  return component.descending ? -std::numeric_limits<double>::infinity()
                              : std::numeric_limits<double>::infinity();
}

}  // namespace

Result<RankPlan> PlanRank(std::string_view text, BoundQuery& bound, const FullTextPolicy* policy) {
  return RankPlanner(text, bound, policy).Plan();
}

std::string FullTextScoreText(const RankComponent& component, const std::string& documents,
                              const std::string& words, const std::string& hits) {
  json::Array terms;
  for (const std::string& t : component.terms) terms.push_back(json::Value::String(t));
  return "_FullTextScore(" + component.text_expr + ", " +
         json::Write(json::Value::MakeArray(std::move(terms))) + ", " + documents + ", " + words +
         ", " + hits + ", " + json::Write(json::Value::String(component.language)) + ")";
}

Status InjectStatistics(RankPlan& plan, const json::Value& statistics) {
  const json::Value* documents = statistics.Find("documentCount");
  const json::Value* list = statistics.Find("fullTextStatistics");
  if (documents == nullptr || !documents->is_number() || list == nullptr || !list->is_array()) {
    return Status::BadRequest("The full-text statistics of the container are malformed.");
  }
  for (RankComponent& component : plan.components) {
    if (!component.full_text) continue;
    const size_t at = static_cast<size_t>(component.statistics_index);
    if (at >= list->as_array().size()) {
      return Status::BadRequest("The full-text statistics of the container are malformed.");
    }
    const json::Value& entry = list->as_array()[at];
    const json::Value* words = entry.Find("totalWordCount");
    const json::Value* hits = entry.Find("hitCounts");
    json::Array terms;
    for (const std::string& t : component.terms) terms.push_back(json::Value::String(t));
    ast::CallExpr& call = *component.call;
    const SourceRange at_range = call.range;
    std::vector<ast::ExprPtr> args;
    args.push_back(std::move(call.args.front()));
    auto literal = [&](json::Value v) {
      return std::make_unique<ast::LiteralExpr>(at_range, std::move(v));
    };
    args.push_back(literal(json::Value::MakeArray(std::move(terms))));
    args.push_back(literal(*documents));
    args.push_back(literal(words != nullptr && words->is_number() ? *words : json::Value::Int(0)));
    args.push_back(
        literal(hits != nullptr && hits->is_array() ? *hits : json::Value::MakeArray({})));
    args.push_back(literal(json::Value::String(component.language)));
    call.args = std::move(args);
    call.name = "_FullTextScore";
    call.function = FindFunction("_FullTextScore");
  }
  return Status::Ok();
}

std::vector<std::optional<double>> FuseRanks(const RankPlan& plan,
                                             const std::vector<std::vector<json::Value>>& scores) {
  std::vector<std::optional<double>> fused(scores.size());
  const auto score_of = [&](size_t row, size_t k) -> const json::Value* {
    return k < scores[row].size() ? &scores[row][k] : nullptr;
  };
  if (!plan.rrf && plan.components.size() == 1) {
    const RankComponent& c = plan.components.front();
    for (size_t r = 0; r < scores.size(); ++r) {
      const json::Value* s = score_of(r, 0);
      if (s != nullptr && Ranked(c, *s)) fused[r] = c.descending ? s->as_double() : -s->as_double();
    }
    return fused;
  }
  for (size_t k = 0; k < plan.components.size(); ++k) {
    const RankComponent& c = plan.components[k];
    static const json::Value kUndefined;
    std::vector<std::pair<double, size_t>> ranked;
    for (size_t r = 0; r < scores.size(); ++r) {
      const json::Value* s = score_of(r, k);
      ranked.emplace_back(ScoreOrWorst(c, s != nullptr ? *s : kUndefined), r);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [&](const auto& a, const auto& b) {
      return c.descending ? a.first > b.first : a.first < b.first;
    });
    int rank = 0;
    for (size_t i = 0; i < ranked.size(); ++i) {
      if (i == 0 || ranked[i].first != ranked[i - 1].first) ++rank;  // dense ranks from 1
      const size_t row = ranked[i].second;
      fused[row] = fused[row].value_or(0) + c.weight / (kRrfConstant + rank);
    }
  }
  return fused;
}

}  // namespace orrery::query
