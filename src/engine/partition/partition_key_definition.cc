// A container's "partitionKey" member: validation on create, defaults, and the form
// returned to clients (wire-protocol.md §6.1).

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "engine/partition/partition_key.h"
#include "engine/partition/partition_key_path.h"
#include "json/json.h"

namespace orrery::partition {

namespace {

// Hierarchical partition keys have up to 3 levels (docs: "Hierarchical partition keys
// in Azure Cosmos DB"; ru-model.md b.1).
constexpr size_t kMaxHierarchicalPaths = 3;

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

std::string Render(const json::Value& v) { return v.is_string() ? v.as_string() : json::Write(v); }

// The service's message for a kind it does not take, e.g. "The 'kind' value
// 'MultiHash' specified in the partition key definition is invalid. Please choose
// 'Hash' partition type." (observed from accounts without hierarchical keys). We name
// both kinds we accept. "Range" is rejected too: the service only ever offered hash
// partitioning to clients, and the JS SDK cannot hash a Range key (hashPartitionKey
// returns undefined for it), so such a container would break bulk and prefix routing.
Result<PartitionKind> ParseKind(const json::Value* kind) {
  if (kind == nullptr || kind->is_null()) {
    return PartitionKind::kHash;
  }
  if (kind->is_string() && EqualsIgnoreCase(kind->as_string(), "Hash")) {
    return PartitionKind::kHash;
  }
  if (kind->is_string() && EqualsIgnoreCase(kind->as_string(), "MultiHash")) {
    return PartitionKind::kMultiHash;
  }
  return Status::BadRequest("The 'kind' value '" + Render(*kind) +
                            "' specified in the partition key definition is invalid. Please "
                            "choose 'Hash' or 'MultiHash' partition type.");
}

Status InvalidVersion(const json::Value& version) {
  return Status::BadRequest("The 'version' value '" + Render(version) +
                            "' specified in the partition key definition is invalid. Please "
                            "choose 1 or 2.");
}

Status ParseVersion(const json::Value* version, PartitionKeyDefinition& definition) {
  if (version == nullptr || version->is_null()) {
    // Absent means V1 for every SDK (wire-protocol.md §6.1); MultiHash is always V2.
    definition.version = definition.is_hierarchical() ? 2 : 1;
    definition.version_given = false;
    return Status::Ok();
  }
  double v = 0;
  if (version->is_string()) {
    // The Java SDK (azure-cosmos 4.x) sends its enum's names: PartitionKeyDefinition
    // writes PartitionKeyDefinitionVersion.toString(), "V1" or "V2"; the service takes
    // them as the numbers. Other strings ("2") are refused.
    const std::string& name = version->as_string();
    if (name != "V1" && name != "V2") return InvalidVersion(*version);
    v = name == "V1" ? 1 : 2;
  } else if (version->is_number()) {
    v = version->as_double();
  } else {
    return InvalidVersion(*version);
  }
  if (v != 1 && v != 2) {
    return InvalidVersion(*version);
  }
  definition.version = static_cast<int>(v);
  definition.version_given = true;
  if (definition.is_hierarchical() && definition.version != 2) {
    return Status::BadRequest(
        "A hierarchical partition key (kind 'MultiHash') requires version 2, but version " +
        std::to_string(definition.version) + " was specified.");
  }
  return Status::Ok();
}

Status ParsePaths(const json::Value* paths, PartitionKeyDefinition& definition) {
  if (paths == nullptr || !paths->is_array() || paths->as_array().empty()) {
    return Status::BadRequest(
        "The partition key definition must have a 'paths' array with at least one path.");
  }
  for (const json::Value& path : paths->as_array()) {
    if (!path.is_string()) {
      return Status::BadRequest("The partition key path " + json::Write(path) +
                                " is invalid: partition key paths must be strings.");
    }
    ORRERY_RETURN_IF_ERROR(ParsePartitionKeyPath(path.as_string()));
    if (std::find(definition.paths.begin(), definition.paths.end(), path.as_string()) !=
        definition.paths.end()) {
      return Status::BadRequest("The partition key path '" + path.as_string() +
                                "' is specified more than once.");
    }
    definition.paths.push_back(path.as_string());
  }
  const size_t n = definition.paths.size();
  if (!definition.is_hierarchical() && n != 1) {
    return Status::BadRequest(
        "A partition key definition of kind 'Hash' must have exactly one "
        "path, but it has " +
        std::to_string(n) + ". Use kind 'MultiHash' for hierarchical partition keys.");
  }
  if (definition.is_hierarchical() && n > kMaxHierarchicalPaths) {
    return Status::BadRequest(
        "A hierarchical partition key (kind 'MultiHash') can have at most 3 paths, but it has " +
        std::to_string(n) + ".");
  }
  return Status::Ok();
}

}  // namespace

// A missing definition is refused. Since REST API version 2018-12-31 (the one every
// current SDK speaks) the service no longer creates non-partitioned containers: the
// collection "must include a partitionKey definition" (REST reference, "Create
// Collection"), and its answer to a definition-less create is 400 "A Partition key
// definition is not specified in the request." (observed, Azure/azure-sdk-for-net#31644).
// The JS SDK never hits this: it sends {"paths":["/_partitionKey"]} when the user gave
// no key, which we accept like any other definition.
Result<PartitionKeyDefinition> ParseDefinition(const json::Value& definition) {
  if (definition.is_undefined() || definition.is_null()) {
    return Status::BadRequest("A Partition key definition is not specified in the request.");
  }
  if (!definition.is_object()) {
    return Status::BadRequest("The partition key definition " + json::Write(definition) +
                              " is invalid: it must be an object with 'paths', 'kind' and "
                              "'version'.");
  }
  PartitionKeyDefinition result;
  ORRERY_ASSIGN_OR_RETURN(result.kind, ParseKind(definition.Find("kind")));
  ORRERY_RETURN_IF_ERROR(ParsePaths(definition.Find("paths"), result));
  ORRERY_RETURN_IF_ERROR(ParseVersion(definition.Find("version"), result));
  if (const json::Value* system_key = definition.Find("systemKey");
      system_key != nullptr && !system_key->is_null()) {
    if (!system_key->is_bool()) {
      return Status::BadRequest("The 'systemKey' value '" + Render(*system_key) +
                                "' specified in the partition key definition is invalid. "
                                "Please choose true or false.");
    }
    result.system_key = system_key->as_bool();
  }
  return result;
}

json::Value DefinitionToJson(const PartitionKeyDefinition& definition) {
  json::Array paths;
  paths.reserve(definition.paths.size());
  for (const std::string& path : definition.paths) {
    paths.push_back(json::Value::String(path));
  }
  json::Value out = json::Value::MakeObject();
  out.Set("paths", json::Value::MakeArray(std::move(paths)));
  switch (definition.kind) {
    case PartitionKind::kHash:
      out.Set("kind", json::Value::String("Hash"));
      break;
    case PartitionKind::kMultiHash:
      out.Set("kind", json::Value::String("MultiHash"));
      break;
    case PartitionKind::kRange:
      out.Set("kind", json::Value::String("Range"));
      break;
  }
  if (definition.version_given || definition.is_hierarchical()) {
    out.Set("version", json::Value::Int(definition.version));
  }
  if (definition.system_key) {
    out.Set("systemKey", json::Value::Bool(true));
  }
  return out;
}

}  // namespace orrery::partition
