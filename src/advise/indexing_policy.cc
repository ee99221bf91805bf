#include "advise/indexing_policy.h"

#include <set>
#include <string>

#include "query/query.h"

namespace orrery::advise {
namespace {

std::string IncludedPath(const query::DocumentPath& path) {
  std::string text;
  for (const std::string& segment : path) {
    text += "/";
    // Names that are not identifiers are quoted in index paths, as the service writes them.
    const bool plain = segment == "[]" || segment.find_first_of("/\"?*[] ") == std::string::npos;
    text += plain ? segment : "\"" + segment + "\"";
  }
  return text + "/?";
}

}  // namespace

std::optional<json::Value> WorkloadIndexingPolicy(const Workload& workload) {
  std::set<std::string> paths;
  for (const Operation& op : workload.operations) {
    if (op.kind != Operation::Kind::kQuery) continue;
    std::vector<query::Parameter> placeholders;
    for (const ParameterSource& source : op.parameters) {
      placeholders.push_back({source.name, source.constant.value_or(json::Value::String(""))});
    }
    Result<std::unique_ptr<query::CompiledQuery>> compiled =
        query::Compile(op.query, std::move(placeholders));
    if (!compiled.ok()) return std::nullopt;
    const query::AccessShape& shape = (*compiled)->access_shape();
    for (const query::PathPredicate& predicate : shape.predicates) {
      if (predicate.kind == query::PathPredicate::Kind::kSpatial ||
          predicate.kind == query::PathPredicate::Kind::kFullText) {
        return std::nullopt;
      }
      paths.insert(IncludedPath(predicate.path));
    }
    for (const query::OrderKey& key : shape.order_by) paths.insert(IncludedPath(key.path));
    // ORDER BY on something that is not an item path (or several keys): the default.
    if (shape.order_by_keys > 0 && shape.order_by.size() != 1) return std::nullopt;
  }
  json::Array included;
  for (const std::string& path : paths) {
    included.push_back(json::Value::MakeObject({{"path", json::Value::String(path)}}));
  }
  return json::Value::MakeObject(
      {{"indexingMode", json::Value::String("consistent")},
       {"automatic", json::Value::Bool(true)},
       {"includedPaths", json::Value::MakeArray(std::move(included))},
       {"excludedPaths",
        json::Value::MakeArray({json::Value::MakeObject({{"path", json::Value::String("/*")}})})}});
}

}  // namespace orrery::advise
