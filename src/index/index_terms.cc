#include "index/index_terms.h"

#include <algorithm>
#include <optional>

#include "index/composite_key.h"
#include "index/index_key.h"

namespace orrery::index {
namespace {

// System properties that are not user data: the service does not index them (and
// `_etag` is excluded by every default policy).
bool IsUnindexedSystemProperty(std::string_view name) {
  return name == "_rid" || name == "_self" || name == "_etag" || name == "_attachments";
}

class TermCollector {
 public:
  TermCollector(const IndexingPolicy& policy, const ItemLocation& where,
                std::vector<std::string>& out)
      : policy_(policy), where_(where), out_(out) {}

  void Walk(const json::Value& value) {
    const bool indexed = !path_.empty() && policy_.IsIndexed(path_);
    if (indexed) Add(value);
    if (value.is_array()) {
      path_.emplace_back("[]");
      for (const json::Value& element : value.as_array()) Walk(element);
      path_.pop_back();
    } else if (value.is_object()) {
      for (const auto& [name, member] : value.as_object()) {
        if (path_.empty() &&
            (IsUnindexedSystemProperty(name) || policy_.IsComputedProperty(name))) {
          continue;
        }
        path_.push_back(name);
        Walk(member);
        path_.pop_back();
      }
    }
  }

  // The computed values, as top-level members of their names.
  void WalkComputed(const json::Value& computed) {
    for (const auto& [name, value] : computed.as_object()) {
      path_.assign(1, name);
      Walk(value);
    }
    path_.clear();
  }

  void AddUndefinedEntries(const json::Value& document, const json::Value& computed) {
    for (const PathSegments& path : policy_.explicit_scalar_paths()) {
      const bool computed_path = !path.empty() && policy_.IsComputedProperty(path[0]);
      const json::Value* value = computed_path ? &computed : &document;
      for (const std::string& name : path) {
        value = value->Find(name);
        if (value == nullptr) break;
      }
      if (value == nullptr) {
        path_ = path;
        Add(json::Value());
      }
    }
    path_.clear();
  }

 private:
  void Add(const json::Value& value) {
    std::string key = PathPrefix(where_.container, where_.partition, path_);
    AppendIndexedEntry(key, value, where_.epk, where_.id);
    out_.push_back(std::move(key));
  }

  const IndexingPolicy& policy_;
  const ItemLocation& where_;
  std::vector<std::string>& out_;
  PathSegments path_;
};

// The document as composite entries see it when there are computed properties: those
// (which win over stored members of their names) among its members.
std::optional<json::Value> WithComputed(const json::Value& document, const json::Value& computed) {
  if (!computed.is_object() || computed.as_object().empty() || !document.is_object()) {
    return std::nullopt;
  }
  json::Value merged = document;
  for (const auto& [name, value] : computed.as_object()) merged.Set(name, value);
  return merged;
}

}  // namespace

std::vector<std::string> EntryKeys(const IndexingPolicy& policy, const json::Value& document,
                                   const ItemLocation& where) {
  return EntryKeys(policy, document, json::Value::MakeObject(), where);
}

std::vector<std::string> EntryKeys(const IndexingPolicy& policy, const json::Value& document,
                                   const json::Value& computed, const ItemLocation& where) {
  std::vector<std::string> keys;
  if (!policy.enabled()) return keys;
  TermCollector collector(policy, where, keys);
  collector.Walk(document);
  if (computed.is_object()) collector.WalkComputed(computed);
  collector.AddUndefinedEntries(document, computed);
  if (!policy.composite_indexes().empty()) {
    const std::optional<json::Value> merged = WithComputed(document, computed);
    AppendCompositeEntryKeys(policy, merged ? *merged : document, where, keys);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

}  // namespace orrery::index
