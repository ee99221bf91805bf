#include "api/rid_path.h"

#include "common/encoding.h"

namespace orrery::api {
namespace {

// The id of the resource among `resources` whose _rid is `rid`.
std::optional<std::string> IdOfRid(const std::vector<json::Value>& resources,
                                   const std::string& rid) {
  for (const json::Value& r : resources) {
    const json::Value* r_rid = r.Find("_rid");
    const json::Value* id = r.Find("id");
    if (r_rid != nullptr && id != nullptr && r_rid->is_string() && r_rid->as_string() == rid &&
        id->is_string()) {
      return id->as_string();
    }
  }
  return std::nullopt;
}

// Replaces the item rid of `path.named` (dbs/{db}/colls/{c}/docs/{rid}) by the item's id.
void ResolveItemRid(const engine::Account& account, RidPath& path) {
  std::vector<std::string>& s = path.named.segments;
  Result<std::shared_ptr<engine::Container>> container = account.GetContainer(s[1], s[3]);
  if (!container.ok()) return;
  Result<std::optional<std::string>> id = (*container)->ItemIdOfRid(s[5]);
  if (id.ok() && *id) {
    s[5] = std::move(**id);
  } else {
    path.item_missing = true;
  }
}

// Replaces the script rid of `path.named` (dbs/{db}/colls/{c}/sprocs/{rid}, ...) by the
// script's id.
void ResolveScriptRid(const engine::Account& account, RidPath& path) {
  std::vector<std::string>& s = path.named.segments;
  Result<std::shared_ptr<engine::Container>> container = account.GetContainer(s[1], s[3]);
  if (!container.ok()) return;
  Result<std::optional<std::string>> id =
      (*container)->ScriptIdOfRid(*engine::ScriptTypeOfSegment(s[4]), s[5]);
  if (id.ok() && *id) {
    s[5] = std::move(**id);
  } else {
    path.item_missing = true;
  }
}

}  // namespace

std::optional<RidPath> ResolveRidPath(const engine::Account& account, const ResourcePath& path) {
  const auto& s = path.segments;
  // A database rid is 4 bytes: 8 base64 characters ending in "==".
  if (s.size() < 2 || s[0] != "dbs" || s[1].size() != 8 || !s[1].ends_with("==")) {
    return std::nullopt;
  }
  if (account.ReadDatabase(s[1]).ok()) return std::nullopt;  // a database of that name
  std::optional<std::string> database = IdOfRid(account.ListDatabases(), s[1]);
  if (!database) return std::nullopt;

  RidPath out{path, "", false};
  out.named.segments[1] = *database;
  if (s.size() >= 4 && s[2] == "colls") {
    Result<std::vector<json::Value>> containers = account.ListContainers(*database);
    if (containers.ok()) {
      if (std::optional<std::string> container = IdOfRid(*containers, s[3])) {
        out.named.segments[3] = *container;
        if (s.size() >= 6 && s[4] == "docs") ResolveItemRid(account, out);
        if (s.size() >= 6 && engine::ScriptTypeOfSegment(s[4])) ResolveScriptRid(account, out);
      }
    }
  }
  // The link as names, for the handlers; the signature's link is the rid of the last
  // resource the path addresses (of a feed: its parent; of an operation: its container).
  const size_t link_segments = IsContainerOperation(path) ? 4
                               : path.is_feed             ? s.size() - 1
                                                          : s.size();
  out.named.resource_link.clear();
  for (size_t i = 0; i < link_segments; ++i) {
    if (i > 0) out.named.resource_link += '/';
    out.named.resource_link += out.named.segments[i];
  }
  out.signed_link = LowerAscii(s[link_segments - 1]);
  return out;
}

}  // namespace orrery::api
