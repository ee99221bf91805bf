#pragma once

// The change feed (wire-protocol.md §12): GET on the items feed with A-IM. Latest-
// version mode ("Incremental Feed"); the continuation is the etag of the previous
// page, sent back in If-None-Match ("*": from now); If-Modified-Since starts from a
// time; neither, from the beginning. 304 when nothing is new.

#include "api/request_context.h"
#include "engine/container.h"

namespace orrery::api {

HandlerResult HandleChangeFeed(const RequestContext& ctx, const engine::Container& container);

}  // namespace orrery::api
