#include "engine/query_routing.h"

#include "engine/partition/partition_key_path.h"

namespace orrery::engine {
namespace {

// The single value WHERE requires at `path`, as a key component; nullopt when WHERE
// does not pin it (no equality, an IN list, or a value no key can hold).
std::optional<partition::PartitionKeyComponent> PinnedComponent(const query::AccessShape& shape,
                                                                const query::DocumentPath& path) {
  for (const query::PathPredicate& predicate : shape.predicates) {
    if (predicate.kind != query::PathPredicate::Kind::kEqual || predicate.path != path ||
        predicate.values.size() != 1) {
      continue;
    }
    const json::Value& value = predicate.values[0];
    if (value.is_array() || value.is_object() || value.is_undefined()) return std::nullopt;
    Result<partition::PartitionKeyComponent> component = partition::ComponentFromJson(value);
    if (component.ok()) return *component;
  }
  return std::nullopt;
}

}  // namespace

QueryRouting RouteQuery(const partition::PartitionKeyDefinition& definition,
                        const query::AccessShape& shape) {
  QueryRouting routing;
  if (definition.system_key || definition.paths.empty()) return routing;
  partition::PartitionKeyValue key;
  for (const std::string& path : definition.paths) {
    Result<std::vector<std::string>> segments = partition::ParsePartitionKeyPath(path);
    if (!segments.ok()) return routing;
    std::optional<partition::PartitionKeyComponent> component = PinnedComponent(shape, *segments);
    if (!component) break;
    key.push_back(std::move(*component));
  }
  if (key.size() == definition.paths.size()) {
    routing.kind = QueryRouting::Kind::kLogicalPartition;
    routing.epk = partition::EffectivePartitionKey(definition, key);
  } else if (!key.empty() && definition.is_hierarchical()) {
    routing.kind = QueryRouting::Kind::kKeyPrefix;
    partition::EpkRange prefix = partition::PrefixEpkRange(definition, key);
    routing.range = EpkRange{prefix.min_inclusive, prefix.max_exclusive};
  }
  return routing;
}

ReadScope NarrowScope(const ReadScope& scope, const QueryRouting& routing) {
  ReadScope narrowed = scope;
  switch (routing.kind) {
    case QueryRouting::Kind::kFanOut:
      break;
    case QueryRouting::Kind::kLogicalPartition:
      if (scope.exact_epk && *scope.exact_epk != routing.epk) {
        // The request names another logical partition: nothing can match.
        narrowed.range = EpkRange{routing.epk, routing.epk};
      }
      narrowed.exact_epk = routing.epk;
      break;
    case QueryRouting::Kind::kKeyPrefix:
      narrowed.range = Intersect(scope.range, routing.range);
      break;
  }
  return narrowed;
}

}  // namespace orrery::engine
