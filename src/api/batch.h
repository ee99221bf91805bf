#pragma once

// Transactional batch and bulk (wire-protocol.md §8): POST to the items feed with
// x-ms-cosmos-is-batch-request and a JSON array of operations. Atomic (the partition
// key header names the one logical partition; all or nothing: 200, or 207 with the
// failing operation's status and 424 for the others) or, with
// x-ms-cosmos-batch-atomic: false, bulk (each operation with its own partitionKey, run
// and committed one by one: 200, or 207 when some failed).

#include "api/request_context.h"
#include "engine/container.h"

namespace orrery::api {

HandlerResult HandleBatch(const RequestContext& ctx, engine::Container& container);

}  // namespace orrery::api
