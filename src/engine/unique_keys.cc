#include "engine/unique_keys.h"

#include "common/encoding.h"
#include "engine/partition/partition_key_path.h"
#include "index/index_key.h"
#include "json/json.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

const json::Value* ValueAt(const json::Value& item, const std::vector<std::string>& path) {
  const json::Value* node = &item;
  for (const std::string& name : path) {
    node = node->Find(name);
    if (node == nullptr) return nullptr;
  }
  return node;
}

// Scalars in the range index's order-preserving encoding (so 1 and 1.0 are one
// value); arrays and objects by their whole text.
void AppendUniqueValue(std::string& key, const json::Value* value) {
  if (value == nullptr) {
    index::AppendValue(key, json::Value());
  } else if (value->is_array() || value->is_object()) {
    index::AppendValue(key, *value);  // the type marker
    key += json::Write(*value);
    key += '\0';
  } else {
    index::AppendValue(key, *value);
  }
}

std::string Prefix(uint32_t container) {
  std::string key(1, storage::keys::kUniqueSpace);
  AppendFixed32BE(key, container);
  return key;
}

}  // namespace

Result<UniqueKeyPolicy> UniqueKeyPolicy::Parse(const json::Value* policy) {
  UniqueKeyPolicy out;
  if (policy == nullptr || policy->is_null()) return out;
  const json::Value* keys = policy->is_object() ? policy->Find("uniqueKeys") : nullptr;
  if (!policy->is_object() || (keys != nullptr && !keys->is_array())) {
    return Status::BadRequest("The uniqueKeyPolicy must be an object with a uniqueKeys array.");
  }
  if (keys == nullptr) return out;
  if (keys->as_array().size() > kMaxUniqueKeys) {
    return Status::BadRequest("A unique key policy can have at most 10 unique keys.");
  }
  for (const json::Value& key : keys->as_array()) {
    const json::Value* paths = key.is_object() ? key.Find("paths") : nullptr;
    if (paths == nullptr || !paths->is_array() || paths->as_array().empty()) {
      return Status::BadRequest("Each unique key needs a non-empty paths array.");
    }
    if (paths->as_array().size() > kMaxUniqueKeyPaths) {
      return Status::BadRequest("A unique key can have at most 16 paths.");
    }
    std::vector<std::vector<std::string>> parsed;
    for (const json::Value& path : paths->as_array()) {
      if (!path.is_string()) return Status::BadRequest("Unique key paths must be strings.");
      Result<std::vector<std::string>> names = partition::ParsePartitionKeyPath(path.as_string());
      if (!names.ok()) {
        return Status::BadRequest("The unique key path '" + path.as_string() +
                                  "' is invalid: " + names.status().message());
      }
      parsed.push_back(std::move(*names));
    }
    out.keys_.push_back(std::move(parsed));
  }
  return out;
}

std::vector<std::string> UniqueKeyPolicy::EntryKeys(uint32_t container, std::string_view epk,
                                                    const json::Value& item) const {
  std::vector<std::string> out;
  for (size_t k = 0; k < keys_.size(); ++k) {
    std::string key = Prefix(container);
    key += epk;
    key += '\0';
    key += static_cast<char>(k);
    for (const std::vector<std::string>& path : keys_[k]) {
      AppendUniqueValue(key, ValueAt(item, path));
    }
    out.push_back(std::move(key));
  }
  return out;
}

std::string UniqueKeyPolicy::ContainerBegin(uint32_t container) { return Prefix(container); }

std::string UniqueKeyPolicy::ContainerEnd(uint32_t container) { return Prefix(container + 1); }

}  // namespace orrery::engine
