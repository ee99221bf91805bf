// /offers and /offers/{id} (wire-protocol.md §13): the list and queries over it (the
// SDK's readOffer() queries by resource), one offer, and replacing a container's.

#include "api/feed.h"
#include "api/handlers.h"
#include "api/resource_response.h"
#include "engine/throughput/cost_model.h"

namespace orrery::api {

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
    ORRERY_ASSIGN_OR_RETURN(json::Value offer, ctx.account.ReadOffer(id));
    return ResourceResponse(ctx, 200, offer, throughput::kMetadataReadCharge);
  }
  if (method == "PUT") {
    ORRERY_ASSIGN_OR_RETURN(json::Value body, JsonBody(ctx));
    ORRERY_ASSIGN_OR_RETURN(json::Value offer, ctx.account.ReplaceOffer(id, body));
    return ResourceResponse(ctx, 200, offer, throughput::kMetadataWriteCharge);
  }
  return Status::MethodNotAllowed("An offer supports GET and PUT.");
}

}  // namespace orrery::api
