#include "query/full_text_ranking.h"

#include "query/constant_args.h"

namespace orrery::query {

std::optional<FullTextRanking> FindFullTextRanking(const BoundQuery& bound) {
  const ast::Query& q = *bound.query;
  if (q.order_by.size() != 1 || !q.order_by.front().ranks_by_score || q.from.size() != 1 ||
      bound.is_aggregate || !q.group_by.empty() || q.select.distinct) {
    return std::nullopt;
  }
  const ast::SortItem& sort = q.order_by.front();
  // ORDER BY RANK ranks a BM25 score best first whatever it says; a hybrid plan's
  // per-range query says DESC.
  if (!IsCallOf(*sort.expr, "_FullTextScore") || !(q.order_by_rank || sort.descending)) {
    return std::nullopt;
  }
  const int root_slot = RootSlot(q);
  if (root_slot == -2) return std::nullopt;
  const auto& call = ast::As<ast::CallExpr>(*sort.expr);
  if (call.args.size() < 5 || call.args.size() > 6) return std::nullopt;
  std::optional<std::vector<std::string>> path = RootPath(*call.args[0], root_slot);
  std::optional<json::Value> terms = ConstantValue(*call.args[1]);
  std::optional<json::Value> documents = ConstantValue(*call.args[2]);
  std::optional<json::Value> words = ConstantValue(*call.args[3]);
  std::optional<json::Value> holding = ConstantValue(*call.args[4]);
  std::optional<json::Value> language =
      call.args.size() == 6 ? ConstantValue(*call.args[5]) : std::nullopt;
  if (!path || !terms || !terms->is_array() || !documents || !documents->is_number() || !words ||
      !words->is_number() || !holding || !holding->is_array() ||
      (call.args.size() == 6 && (!language || !language->is_string()))) {
    return std::nullopt;
  }
  FullTextRanking out;
  out.path = std::move(*path);
  for (const json::Value& term : terms->as_array()) {
    if (!term.is_string()) return std::nullopt;
    out.terms.push_back(term.as_string());
  }
  out.documents = documents->as_double();
  out.words = words->as_double();
  const json::Array& counts = holding->as_array();
  for (size_t j = 0; j < out.terms.size(); ++j) {
    out.holding.push_back(j < counts.size() && counts[j].is_number() ? counts[j].as_double() : 1);
  }
  out.language = language ? language->as_string() : std::string("en-US");  // as _FullTextScore
  return out;
}

}  // namespace orrery::query
