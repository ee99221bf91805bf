#include "api/query_plan.h"

#include "api/feed.h"
#include "api/response.h"
#include "json/json.h"
#include "query/query_plan.h"

namespace orrery::api {

HandlerResult HandleQueryPlan(const RequestContext& ctx) {
  // Compiling validates the body and the query so errors surface with the service's 400.
  ORRERY_RETURN_IF_ERROR(CompileQueryBody(ctx.request.body).status());
  ORRERY_ASSIGN_OR_RETURN(json::Value spec, json::Parse(ctx.request.body));
  std::vector<query::Parameter> parameters;
  if (const json::Value* params = spec.Find("parameters"); params && params->is_array()) {
    for (const json::Value& p : params->as_array()) {
      const json::Value* value = p.Find("value");
      parameters.push_back({p.Find("name")->as_string(), value ? *value : json::Value()});
    }
  }
  ORRERY_ASSIGN_OR_RETURN(json::Value plan,
                          query::BuildQueryPlan(spec.Find("query")->as_string(), parameters));
  ResponseBuilder builder(200, ctx.activity_id);
  builder.Charge(0).JsonBody(json::Write(plan));
  return std::move(builder).Build();
}

}  // namespace orrery::api
