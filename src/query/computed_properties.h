#pragma once

// A container's computed properties (query-language.md, "Computed properties"): named
// top-level values derived from an item by a `SELECT VALUE <expr> FROM c` query. They
// are not stored in the item: queries that name them (`c.cp_lowerName`) evaluate the
// definition over the item, and the range index holds their values when the indexing
// policy includes their path explicitly.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "json/value.h"
#include "query/binder.h"

namespace orrery::query {

// The service's limit (Microsoft's "Computed properties" page).
inline constexpr size_t kMaxComputedProperties = 20;

// One definition, compiled. Immutable; safe to use from several threads.
class ComputedProperty {
 public:
  ComputedProperty(std::string name, std::string query_text, BoundQuery bound);

  const std::string& name() const { return name_; }
  const std::string& query_text() const { return query_text_; }

  // The value of the property for `item` (undefined when the expression is; run-time
  // errors give undefined too, as a persisted property that is absent would).
  json::Value Evaluate(const json::Value& item) const;

 private:
  std::string name_;
  std::string query_text_;
  BoundQuery bound_;  // a SELECT VALUE over the one FROM alias
};

class ComputedProperties {
 public:
  // Validates a container's `computedProperties` member (null or absent: none) by the
  // service's rules: at most 20; each {name, query} with strings; names unique, not a
  // system property, top-level; the query a `SELECT VALUE` over the root item without
  // JOIN, WHERE, GROUP BY, ORDER BY, TOP, DISTINCT, OFFSET LIMIT, subqueries,
  // aggregates, non-deterministic, spatial or user-defined functions.
  // Errors: BadRequest saying which property breaks which rule.
  static Result<std::shared_ptr<const ComputedProperties>> Compile(const json::Value* definitions);

  // The property named `name` (exact match), or nullptr.
  const ComputedProperty* Find(std::string_view name) const;
  const std::vector<std::unique_ptr<ComputedProperty>>& all() const { return properties_; }
  std::vector<std::string> names() const;
  bool empty() const { return properties_.empty(); }

  // {name: value} of every property defined for `item` (undefined values left out).
  json::Value ValuesOf(const json::Value& item) const;

 private:
  std::vector<std::unique_ptr<ComputedProperty>> properties_;
};

}  // namespace orrery::query
