// Partition key values: equality, conversion from JSON, extraction from items, and the
// size limit.

#include <string>

#include "engine/partition/partition_key.h"
#include "engine/partition/partition_key_path.h"
#include "json/json.h"

namespace orrery::partition {

namespace {

// V2 keys ("large partition keys") hold up to 2 KB; V1 keys hash only a prefix and are
// not limited (ru-model.md b.1; docs "Azure Cosmos DB service quotas").
constexpr size_t kMaxV2KeyBytes = 2048;

// Substatus of partition key mismatches and malformed keys (PartitionKeyMismatch).
constexpr int kPartitionKeyMismatch = 1001;

}  // namespace

bool operator==(const PartitionKeyComponent& a, const PartitionKeyComponent& b) {
  if (a.kind != b.kind) {
    return false;
  }
  switch (a.kind) {
    case PartitionKeyComponent::Kind::kNumber:
      return a.number == b.number;  // by value: -0 == 0
    case PartitionKeyComponent::Kind::kString:
      return a.string == b.string;
    default:
      return true;
  }
}

// The .NET SDK's wording for the same refusal (RMResources.UnsupportedPartitionKey-
// ComponentValue). The JS SDK cannot put such a value in a header at all: its
// extraction drops it, which leaves the header one component short.
Result<PartitionKeyComponent> ComponentFromJson(const json::Value& value) {
  switch (value.type()) {
    case json::Type::kUndefined:
      return PartitionKeyComponent::None();
    case json::Type::kNull:
      return PartitionKeyComponent::Null();
    case json::Type::kBool:
      return PartitionKeyComponent::Bool(value.as_bool());
    case json::Type::kNumber: {
      const double d = value.as_double();
      // JSON.stringify(-0) is "0", so the SDK's header always carries 0; keeping -0
      // from an item would make its EPK differ from the header's.
      return PartitionKeyComponent::Number(d == 0 ? 0.0 : d);
    }
    case json::Type::kString:
      return PartitionKeyComponent::String(value.as_string());
    case json::Type::kObject:
      if (value.as_object().empty()) {
        return PartitionKeyComponent::None();
      }
      break;
    case json::Type::kArray:
      break;
  }
  return Status::BadRequest("Unsupported PartitionKey value component '" + json::Write(value) +
                                "'. Numeric, string, bool, null, Undefined are the only "
                                "supported types.",
                            kPartitionKeyMismatch);
}

// The SDK walks each path member by member (extractPartitionKey): a member that is
// missing, or a step into something that is not an object, gives None. An empty object
// at the path is None as well: the SDK sends [{}] for it, and the service stores such
// items under the None key (vscode-cosmosdb#597 created one through the portal).
Result<PartitionKeyValue> ExtractFromItem(const json::Value& item,
                                          const PartitionKeyDefinition& definition) {
  PartitionKeyValue key;
  key.reserve(definition.paths.size());
  for (const std::string& path : definition.paths) {
    ORRERY_ASSIGN_OR_RETURN(const std::vector<std::string> names, ParsePartitionKeyPath(path));
    const json::Value* v = &item;
    for (const std::string& name : names) {
      v = v->is_object() ? v->Find(name) : nullptr;
      if (v == nullptr) {
        break;
      }
    }
    if (v == nullptr) {
      key.push_back(PartitionKeyComponent::None());
      continue;
    }
    ORRERY_ASSIGN_OR_RETURN(PartitionKeyComponent component, ComponentFromJson(*v));
    key.push_back(std::move(component));
  }
  // Legacy non-partitioned containers (systemKey): the SDK sends [] when the item has
  // no value under the system path, so that is the item's key.
  if (definition.system_key && key.size() == 1 &&
      (key[0].kind == PartitionKeyComponent::Kind::kNone ||
       key[0].kind == PartitionKeyComponent::Kind::kNull)) {
    key.clear();
  }
  ORRERY_RETURN_IF_ERROR(ValidateKeyValue(definition, key));
  return key;
}

// The limit is applied to the key as a whole (all levels of a hierarchical key); the
// documentation states one "partition key value length" and no per-level limit. The
// service's substatus is not documented (ru-model.md b.1), hence plain 400.
Status ValidateKeyValue(const PartitionKeyDefinition& definition, const PartitionKeyValue& value) {
  if (!definition.is_hierarchical() && definition.version != 2) {
    return Status::Ok();
  }
  size_t bytes = 0;
  for (const PartitionKeyComponent& c : value) {
    if (c.kind == PartitionKeyComponent::Kind::kString) {
      bytes += c.string.size();
    }
  }
  if (bytes > kMaxV2KeyBytes) {
    return Status::BadRequest("The partition key value is " + std::to_string(bytes) +
                              " bytes long, which exceeds the maximum allowed length of 2048 "
                              "bytes.");
  }
  return Status::Ok();
}

}  // namespace orrery::partition
