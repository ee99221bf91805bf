#pragma once

// Shared pieces of list, read-feed and query requests.

#include <optional>
#include <string>
#include <vector>

#include "api/request_context.h"
#include "engine/container.h"
#include "query/query.h"

namespace orrery::api {

// x-ms-max-item-count: absent or -1 means the service default of 100.
Result<int> MaxItemCount(const RequestContext& ctx);
std::string ContinuationOf(const RequestContext& ctx);

// Whether a POST to a feed is a query (query+json content type or isquery header).
bool IsQueryRequest(const RequestContext& ctx);

// Parses {"query": "...", "parameters": [{"name": "@p", "value": ...}]} and compiles it,
// over the container when the query reads one (its computed properties, vector and
// full-text policies and geospatial type); over resource lists otherwise.
Result<std::unique_ptr<query::CompiledQuery>> CompileQueryBody(
    const std::string& body, const engine::Container* container = nullptr);

// The feed envelope {"_rid": rid, "<array_name>": [...], "_count": n} with
// x-ms-item-count and x-ms-continuation.
http::Response FeedResponse(const RequestContext& ctx, std::string_view rid,
                            std::string_view array_name, const engine::FeedPage& page,
                            double charge);

// Whether the request lists or queries a feed of metadata resources (GET, or POST
// with a query).
bool IsListOrQuery(const RequestContext& ctx);

// Answers a list (GET) or query (POST) over a small set of metadata resources.
HandlerResult ListOrQueryResources(const RequestContext& ctx,
                                   const std::vector<json::Value>& resources, std::string_view rid,
                                   std::string_view array_name);

}  // namespace orrery::api
