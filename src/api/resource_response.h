#pragma once

// Responses for single metadata resources (databases, containers).

#include "api/request_context.h"
#include "json/value.h"

namespace orrery::api {

// 200/201 with the resource as body and its etag header.
http::Response ResourceResponse(const RequestContext& ctx, int status, const json::Value& resource,
                                double charge);
// 204 with no body.
http::Response NoContentResponse(const RequestContext& ctx, double charge);
// Reads the JSON body of a create/replace. Errors: BadRequest.
Result<json::Value> JsonBody(const RequestContext& ctx);
// x-ms-offer-throughput / x-ms-cosmos-offer-autopilot-settings. Errors: BadRequest.
Result<engine::ThroughputRequest> ThroughputHeaders(const RequestContext& ctx);

}  // namespace orrery::api
