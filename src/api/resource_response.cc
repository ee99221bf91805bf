#include "api/resource_response.h"

#include "api/headers.h"
#include "api/response.h"
#include "json/json.h"

namespace orrery::api {

http::Response ResourceResponse(const RequestContext& ctx, int status, const json::Value& resource,
                                double charge) {
  ResponseBuilder builder(status, ctx.activity_id);
  builder.Charge(charge);
  if (const json::Value* etag = resource.Find("_etag"); etag && etag->is_string()) {
    builder.Header(headers::kEtag, etag->as_string());
  }
  builder.JsonBody(json::Write(resource));
  return std::move(builder).Build();
}

http::Response NoContentResponse(const RequestContext& ctx, double charge) {
  ResponseBuilder builder(204, ctx.activity_id);
  builder.Charge(charge);
  return std::move(builder).Build();
}

Result<json::Value> JsonBody(const RequestContext& ctx) {
  if (ctx.request.body.empty()) {
    return Status::BadRequest("The request body is empty: a JSON object is expected.");
  }
  return json::Parse(ctx.request.body);
}

Result<engine::ThroughputRequest> ThroughputHeaders(const RequestContext& ctx) {
  engine::ThroughputRequest out;
  if (const std::string* manual = ctx.Header(headers::kOfferThroughput)) {
    char* end = nullptr;
    long long value = std::strtoll(manual->c_str(), &end, 10);
    if (end == manual->c_str() || *end != '\0') {
      return Status::BadRequest("Invalid value '" + *manual +
                                "' for header x-ms-offer-throughput.");
    }
    out.manual = value;
  }
  if (const std::string* autoscale = ctx.Header(headers::kOfferAutopilotSettings)) {
    Result<json::Value> settings = json::Parse(*autoscale);
    const json::Value* max = settings.ok() ? settings->Find("maxThroughput") : nullptr;
    if (max == nullptr || !max->is_number()) {
      return Status::BadRequest(
          "Invalid value for header x-ms-cosmos-offer-autopilot-settings: "
          "expected {\"maxThroughput\": <RU/s>}.");
    }
    out.autoscale_max = static_cast<int64_t>(max->as_double());
  }
  return out;
}

}  // namespace orrery::api
