#pragma once

// Rid-based resource paths: `/dbs/{dbRid}/colls/{collRid}[/docs/{docRid}]`, which the
// Java and .NET SDKs send for what they cache by rid (a container read, its pkranges
// feed) and the Python SDK for an item passed as a dict (its `_self`, for read, replace,
// patch and delete).
// Such a path is served as its name-based twin; its signature covers the addressed
// resource's rid in lower case instead of the name-based link (wire-protocol.md §3.1).

#include <optional>
#include <string>

#include "api/resource_path.h"
#include "engine/account.h"

namespace orrery::api {

struct RidPath {
  ResourcePath named;       // the same request addressed by names
  std::string signed_link;  // what the signature covers: the lowercased rid
  // An item or script rid that names none of the container's (deleted since, or never
  // one): the request is answered 404 once authenticated, whatever its verb.
  bool item_missing = false;
};

// nullopt when `path` is name-based: its database segment names an existing database,
// or is no existing database's rid.
std::optional<RidPath> ResolveRidPath(const engine::Account& account, const ResourcePath& path);

}  // namespace orrery::api
