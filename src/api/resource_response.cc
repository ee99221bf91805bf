#include "api/resource_response.h"

#include "api/headers.h"
#include "api/numeric_headers.h"
#include "api/response.h"
#include "json/json.h"

namespace orrery::api {

http::Response ResourceResponse(const RequestContext& ctx, int status, const json::Value& resource,
                                double charge) {
  const json::Value* etag = resource.Find("_etag");
  const bool has_etag = etag && etag->is_string();
  // A read whose If-None-Match is the resource's current etag is 304 without a body, as
  // for items (REST common request headers: If-None-Match applies to any GET).
  if (status == 200 && ctx.request.method == "GET" && has_etag) {
    if (const std::string* if_none_match = ctx.Header(headers::kIfNoneMatch);
        if_none_match && *if_none_match == etag->as_string()) {
      status = 304;
    }
  }
  ResponseBuilder builder(status, ctx.activity_id);
  builder.Charge(charge);
  if (has_etag) builder.Header(headers::kEtag, etag->as_string());
  if (status != 304) builder.JsonBody(json::Write(resource));
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
  ORRERY_ASSIGN_OR_RETURN(out.manual, ReadIntegerHeader(ctx.request, kOfferThroughputHeader));
  ORRERY_ASSIGN_OR_RETURN(out.autoscale_max, ReadAutoscaleMaxHeader(ctx.request));
  return out;
}

}  // namespace orrery::api
