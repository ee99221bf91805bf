#include "advise/workload.h"

#include "engine/partition/partition_key_path.h"
#include "query/query.h"

namespace orrery::advise {
namespace {

Status Bad(const std::string& operation, const std::string& why) {
  return Status::BadRequest("The workload's operation '" + operation + "' " + why);
}

Result<Operation::Kind> KindOf(const json::Value& spec, const std::string& name) {
  const json::Value* kind = spec.Find("kind");
  if (kind == nullptr) {
    if (spec.Find("query") == nullptr) return Bad(name, "needs a 'query' or a 'kind'.");
    return Operation::Kind::kQuery;
  }
  if (!kind->is_string()) return Bad(name, "has a 'kind' that is not a string.");
  for (Operation::Kind k : {Operation::Kind::kQuery, Operation::Kind::kRead,
                            Operation::Kind::kCreate, Operation::Kind::kUpsert}) {
    if (kind->as_string() == KindName(k)) return k;
  }
  return Bad(name, "has the kind '" + kind->as_string() +
                       "'; the kinds are query, read, create and upsert.");
}

Result<std::vector<ParameterSource>> ParametersOf(const json::Value& spec,
                                                  const std::string& name) {
  std::vector<ParameterSource> sources;
  const json::Value* parameters = spec.Find("parameters");
  if (parameters == nullptr) return sources;
  if (!parameters->is_object()) {
    return Bad(name, "has 'parameters' that is not an object of \"@name\": \"/path\".");
  }
  for (const auto& [parameter, source] : parameters->as_object()) {
    if (parameter.empty() || parameter[0] != '@') {
      return Bad(name, "has the parameter '" + parameter + "', which does not start with '@'.");
    }
    ParameterSource from{parameter, {}, std::nullopt};
    if (source.is_string()) {
      Result<std::vector<std::string>> path = partition::ParsePartitionKeyPath(source.as_string());
      if (!path.ok()) {
        return Bad(name, "draws " + parameter + " from '" + source.as_string() +
                             "', which is not a path like /tenantId.");
      }
      from.path = std::move(*path);
    } else if (const json::Value* constant = source.Find("value"); constant != nullptr) {
      from.constant = *constant;
    } else {
      return Bad(name, "gives " + parameter +
                           " neither a path to draw it from (\"/tenantId\") nor {\"value\": ...}.");
    }
    sources.push_back(std::move(from));
  }
  return sources;
}

Result<Operation> OperationOf(const json::Value& spec, size_t index) {
  const json::Value* name_value = spec.Find("name");
  Operation op;
  op.name = name_value != nullptr && name_value->is_string() ? name_value->as_string()
                                                             : "#" + std::to_string(index + 1);
  if (!spec.is_object()) return Bad(op.name, "is not an object.");
  const json::Value* share = spec.Find("share");
  if (share == nullptr || !share->is_number() || !(share->as_double() > 0)) {
    return Bad(op.name, "needs a 'share' above 0 (its weight among the operations).");
  }
  op.share = share->as_double();
  ORRERY_ASSIGN_OR_RETURN(op.kind, KindOf(spec, op.name));
  if (op.kind != Operation::Kind::kQuery) return op;
  const json::Value* text = spec.Find("query");
  if (text == nullptr || !text->is_string()) return Bad(op.name, "needs its 'query' text.");
  op.query = text->as_string();
  ORRERY_ASSIGN_OR_RETURN(op.parameters, ParametersOf(spec, op.name));
  std::vector<query::Parameter> placeholders;
  for (const ParameterSource& source : op.parameters) {
    placeholders.push_back({source.name, json::Value::Null()});
  }
  Result<std::unique_ptr<query::CompiledQuery>> compiled =
      query::Compile(op.query, std::move(placeholders));
  if (!compiled.ok())
    return Bad(op.name, "has a query that does not compile: " + compiled.status().message());
  return op;
}

}  // namespace

const char* KindName(Operation::Kind kind) {
  switch (kind) {
    case Operation::Kind::kQuery:
      return "query";
    case Operation::Kind::kRead:
      return "read";
    case Operation::Kind::kCreate:
      return "create";
    case Operation::Kind::kUpsert:
      return "upsert";
  }
  return "query";
}

Result<Workload> Workload::Parse(const json::Value& spec) {
  Workload workload;
  const json::Value* operations = spec.Find("operations");
  if (operations == nullptr || !operations->is_array() || operations->as_array().empty()) {
    return Status::BadRequest("The workload needs 'operations': a non-empty array.");
  }
  double total = 0;
  for (size_t i = 0; i < operations->as_array().size(); ++i) {
    ORRERY_ASSIGN_OR_RETURN(Operation op, OperationOf(operations->as_array()[i], i));
    total += op.share;
    workload.operations.push_back(std::move(op));
  }
  for (Operation& op : workload.operations) op.share /= total;
  if (const json::Value* rate = spec.Find("requestsPerSecond"); rate != nullptr) {
    if (!rate->is_number() || !(rate->as_double() > 0)) {
      return Status::BadRequest("The workload's 'requestsPerSecond' must be a number above 0.");
    }
    workload.requests_per_second = rate->as_double();
  }
  return workload;
}

}  // namespace orrery::advise
