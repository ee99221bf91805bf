#include "engine/container_definition.h"

#include "common/encoding.h"
#include "engine/computed_property_indexes.h"
#include "engine/item_rules.h"
#include "engine/unique_keys.h"
#include "index/indexing_policy.h"
#include "index/spatial_index_policy.h"
#include "query/computed_properties.h"
#include "query/full_text_policy.h"
#include "query/vector_policy.h"

namespace orrery::engine {
namespace {

json::Value DefaultIndexingPolicy() {
  using json::Value;
  return Value::MakeObject({
      {"indexingMode", Value::String("consistent")},
      {"automatic", Value::Bool(true)},
      {"includedPaths", Value::MakeArray({Value::MakeObject({{"path", Value::String("/*")}})})},
      {"excludedPaths",
       Value::MakeArray({Value::MakeObject({{"path", Value::String("/\"_etag\"/?")}})})},
  });
}

Result<json::Value> NormalizeIndexingPolicy(const json::Value* given) {
  if (given == nullptr || given->is_null()) {
    return DefaultIndexingPolicy();
  }
  if (!given->is_object()) {
    return Status::BadRequest("The indexing policy must be a JSON object.");
  }
  json::Value policy = *given;
  const json::Value* mode = policy.Find("indexingMode");
  std::string mode_text = "consistent";
  if (mode != nullptr) {
    if (!mode->is_string()) {
      return Status::BadRequest("The indexingMode of the indexing policy must be a string.");
    }
    mode_text = LowerAscii(mode->as_string());
    if (mode_text != "consistent" && mode_text != "lazy" && mode_text != "none") {
      return Status::BadRequest("Invalid indexingMode '" + mode->as_string() +
                                "': expected 'consistent', 'lazy' or 'none'.");
    }
  }
  policy.Set("indexingMode", json::Value::String(mode_text));
  if (policy.Find("automatic") == nullptr) {
    policy.Set("automatic", json::Value::Bool(mode_text != "none"));
  }
  if (mode_text != "none") {
    if (policy.Find("includedPaths") == nullptr) {
      policy.Set("includedPaths", *DefaultIndexingPolicy().Find("includedPaths"));
    }
    if (policy.Find("excludedPaths") == nullptr) {
      policy.Set("excludedPaths", *DefaultIndexingPolicy().Find("excludedPaths"));
    }
  }
  for (const char* member : {"includedPaths", "excludedPaths", "compositeIndexes"}) {
    const json::Value* list = policy.Find(member);
    if (list != nullptr && !list->is_array()) {
      return Status::BadRequest(std::string("The indexing policy's ") + member +
                                " must be an array.");
    }
  }
  ORRERY_RETURN_IF_ERROR(index::IndexingPolicy::Parse(policy).status());
  return policy;
}

Status ValidateDefaultTtl(const json::Value* ttl) {
  if (ttl == nullptr || ttl->is_null()) {
    return Status::Ok();
  }
  if (!ttl->is_integer() || ttl->as_int() == 0 || ttl->as_int() < -1 ||
      ttl->as_int() > 2147483647) {
    return Status::BadRequest(
        "The value of defaultTtl is invalid: it must be -1 (never expire by default) or a "
        "positive number of seconds up to 2147483647.");
  }
  return Status::Ok();
}

// Container features of the service that Orrery does not implement yet. Accepting them
// and ignoring them would let an application believe they work; until they are
// implemented they are refused, by name.
Status RefuseUnsupportedFeatures(const json::Value& body) {
  const json::Value* policy = body.Find("indexingPolicy");
  if (policy == nullptr || !policy->is_object()) return Status::Ok();
  const json::Value* mode = policy->Find("indexingMode");
  if (mode != nullptr && mode->is_string() && LowerAscii(mode->as_string()) == "lazy") {
    return Status::BadRequest(
        "indexingMode 'lazy' is not supported by Orrery yet; use 'consistent' or 'none'.");
  }
  return Status::Ok();
}

// vectorEmbeddingPolicy with the vector indexes, fullTextPolicy with the full-text
// indexes (query/vector_policy.h, query/full_text_policy.h).
Status ValidateSearchPolicies(const json::Value& body, const json::Value& indexing) {
  ORRERY_RETURN_IF_ERROR(
      query::VectorPolicy::Parse(body.Find("vectorEmbeddingPolicy"), indexing.Find("vectorIndexes"))
          .status());
  return query::FullTextPolicy::Parse(body.Find("fullTextPolicy"), indexing.Find("fullTextIndexes"))
      .status();
}

}  // namespace

Result<ContainerDefinition> NormalizeContainerDefinition(json::Value body) {
  ORRERY_RETURN_IF_ERROR(ValidateResourceId(body));
  ORRERY_RETURN_IF_ERROR(RefuseUnsupportedFeatures(body));
  const json::Value* pk = body.Find("partitionKey");
  if (pk == nullptr || pk->is_null()) {
    // The SDKs always send a partition key; since REST API version 2018-12-31 the
    // service refuses new containers without (clients of older versions get a
    // non-partitioned container: api/container_handler.cc gives it the system key).
    return Status::BadRequest("A Partition key definition is not specified in the request.");
  }
  ContainerDefinition out;
  ORRERY_ASSIGN_OR_RETURN(out.partition_key, partition::ParseDefinition(*pk));
  ORRERY_ASSIGN_OR_RETURN(json::Value indexing,
                          NormalizeIndexingPolicy(body.Find("indexingPolicy")));
  ORRERY_RETURN_IF_ERROR(index::ValidateGeospatialConfig(body.Find("geospatialConfig"), &indexing));
  ORRERY_RETURN_IF_ERROR(ValidateDefaultTtl(body.Find("defaultTtl")));
  ORRERY_RETURN_IF_ERROR(UniqueKeyPolicy::Parse(body.Find("uniqueKeyPolicy")).status());
  ORRERY_RETURN_IF_ERROR(
      query::ComputedProperties::Compile(body.Find("computedProperties")).status());
  {
    // The rules read the policy as given and as normalized alike: check the normalized.
    json::Value checked = json::Value::MakeObject({{"indexingPolicy", indexing}});
    if (const json::Value* computed = body.Find("computedProperties")) {
      checked.Set("computedProperties", *computed);
    }
    ORRERY_RETURN_IF_ERROR(CheckComputedPropertyIndexes(checked));
  }
  ORRERY_RETURN_IF_ERROR(ValidateSearchPolicies(body, indexing));

  StripSystemProperties(body);
  for (const char* name : {"_docs", "_sprocs", "_triggers", "_udfs", "_conflicts"}) {
    body.Remove(name);
  }
  json::Value normalized = json::Value::MakeObject();
  normalized.Set("id", *body.Find("id"));
  normalized.Set("indexingPolicy", std::move(indexing));
  normalized.Set("partitionKey", partition::DefinitionToJson(out.partition_key));
  if (const json::Value* unique = body.Find("uniqueKeyPolicy")) {
    normalized.Set("uniqueKeyPolicy", *unique);
  }
  json::Value conflict = json::Value::MakeObject({
      {"mode", json::Value::String("LastWriterWins")},
      {"conflictResolutionPath", json::Value::String("/_ts")},
      {"conflictResolutionProcedure", json::Value::String("")},
  });
  if (const json::Value* given = body.Find("conflictResolutionPolicy");
      given && given->is_object()) {
    conflict = *given;
  }
  normalized.Set("conflictResolutionPolicy", std::move(conflict));
  json::Value geo = json::Value::MakeObject({{"type", json::Value::String("Geography")}});
  if (const json::Value* given = body.Find("geospatialConfig"); given && given->is_object()) {
    geo = *given;
  }
  normalized.Set("geospatialConfig", std::move(geo));
  for (const auto& [name, value] : body.as_object()) {
    if (normalized.Find(name) == nullptr && !value.is_null()) {
      normalized.Set(name, value);
    }
  }
  out.body = std::move(normalized);
  return out;
}

void AppendContainerSystemProperties(json::Value& body, const std::string& rid,
                                     const std::string& self, const std::string& etag, int64_t ts) {
  body.Set("_rid", json::Value::String(rid));
  body.Set("_ts", json::Value::Int(ts));
  body.Set("_self", json::Value::String(self));
  body.Set("_etag", json::Value::String(etag));
  body.Set("_docs", json::Value::String("docs/"));
  body.Set("_sprocs", json::Value::String("sprocs/"));
  body.Set("_triggers", json::Value::String("triggers/"));
  body.Set("_udfs", json::Value::String("udfs/"));
  body.Set("_conflicts", json::Value::String("conflicts/"));
}

}  // namespace orrery::engine
