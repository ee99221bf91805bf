#pragma once

// The service's rules between computed properties and the indexing policy (Microsoft,
// "Computed properties", Index computed properties): a computed property can have no
// spatial index, and one that is removed must have every index on it dropped with it.
// A computed property's path is always /<name>.

#include "common/status.h"
#include "json/value.h"

namespace orrery::engine {

// On create and replace: no spatial index on a computed property of `body`.
Status CheckComputedPropertyIndexes(const json::Value& body);

// On replace: no path of the new indexing policy under a computed property that the new
// definition removes.
Status CheckRemovedComputedProperties(const json::Value& current, const json::Value& replacement);

}  // namespace orrery::engine
