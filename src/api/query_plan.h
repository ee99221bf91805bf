#pragma once

#include "api/request_context.h"

namespace orrery::api {

// Answers the SDK's query-plan request (wire-protocol.md §9.5, §9.6) without running
// the query: the service's queryInfo with per-range rewritten queries
// (query/query_plan.h). The JS SDK only uses the plan after a 400/1004 refusal, which
// Orrery never sends (it executes every query completely itself, §9.2), or when the
// pipeline is forced (forceQueryPlan / enableQueryControl); other SDKs always use it.
HandlerResult HandleQueryPlan(const RequestContext& ctx);

}  // namespace orrery::api
