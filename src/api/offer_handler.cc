// /offers and /offers/{id} (wire-protocol.md §13): the list and queries over it (the
// SDK's readOffer() queries by resource), one offer, and replacing a container's or a
// database's.

#include "api/feed.h"
#include "api/handlers.h"
#include "api/resource_response.h"
#include "engine/throughput/cost_model.h"

namespace orrery::api {
namespace {

// x-ms-offer-replace-pending says whether the throughput shown is still the old one
// because the new one waits for partitions; x-ms-cosmos-min-throughput the lowest
// throughput a replace may set (ru-model.md b.3).
http::Response OfferResponse(const RequestContext& ctx, const engine::OfferResult& result,
                             double charge) {
  http::Response response = ResourceResponse(ctx, 200, result.offer, charge);
  response.headers.push_back(
      {"x-ms-offer-replace-pending", result.replace_pending ? "true" : "false"});
  response.headers.push_back({"x-ms-cosmos-min-throughput", std::to_string(result.min_throughput)});
  return response;
}

}  // namespace

HandlerResult HandleOffers(const RequestContext& ctx) {
  const std::string& method = ctx.request.method;
  if (ctx.path.segments.size() == 1) {
    if (IsListOrQuery(ctx)) {
      return ListOrQueryResources(ctx, ctx.account.ListOffers(), "", "Offers");
    }
    return Status::MethodNotAllowed("The offers feed supports GET and POST (query).");
  }
  const std::string& id = ctx.path.segments[1];
  if (method == "GET") {
    ORRERY_ASSIGN_OR_RETURN(engine::OfferResult read, ctx.account.ReadOffer(id));
    return OfferResponse(ctx, read, throughput::kMetadataReadCharge);
  }
  if (method == "PUT") {
    ORRERY_ASSIGN_OR_RETURN(json::Value body, JsonBody(ctx));
    ORRERY_ASSIGN_OR_RETURN(engine::OfferResult replaced, ctx.account.ReplaceOffer(id, body));
    return OfferResponse(ctx, replaced, throughput::kMetadataWriteCharge);
  }
  return Status::MethodNotAllowed("An offer supports GET and PUT.");
}

}  // namespace orrery::api
