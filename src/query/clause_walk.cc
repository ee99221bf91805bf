#include "query/clause_walk.h"

namespace orrery::query {

Status ForEachClauseExpr(ast::Query& q, const ClauseVisit& visit) {
  const auto each = [&](ast::ExprPtr& expr) { return expr ? visit(*expr, nullptr) : Status::Ok(); };
  ORRERY_RETURN_IF_ERROR(each(q.select.value));
  for (ast::SelectItem& item : q.select.items) ORRERY_RETURN_IF_ERROR(each(item.expr));
  for (ast::FromSource& source : q.from) {
    ORRERY_RETURN_IF_ERROR(each(source.collection));
    if (source.subquery) ORRERY_RETURN_IF_ERROR(ForEachClauseExpr(*source.subquery, visit));
  }
  ORRERY_RETURN_IF_ERROR(each(q.where));
  for (ast::ExprPtr& key : q.group_by) ORRERY_RETURN_IF_ERROR(each(key));
  for (ast::SortItem& item : q.order_by) {
    if (item.expr) ORRERY_RETURN_IF_ERROR(visit(*item.expr, &item));
  }
  return Status::Ok();
}

}  // namespace orrery::query
