#pragma once

// One handler per resource kind and verb. Each REQUIRES an authenticated context
// whose path has the shape named in its comment.

#include "api/request_context.h"

namespace orrery::api {

// GET /
HandlerResult HandleAccountRead(const RequestContext& ctx);

// /dbs and /dbs/{db}
HandlerResult HandleDatabaseFeed(const RequestContext& ctx);  // GET list, POST create/query
HandlerResult HandleDatabase(const RequestContext& ctx);      // GET, DELETE

// /dbs/{db}/colls and /dbs/{db}/colls/{c}
HandlerResult HandleContainerFeed(const RequestContext& ctx);
HandlerResult HandleContainer(const RequestContext& ctx);  // GET, PUT, DELETE

// /dbs/{db}/colls/{c}/docs and .../docs/{id}
HandlerResult HandleItemFeed(const RequestContext& ctx);  // POST create/upsert/query; GET feed
HandlerResult HandleItem(const RequestContext& ctx);      // GET, PUT, DELETE

// /dbs/{db}/colls/{c}/sprocs|triggers|udfs and .../{id}
HandlerResult HandleScriptFeed(const RequestContext& ctx);  // GET list, POST create/query
HandlerResult HandleScript(const RequestContext& ctx);      // GET, PUT, DELETE; POST executes

// POST /dbs/{db}/colls/{c}/operations/partitionkeydelete
HandlerResult HandlePartitionKeyDelete(const RequestContext& ctx);

// /dbs/{db}/colls/{c}/pkranges
HandlerResult HandlePartitionKeyRanges(const RequestContext& ctx);

// /offers and /offers/{id}
HandlerResult HandleOffers(const RequestContext& ctx);

// /_orrery/dbs/{db}/colls/{c}/throughput: Orrery's admin call (not the service's)
HandlerResult HandleAdmin(const RequestContext& ctx);  // GET, PUT

}  // namespace orrery::api
