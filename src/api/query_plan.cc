#include "api/query_plan.h"

#include "api/feed.h"
#include "api/response.h"
#include "json/json.h"

namespace orrery::api {

HandlerResult HandleQueryPlan(const RequestContext& ctx) {
  // Compiling validates the query so syntax errors surface with the service's 400.
  ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<query::CompiledQuery> query,
                          CompileQueryBody(ctx.request.body));
  using json::Value;
  Value plan = Value::MakeObject({
      {"partitionedQueryExecutionInfoVersion", Value::Int(2)},
      {"queryInfo", Value::MakeObject({
                        {"distinctType", Value::String("None")},
                        {"top", query->top() ? Value::Int(*query->top()) : Value::Null()},
                        {"offset", Value::Null()},
                        {"limit", Value::Null()},
                        {"orderBy", Value::MakeArray()},
                        {"orderByExpressions", Value::MakeArray()},
                        {"groupByExpressions", Value::MakeArray()},
                        {"groupByAliases", Value::MakeArray()},
                        {"aggregates", Value::MakeArray()},
                        {"groupByAliasToAggregateType", Value::MakeObject()},
                        {"rewrittenQuery", Value::String("")},
                        {"hasSelectValue", Value::Bool(false)},
                        {"dCountInfo", Value::Null()},
                        {"hasNonStreamingOrderBy", Value::Bool(false)},
                    })},
      {"queryRanges", Value::MakeArray({Value::MakeObject({
                          {"min", Value::String("")},
                          {"max", Value::String("FF")},
                          {"isMinInclusive", Value::Bool(true)},
                          {"isMaxInclusive", Value::Bool(false)},
                      })})},
      {"hybridSearchQueryInfo", Value::Null()},
  });
  ResponseBuilder builder(200, ctx.activity_id);
  builder.Charge(0).JsonBody(json::Write(plan));
  return std::move(builder).Build();
}

}  // namespace orrery::api
