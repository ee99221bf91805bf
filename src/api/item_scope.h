#pragma once

// Which part of a container a feed or query request reads: a logical partition (the
// partition key header, a prefix for hierarchical keys), a physical partition (the
// pkrange id header) and/or an EPK sub-range (wire-protocol.md §10.6).

#include "api/request_context.h"
#include "engine/container.h"

namespace orrery::api {

struct ItemScope {
  engine::ReadScope scope;
  bool has_partition_key = false;
  bool has_range = false;
};

// Errors: BadRequest/1001 for a malformed key, Gone/1002 for an unknown range id.
Result<ItemScope> ResolveItemScope(const RequestContext& ctx, const engine::Container& container);

// The partition key of a point operation (full key required). Errors: BadRequest/1001.
Result<partition::PartitionKeyValue> PointPartitionKey(const RequestContext& ctx,
                                                       const engine::Container& container);

}  // namespace orrery::api
