#include "engine/computed_property_indexes.h"

#include <functional>
#include <set>
#include <string>

namespace orrery::engine {
namespace {

std::set<std::string> ComputedNames(const json::Value& body) {
  std::set<std::string> names;
  const json::Value* list = body.Find("computedProperties");
  if (list == nullptr || !list->is_array()) return names;
  for (const json::Value& definition : list->as_array()) {
    const json::Value* name = definition.is_object() ? definition.Find("name") : nullptr;
    if (name != nullptr && name->is_string()) names.insert(name->as_string());
  }
  return names;
}

// The top-level property an index path starts with: "/a/?" and "/\"a\"/*" name "a".
std::string FirstSegment(std::string_view path) {
  if (path.empty() || path.front() != '/') return "";
  path.remove_prefix(1);
  if (!path.empty() && path.front() == '"') {
    const size_t close = path.find('"', 1);
    return close == std::string_view::npos ? "" : std::string(path.substr(1, close - 1));
  }
  return std::string(path.substr(0, path.find('/')));
}

// Each path of the policy, with the kind of entry that holds it.
void ForEachIndexPath(const json::Value& body,
                      const std::function<void(std::string_view kind, std::string_view)>& visit) {
  const json::Value* policy = body.Find("indexingPolicy");
  if (policy == nullptr || !policy->is_object()) return;
  const auto paths_of = [&](const char* field, std::string_view kind) {
    const json::Value* list = policy->Find(field);
    if (list == nullptr || !list->is_array()) return;
    for (const json::Value& entry : list->as_array()) {
      const json::Value* path = entry.is_object() ? entry.Find("path") : nullptr;
      if (path != nullptr && path->is_string()) visit(kind, path->as_string());
    }
  };
  paths_of("includedPaths", "an included path");
  paths_of("excludedPaths", "an excluded path");
  paths_of("spatialIndexes", "a spatial index");
  const json::Value* composites = policy->Find("compositeIndexes");
  if (composites == nullptr || !composites->is_array()) return;
  for (const json::Value& composite : composites->as_array()) {
    if (!composite.is_array()) continue;
    for (const json::Value& entry : composite.as_array()) {
      const json::Value* path = entry.is_object() ? entry.Find("path") : nullptr;
      if (path != nullptr && path->is_string()) visit("a composite index", path->as_string());
    }
  }
}

}  // namespace

Status CheckComputedPropertyIndexes(const json::Value& body) {
  const std::set<std::string> names = ComputedNames(body);
  if (names.empty()) return Status::Ok();
  Status status;
  ForEachIndexPath(body, [&](std::string_view kind, std::string_view path) {
    if (status.ok() && kind == "a spatial index" && names.count(FirstSegment(path)) > 0) {
      status = Status::BadRequest("The spatial index path '" + std::string(path) +
                                  "' is on the computed property '" + FirstSegment(path) +
                                  "': computed properties cannot have a spatial index.");
    }
  });
  return status;
}

Status CheckRemovedComputedProperties(const json::Value& current, const json::Value& replacement) {
  const std::set<std::string> kept = ComputedNames(replacement);
  std::set<std::string> removed;
  for (const std::string& name : ComputedNames(current)) {
    if (kept.count(name) == 0) removed.insert(name);
  }
  if (removed.empty()) return Status::Ok();
  Status status;
  ForEachIndexPath(replacement, [&](std::string_view kind, std::string_view path) {
    const std::string name = FirstSegment(path);
    if (status.ok() && removed.count(name) > 0) {
      status = Status::BadRequest("The computed property '" + name +
                                  "' is removed, but the indexing policy still has " +
                                  std::string(kind) + " on it ('" + std::string(path) +
                                  "'): drop every index on a computed property when removing it.");
    }
  });
  return status;
}

}  // namespace orrery::engine
