#pragma once

// Validation and defaults of a container definition as the service applies them on
// create and replace (wire-protocol.md §6.1).

#include "common/status.h"
#include "engine/partition/partition_key.h"
#include "json/value.h"

namespace orrery::engine {

struct ContainerDefinition {
  json::Value body;  // normalized, without system properties
  partition::PartitionKeyDefinition partition_key;
};

// Checks id, partitionKey, indexingPolicy, defaultTtl and uniqueKeyPolicy; fills the
// service's defaults (indexing policy, partition key kind, conflict resolution,
// geospatial config). Errors: BadRequest with a message saying what is wrong.
Result<ContainerDefinition> NormalizeContainerDefinition(json::Value body);

// The system properties of a container, appended in the service's order.
void AppendContainerSystemProperties(json::Value& body, const std::string& rid,
                                     const std::string& self, const std::string& etag, int64_t ts);

}  // namespace orrery::engine
