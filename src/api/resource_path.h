#pragma once

// A request target split into decoded path segments, and the resource type and
// resource link the authorization signature covers (wire-protocol.md §3.1).

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace orrery::api {

// The first segment of Orrery's admin calls (/_orrery/...), which the service has not.
inline constexpr const char* kAdminRoot = "_orrery";

struct ResourcePath {
  std::vector<std::string> segments;  // percent-decoded, e.g. {"dbs","db1","colls","c"}
  std::string resource_type;          // "", "dbs", "colls", "docs", "pkranges", "offers", ...
  std::string resource_link;          // "dbs/db1/colls/c" (case kept, not encoded)
  bool is_feed = false;               // odd segment count: a feed, create or query
};

// Errors: BadRequest for malformed percent-escapes or empty segments.
Result<ResourcePath> ParseResourcePath(std::string_view target);

// dbs/{db}/colls/{c}/operations/{name}: an operation on the container (the service's
// partition-key delete), signed as the container.
bool IsContainerOperation(const ResourcePath& path);

}  // namespace orrery::api
