#include "api/query_plan.h"

#include "api/data_plane.h"
#include "api/feed.h"
#include "api/headers.h"
#include "api/response.h"
#include "engine/query_routing.h"
#include "json/json.h"
#include "query/query_plan.h"

namespace orrery::api {

namespace {

// The EPK ranges the SDK is to query: one logical partition (a point range, as the
// service answers equality on the whole key), a hierarchical key's prefix, or all.
json::Value RoutedRange(const engine::QueryRouting& routing) {
  using json::Value;
  const bool point = routing.kind == engine::QueryRouting::Kind::kLogicalPartition;
  return Value::MakeObject({
      {"min", Value::String(point ? routing.epk : routing.range.min)},
      {"max", Value::String(point ? routing.epk : routing.range.max)},
      {"isMinInclusive", Value::Bool(true)},
      {"isMaxInclusive", Value::Bool(point)},
  });
}

// A plan that needs a pipeline stage the client did not list in
// x-ms-cosmos-supported-query-features would give it wrong results: refused, as the
// service's gateway does. Java lists the features with ", " between them.
Status CheckClientFeatures(const RequestContext& ctx, const json::Value& plan) {
  const std::string* features = ctx.request.FindHeader(headers::kSupportedQueryFeatures);
  if (features == nullptr) return Status::Ok();
  const json::Value* info = plan.Find("queryInfo");
  const json::Value* non_streaming =
      info != nullptr && info->is_object() ? info->Find("hasNonStreamingOrderBy") : nullptr;
  if (non_streaming == nullptr || !non_streaming->is_bool() || !non_streaming->as_bool()) {
    return Status::Ok();
  }
  std::string_view list = *features;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view feature = list.substr(0, comma);
    while (!feature.empty() && feature.front() == ' ') feature.remove_prefix(1);
    while (!feature.empty() && feature.back() == ' ') feature.remove_suffix(1);
    if (feature == "NonStreamingOrderBy") return Status::Ok();
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return Status::BadRequest(
      "The query requires the NonStreamingOrderBy feature (ORDER BY VectorDistance), which "
      "this client did not list in x-ms-cosmos-supported-query-features; upgrade the SDK.");
}

// The weights of a hybrid plan as the service writes them, with a fractional part
// ("1.0"): the Java SDK reads each as a Double and fails on a JSON integer.
void WriteWeightsAsDoubles(std::string& body) {
  constexpr std::string_view kMember = "\"componentWeights\":[";
  size_t at = body.find(kMember);
  if (at == std::string::npos) return;
  at += kMember.size();
  const size_t end = body.find(']', at);
  if (end == std::string::npos) return;
  std::string weights;
  size_t start = at;
  while (start < end) {
    size_t comma = body.find(',', start);
    if (comma == std::string::npos || comma > end) comma = end;
    std::string number = body.substr(start, comma - start);
    if (number.find_first_of(".eE") == std::string::npos) number += ".0";
    weights += (weights.empty() ? "" : ",") + number;
    start = comma + 1;
  }
  body.replace(at, end - at, weights);
}

}  // namespace

HandlerResult HandleQueryPlan(const RequestContext& ctx) {
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<engine::Container> container, OwnerContainer(ctx));
  // Compiling validates the body and the query so errors surface with the service's 400.
  ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<query::CompiledQuery> compiled,
                          CompileQueryBody(ctx.request.body, container.get()));
  ORRERY_ASSIGN_OR_RETURN(json::Value spec, json::Parse(ctx.request.body));
  std::vector<query::Parameter> parameters;
  if (const json::Value* params = spec.Find("parameters"); params && params->is_array()) {
    for (const json::Value& p : params->as_array()) {
      const json::Value* value = p.Find("value");
      parameters.push_back({p.Find("name")->as_string(), value ? *value : json::Value()});
    }
  }
  ORRERY_ASSIGN_OR_RETURN(
      json::Value plan,
      query::BuildQueryPlan(spec.Find("query")->as_string(), parameters,
                            &container->vector_policy(), &container->full_text_policy()));
  ORRERY_RETURN_IF_ERROR(CheckClientFeatures(ctx, plan));
  const engine::QueryRouting routing =
      engine::RouteQuery(container->settings().partition_key, compiled->access_shape());
  if (compiled->reads_items() && routing.kind != engine::QueryRouting::Kind::kFanOut) {
    plan.Set("queryRanges", json::Value::MakeArray({RoutedRange(routing)}));
  }
  ResponseBuilder builder(200, ctx.activity_id);
  std::string body = json::Write(plan);
  WriteWeightsAsDoubles(body);
  builder.Charge(0).JsonBody(std::move(body));
  return std::move(builder).Build();
}

}  // namespace orrery::api
