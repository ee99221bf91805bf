#include "query/full_text_statistics.h"

#include "query/constant_args.h"

namespace orrery::query {
namespace {

using ast::As;
using ast::ExprKind;

constexpr std::string_view kDefaultLanguage = "en-US";

class StatisticsMatcher {
 public:
  explicit StatisticsMatcher(const ast::Query& q) : q_(q), root_slot_(RootSlot(q)) {}

  std::optional<FullTextStatisticsQuery> Match() const {
    if (root_slot_ < 0 || q_.from.size() != 1 || q_.where || !q_.group_by.empty() ||
        !q_.order_by.empty() || q_.offset || q_.limit || q_.select.distinct || q_.select.top ||
        q_.select.kind != ast::SelectKind::kList || q_.select.items.size() != 2) {
      return std::nullopt;
    }
    const ast::SelectItem& documents = q_.select.items[0];
    const ast::SelectItem& statistics = q_.select.items[1];
    if (documents.alias != "documentCount" || !IsCountOfConstant(*documents.expr) ||
        statistics.alias != "fullTextStatistics" || statistics.expr->kind != ExprKind::kArray) {
      return std::nullopt;
    }
    FullTextStatisticsQuery out;
    for (const ast::ExprPtr& element : As<ast::ArrayExpr>(*statistics.expr).elements) {
      std::optional<FullTextStatisticsQuery::PathStatistics> path = PathOf(*element);
      if (!path) return std::nullopt;
      out.paths.push_back(std::move(*path));
    }
    return out;
  }

 private:
  static bool IsCountOfConstant(const ast::Expr& expr) {
    return IsCallOf(expr, "COUNT") &&
           As<ast::CallExpr>(expr).args.front()->kind == ExprKind::kLiteral;
  }

  // {"totalWordCount": SUM(_FullTextWordCount(p[, lang])), "hitCounts": [SUM(_FullTextHit(
  // p, term[, lang])), ...]}, every call on the same path and language.
  std::optional<FullTextStatisticsQuery::PathStatistics> PathOf(const ast::Expr& expr) const {
    if (expr.kind != ExprKind::kObject) return std::nullopt;
    const auto& members = As<ast::ObjectExpr>(expr).members;
    if (members.size() != 2 || members[0].first != "totalWordCount" ||
        members[1].first != "hitCounts" || members[1].second->kind != ExprKind::kArray) {
      return std::nullopt;
    }
    const ast::CallExpr* words = SummedCall(*members[0].second, "_FullTextWordCount");
    if (words == nullptr || words->args.size() > 2) return std::nullopt;
    FullTextStatisticsQuery::PathStatistics path;
    std::optional<std::vector<std::string>> text = RootPath(*words->args[0], root_slot_);
    std::optional<std::string> language = LanguageArg(*words, 1);
    if (!text || !language) return std::nullopt;
    path.path = std::move(*text);
    path.language = std::move(*language);
    for (const ast::ExprPtr& hit : As<ast::ArrayExpr>(*members[1].second).elements) {
      const ast::CallExpr* call = SummedCall(*hit, "_FullTextHit");
      if (call == nullptr || call->args.size() < 2 || call->args.size() > 3 ||
          RootPath(*call->args[0], root_slot_) != path.path ||
          LanguageArg(*call, 2) != path.language) {
        return std::nullopt;
      }
      std::optional<json::Value> term = ConstantValue(*call->args[1]);
      if (!term || !term->is_string()) return std::nullopt;
      path.terms.push_back(term->as_string());
    }
    return path;
  }

  // The argument of SUM(<name>(...)), when it is such a call.
  static const ast::CallExpr* SummedCall(const ast::Expr& expr, std::string_view name) {
    if (!IsCallOf(expr, "SUM")) return nullptr;
    const ast::Expr& argument = *As<ast::CallExpr>(expr).args.front();
    return IsCallOf(argument, name) ? &As<ast::CallExpr>(argument) : nullptr;
  }

  static std::optional<std::string> LanguageArg(const ast::CallExpr& call, size_t at) {
    if (call.args.size() <= at) return std::string(kDefaultLanguage);
    std::optional<json::Value> language = ConstantValue(*call.args[at]);
    if (!language || !language->is_string()) return std::nullopt;
    return language->as_string();
  }

  const ast::Query& q_;
  const int root_slot_;
};

}  // namespace

std::optional<FullTextStatisticsQuery> MatchFullTextStatistics(const BoundQuery& bound) {
  return StatisticsMatcher(*bound.query).Match();
}

}  // namespace orrery::query
