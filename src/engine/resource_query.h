#pragma once

// Lists and queries over small sets of resources (databases, containers): evaluated
// in memory and paged by position.

#include <string_view>
#include <vector>

#include "common/status.h"
#include "engine/container.h"
#include "json/value.h"
#include "query/query.h"

namespace orrery::engine {

// With a null query, pages through the resources as they are.
Result<FeedPage> QueryResources(const query::CompiledQuery* query,
                                const std::vector<json::Value>& resources, int max_items,
                                std::string_view continuation);

}  // namespace orrery::engine
