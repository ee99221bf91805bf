#include "api/feed.h"

#include "api/headers.h"
#include "api/numeric_headers.h"
#include "api/response.h"
#include "engine/resource_query.h"
#include "engine/throughput/cost_model.h"
#include "json/json.h"

namespace orrery::api {

namespace {

// The service's page size when x-ms-max-item-count is absent or -1, and the most items
// one page may hold whatever it asks.
constexpr int kDefaultPageItems = 100;
constexpr int64_t kMaxPageItems = 1000000;

}  // namespace

Result<int> MaxItemCount(const RequestContext& ctx) {
  ORRERY_ASSIGN_OR_RETURN(std::optional<int64_t> asked,
                          ReadIntegerHeader(ctx.request, kMaxItemCountHeader));
  if (!asked || *asked == -1) return kDefaultPageItems;
  return static_cast<int>(std::min<int64_t>(*asked, kMaxPageItems));
}

std::string ContinuationOf(const RequestContext& ctx) {
  const std::string* header = ctx.Header(headers::kContinuation);
  return header ? *header : std::string();
}

bool IsQueryRequest(const RequestContext& ctx) {
  const std::string* type = ctx.Header(headers::kContentType);
  return ctx.HeaderIsTrue(headers::kIsQuery) ||
         (type != nullptr && type->starts_with("application/query+json"));
}

Result<std::unique_ptr<query::CompiledQuery>> CompileQueryBody(const std::string& body,
                                                               const engine::Container* container) {
  ORRERY_ASSIGN_OR_RETURN(json::Value spec, json::Parse(body));
  const json::Value* text = spec.Find("query");
  if (text == nullptr || !text->is_string()) {
    return Status::BadRequest(
        "The query request body must be a JSON object with a 'query' string.");
  }
  std::vector<query::Parameter> parameters;
  if (const json::Value* params = spec.Find("parameters"); params && !params->is_null()) {
    if (!params->is_array()) {
      return Status::BadRequest("The query 'parameters' must be an array.");
    }
    for (const auto& p : params->as_array()) {
      const json::Value* name = p.Find("name");
      if (name == nullptr || !name->is_string()) {
        return Status::BadRequest("Each query parameter needs a 'name' string.");
      }
      const json::Value* value = p.Find("value");
      parameters.push_back({name->as_string(), value ? *value : json::Value()});
    }
  }
  if (container == nullptr) return query::Compile(text->as_string(), std::move(parameters));
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<const query::UserFunctions> udfs,
                          container->UserFunctionsForQueries());
  return query::Compile(text->as_string(), std::move(parameters), container->computed_properties(),
                        &container->vector_policy(), &container->full_text_policy(),
                        container->coordinate_system(), udfs.get());
}

http::Response FeedResponse(const RequestContext& ctx, std::string_view rid,
                            std::string_view array_name, const engine::FeedPage& page,
                            double charge) {
  std::string body;
  size_t total = 64;
  for (const auto& doc : page.documents) total += doc.size() + 1;
  body.reserve(total);
  body += "{\"_rid\":";
  json::AppendQuoted(body, rid);
  body += ",\"";
  body += array_name;
  body += "\":[";
  for (size_t i = 0; i < page.documents.size(); ++i) {
    if (i > 0) body += ',';
    body += page.documents[i];
  }
  body += "],\"_count\":" + std::to_string(page.documents.size()) + "}";
  ResponseBuilder builder(200, ctx.activity_id);
  builder.Charge(charge).Header(headers::kItemCount, std::to_string(page.documents.size()));
  if (page.continuation) {
    builder.Header(headers::kContinuation, *page.continuation);
  }
  builder.JsonBody(std::move(body));
  return std::move(builder).Build();
}

bool IsListOrQuery(const RequestContext& ctx) {
  return ctx.request.method == "GET" || (ctx.request.method == "POST" && IsQueryRequest(ctx));
}

HandlerResult ListOrQueryResources(const RequestContext& ctx,
                                   const std::vector<json::Value>& resources, std::string_view rid,
                                   std::string_view array_name) {
  std::unique_ptr<query::CompiledQuery> query;
  if (ctx.request.method == "POST") {
    ORRERY_ASSIGN_OR_RETURN(query, CompileQueryBody(ctx.request.body));
  }
  ORRERY_ASSIGN_OR_RETURN(int max_items, MaxItemCount(ctx));
  ORRERY_ASSIGN_OR_RETURN(
      engine::FeedPage page,
      engine::QueryResources(query.get(), resources, max_items, ContinuationOf(ctx)));
  return FeedResponse(ctx, rid, array_name, page, throughput::kMetadataReadCharge);
}

}  // namespace orrery::api
