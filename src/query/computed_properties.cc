#include "query/computed_properties.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <utility>

#include "query/evaluator.h"
#include "query/functions.h"
#include "query/parser.h"

namespace orrery::query {
namespace {

// System property names a computed property may not take (Microsoft: "reserved system
// property names such as id, _rid and _ts").
constexpr std::array<std::string_view, 6> kReservedNames = {"id",    "_rid",  "_ts",
                                                            "_etag", "_self", "_attachments"};

// Functions whose value is not a function of the item: a computed value must be the
// same each time the item is read or indexed.
constexpr std::array<std::string_view, 5> kNonDeterministicFunctions = {
    "GetCurrentDateTime", "GetCurrentTimestamp", "GetCurrentTicks", "RAND",
    "GetCurrentDateTimeStatic"};

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

Status InvalidQuery(const std::string& name, const std::string& why) {
  return Status::BadRequest("The query of computed property '" + name + "' is invalid: " + why);
}

// The clauses the service refuses in a computed property's query.
Status CheckClauses(const std::string& name, const ast::Query& q) {
  if (q.from.empty()) {
    return InvalidQuery(name, "it must have a FROM clause over the root item, such as 'FROM c'.");
  }
  if (q.from.size() > 1) return InvalidQuery(name, "JOIN is not allowed.");
  const ast::FromSource& source = q.from.front();
  if (source.kind != ast::SourceKind::kCollection || source.collection == nullptr ||
      source.collection->kind != ast::ExprKind::kIdentifier) {
    return InvalidQuery(name,
                        "the FROM clause must name the root item ('FROM c', 'FROM root c'), "
                        "not a path, an IN iteration or a subquery.");
  }
  if (q.select.kind != ast::SelectKind::kValue) {
    return InvalidQuery(name, "the projection must use SELECT VALUE.");
  }
  if (q.select.distinct) return InvalidQuery(name, "DISTINCT is not allowed.");
  if (q.select.top) return InvalidQuery(name, "TOP is not allowed.");
  if (q.where) return InvalidQuery(name, "WHERE is not allowed.");
  if (!q.group_by.empty()) return InvalidQuery(name, "GROUP BY is not allowed.");
  if (!q.order_by.empty()) return InvalidQuery(name, "ORDER BY is not allowed.");
  if (q.offset || q.limit) return InvalidQuery(name, "OFFSET LIMIT is not allowed.");
  return Status::Ok();
}

// The expressions the service refuses: subqueries (scalar, EXISTS, ARRAY), aggregates,
// non-deterministic, spatial and user-defined functions. Built-ins are known only
// after binding (CallExpr::function).
Status CheckExpression(const std::string& name, const ast::Expr& expr) {
  if (expr.kind == ast::ExprKind::kSubquery) {
    return InvalidQuery(name, "subqueries (scalar, EXISTS and ARRAY) are not allowed.");
  }
  if (expr.kind == ast::ExprKind::kCall) {
    const auto& call = ast::As<ast::CallExpr>(expr);
    if (call.is_udf) return InvalidQuery(name, "user-defined functions are not allowed.");
    // By the name as written: spatial functions may not be built in yet.
    if (call.name.size() > 3 &&
        EqualsIgnoringCase(std::string_view(call.name).substr(0, 3), "ST_")) {
      return InvalidQuery(name, "spatial functions such as " + call.name + " are not allowed.");
    }
    if (call.function != nullptr) {
      const std::string_view function = call.function->name;
      if (call.function->is_aggregate()) {
        return InvalidQuery(
            name, "aggregate functions such as " + std::string(function) + " are not allowed.");
      }
      for (std::string_view refused : kNonDeterministicFunctions) {
        if (EqualsIgnoringCase(function, refused)) {
          return InvalidQuery(name, "non-deterministic functions such as " + std::string(function) +
                                        " are not allowed.");
        }
      }
    }
  }
  Status status;
  ast::VisitChildren(const_cast<ast::Expr&>(expr), [&](ast::ExprPtr& child) {
    if (status.ok()) status = CheckExpression(name, *child);
  });
  return status;
}

Status CheckName(const json::Value* name_value, const std::vector<std::string>& earlier) {
  if (name_value == nullptr || !name_value->is_string()) {
    return Status::BadRequest("Each computed property must have a 'name' string.");
  }
  const std::string& name = name_value->as_string();
  if (name.empty()) return Status::BadRequest("The name of a computed property cannot be empty.");
  for (std::string_view reserved : kReservedNames) {
    if (name == reserved) {
      return Status::BadRequest("The computed property name '" + name +
                                "' is a reserved system property name.");
    }
  }
  if (name.find('/') != std::string::npos) {
    return Status::BadRequest("The computed property name '" + name +
                              "' is invalid: computed properties are top-level properties, "
                              "and a name cannot be a nested path.");
  }
  if (std::find(earlier.begin(), earlier.end(), name) != earlier.end()) {
    return Status::BadRequest("The computed property name '" + name +
                              "' is used more than once: computed property names must be "
                              "unique.");
  }
  return Status::Ok();
}

Result<std::unique_ptr<ComputedProperty>> CompileOne(const json::Value& definition,
                                                     const std::vector<std::string>& earlier) {
  if (!definition.is_object()) {
    return Status::BadRequest("Each computed property must be an object with 'name' and 'query'.");
  }
  ORRERY_RETURN_IF_ERROR(CheckName(definition.Find("name"), earlier));
  const std::string name = definition.Find("name")->as_string();
  const json::Value* query = definition.Find("query");
  if (query == nullptr || !query->is_string() || query->as_string().empty()) {
    return Status::BadRequest("The computed property '" + name + "' must have a 'query' string.");
  }
  const std::string& text = query->as_string();
  Result<std::unique_ptr<ast::Query>> parsed = Parse(text);
  if (!parsed.ok()) return InvalidQuery(name, parsed.status().message());
  ORRERY_RETURN_IF_ERROR(CheckClauses(name, **parsed));
  // Before binding for what the binder would refuse in its own words (user-defined
  // functions); again after it for what needs the built-in (aggregates and the like).
  ORRERY_RETURN_IF_ERROR(CheckExpression(name, *(*parsed)->select.value));
  Result<BoundQuery> bound = Bind(text, std::move(*parsed), {});
  if (!bound.ok()) return InvalidQuery(name, bound.status().message());
  if (bound->is_aggregate) {
    return InvalidQuery(name, "aggregate functions are not allowed.");
  }
  ORRERY_RETURN_IF_ERROR(CheckExpression(name, *bound->query->select.value));
  return std::make_unique<ComputedProperty>(name, text, std::move(*bound));
}

}  // namespace

ComputedProperty::ComputedProperty(std::string name, std::string query_text, BoundQuery bound)
    : name_(std::move(name)), query_text_(std::move(query_text)), bound_(std::move(bound)) {}

json::Value ComputedProperty::Evaluate(const json::Value& item) const {
  // The FROM source is the bare root: its alias and the container name both read the
  // item, in every slot the definition may use.
  std::vector<const json::Value*> slots(static_cast<size_t>(bound_.slot_count), &item);
  const Frame frame{.slots = slots};
  json::Value value = query::Evaluate(*bound_.query->select.value, frame).Take();
  // NaN and the infinities have no JSON form and no place in the index's order; as in
  // query results (compiled_query.cc), they count as undefined.
  if (value.is_number() && !value.is_integer() && !std::isfinite(value.as_double())) {
    return json::Value();
  }
  return value;
}

Result<std::shared_ptr<const ComputedProperties>> ComputedProperties::Compile(
    const json::Value* definitions) {
  auto compiled = std::make_shared<ComputedProperties>();
  if (definitions == nullptr || definitions->is_null()) {
    return std::shared_ptr<const ComputedProperties>(std::move(compiled));
  }
  if (!definitions->is_array()) {
    return Status::BadRequest("The computedProperties of a container must be an array.");
  }
  const json::Array& list = definitions->as_array();
  if (list.size() > kMaxComputedProperties) {
    return Status::BadRequest("The number of computed properties (" + std::to_string(list.size()) +
                              ") exceeds the maximum of " + std::to_string(kMaxComputedProperties) +
                              " per container.");
  }
  std::vector<std::string> names;
  for (const json::Value& definition : list) {
    ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<ComputedProperty> property,
                            CompileOne(definition, names));
    names.push_back(property->name());
    compiled->properties_.push_back(std::move(property));
  }
  return std::shared_ptr<const ComputedProperties>(std::move(compiled));
}

const ComputedProperty* ComputedProperties::Find(std::string_view name) const {
  for (const auto& property : properties_) {
    if (property->name() == name) return property.get();
  }
  return nullptr;
}

std::vector<std::string> ComputedProperties::names() const {
  std::vector<std::string> out;
  out.reserve(properties_.size());
  for (const auto& property : properties_) out.push_back(property->name());
  return out;
}

json::Value ComputedProperties::ValuesOf(const json::Value& item) const {
  json::Value values = json::Value::MakeObject();
  for (const auto& property : properties_) {
    json::Value value = property->Evaluate(item);
    if (!value.is_undefined()) values.Set(property->name(), std::move(value));
  }
  return values;
}

}  // namespace orrery::query
