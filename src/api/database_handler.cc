#include "api/feed.h"
#include "api/handlers.h"
#include "api/resource_response.h"
#include "engine/throughput/cost_model.h"

namespace orrery::api {

HandlerResult HandleDatabaseFeed(const RequestContext& ctx) {
  const std::string& method = ctx.request.method;
  if (IsListOrQuery(ctx)) {
    return ListOrQueryResources(ctx, ctx.account.ListDatabases(), "", "Databases");
  }
  if (method == "POST") {
    ORRERY_ASSIGN_OR_RETURN(json::Value body, JsonBody(ctx));
    ORRERY_ASSIGN_OR_RETURN(engine::ThroughputRequest throughput, ThroughputHeaders(ctx));
    ORRERY_ASSIGN_OR_RETURN(json::Value created,
                            ctx.account.CreateDatabase(std::move(body), throughput));
    return ResourceResponse(ctx, 201, created, throughput::kMetadataWriteCharge);
  }
  return Status::MethodNotAllowed("The databases feed supports GET and POST.");
}

HandlerResult HandleDatabase(const RequestContext& ctx) {
  const std::string& id = ctx.path.segments[1];
  if (ctx.request.method == "GET") {
    ORRERY_ASSIGN_OR_RETURN(json::Value db, ctx.account.ReadDatabase(id));
    return ResourceResponse(ctx, 200, db, throughput::kMetadataReadCharge);
  }
  if (ctx.request.method == "DELETE") {
    ORRERY_RETURN_IF_ERROR(ctx.account.DeleteDatabase(id));
    return NoContentResponse(ctx, throughput::kMetadataWriteCharge);
  }
  return Status::MethodNotAllowed("A database supports GET and DELETE.");
}

}  // namespace orrery::api
