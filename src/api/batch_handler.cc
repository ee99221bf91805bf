#include <string>

#include "api/batch.h"
#include "api/data_plane.h"
#include "api/error_mapping.h"
#include "api/headers.h"
#include "api/item_scope.h"
#include "api/response.h"
#include "common/encoding.h"
#include "engine/throughput/cost_model.h"
#include "json/json.h"

namespace orrery::api {
namespace {

using Kind = engine::BatchOperation::Kind;

std::optional<Kind> KindOf(std::string name) {
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (name == "create") return Kind::kCreate;
  if (name == "upsert") return Kind::kUpsert;
  if (name == "replace") return Kind::kReplace;
  if (name == "read") return Kind::kRead;
  if (name == "delete") return Kind::kDelete;
  if (name == "patch") return Kind::kPatch;
  return std::nullopt;
}

std::optional<std::string> StringMember(const json::Value& spec, std::string_view name) {
  const json::Value* v = spec.Find(name);
  return v && v->is_string() ? std::optional<std::string>(v->as_string()) : std::nullopt;
}

// One operation of the body, and the partition key it names (bulk), if any.
struct ParsedOperation {
  engine::BatchOperation op;
  std::optional<std::string> partition_key;  // JSON array text
};

Result<ParsedOperation> ParseOperation(const json::Value& spec, size_t index) {
  const std::string where = "Operation " + std::to_string(index) + " of the batch";
  if (!spec.is_object()) return Status::BadRequest(where + " is not a JSON object.");
  std::optional<std::string> type = StringMember(spec, "operationType");
  std::optional<Kind> kind = type ? KindOf(*type) : std::nullopt;
  if (!kind) {
    return Status::BadRequest(where +
                              " needs an operationType of Create, Upsert, Replace, Read, "
                              "Delete or Patch.");
  }
  ParsedOperation out;
  out.op.kind = *kind;
  out.op.id = StringMember(spec, "id").value_or("");
  out.op.if_match = StringMember(spec, "ifMatch");
  out.op.if_none_match = StringMember(spec, "ifNoneMatch");
  out.partition_key = StringMember(spec, "partitionKey");
  const json::Value* body = spec.Find("resourceBody");
  if (*kind == Kind::kCreate || *kind == Kind::kUpsert || *kind == Kind::kReplace) {
    if (body == nullptr || !body->is_object()) {
      return Status::BadRequest(where + " needs a resourceBody object.");
    }
    out.op.body = json::Write(*body);
    if (*kind != Kind::kReplace) {
      const json::Value* id = body->Find("id");
      if (id && id->is_string()) out.op.id = id->as_string();
    }
  } else if (*kind == Kind::kPatch) {
    if (body == nullptr) return Status::BadRequest(where + " needs a resourceBody.");
    ORRERY_ASSIGN_OR_RETURN(out.op.patch, engine::ParsePatchRequest(*body));
  }
  if (*kind != Kind::kCreate && *kind != Kind::kUpsert && out.op.id.empty()) {
    return Status::BadRequest(where + " needs the id of its item.");
  }
  return out;
}

double ChargeOf(const engine::BatchOperation& op, const engine::BatchOperationResult& result) {
  if (!result.status.ok()) return throughput::kRejectedCharge;
  const size_t bytes = result.item.bytes;
  const throughput::IndexWrite& index = result.item.index;
  switch (op.kind) {
    case Kind::kRead:
      return throughput::PointReadCharge(bytes);
    case Kind::kDelete:
      return throughput::DeleteCharge(bytes, index);
    case Kind::kCreate:
      return throughput::CreateCharge(bytes, index);
    case Kind::kUpsert:
      return result.item.created ? throughput::CreateCharge(bytes, index)
                                 : throughput::ReplaceCharge(bytes, index);
    case Kind::kReplace:
    case Kind::kPatch:
      return throughput::ReplaceCharge(bytes, index);
  }
  return 0;
}

int SuccessStatus(const engine::BatchOperation& op, const engine::BatchOperationResult& result) {
  switch (op.kind) {
    case Kind::kCreate:
      return 201;
    case Kind::kUpsert:
      return result.item.created ? 201 : 200;
    case Kind::kDelete:
      return 204;
    case Kind::kRead:
      return result.not_modified ? 304 : 200;
    default:
      return 200;
  }
}

void ChargeBulkOperation(const engine::Container& container, const ParsedOperation& op,
                         double charge, const throughput::RequestClass& request_class) {
  if (!op.partition_key) return;
  Result<partition::PartitionKeyValue> key =
      partition::ParseHeader(*op.partition_key, container.settings().partition_key, false);
  if (key.ok()) container.ChargeRequest(*key, charge, request_class);
}

// One element of the response array. `ran` is false for the operations of a failed
// atomic batch that did not fail themselves (424).
void AppendResult(std::string& out, const engine::BatchOperation& op,
                  const engine::BatchOperationResult& result, bool ran, bool minimal,
                  double& total_charge) {
  out += '{';
  if (!ran) {
    out += "\"statusCode\":424,\"requestCharge\":0}";
    return;
  }
  const double charge = ChargeOf(op, result);
  total_charge += charge;
  if (!result.status.ok()) {
    out += "\"statusCode\":" + std::to_string(HttpStatusOf(result.status.code()));
    out += ",\"subStatusCode\":" + std::to_string(result.status.substatus());
    if (result.status.code() == StatusCode::kTooManyRequests) {
      // The SDK's bulk executor waits this long before it retries the operation.
      out += ",\"retryAfterMilliseconds\":" + std::to_string(result.status.retry_after_ms());
    }
    out += ",\"requestCharge\":" + FormatCharge(charge) + ",\"message\":";
    json::AppendQuoted(out, result.status.message());
    out += '}';
    return;
  }
  const int status = SuccessStatus(op, result);
  out += "\"statusCode\":" + std::to_string(status) + ",\"requestCharge\":" + FormatCharge(charge);
  if (!result.item.etag.empty()) {
    out += ",\"eTag\":";
    json::AppendQuoted(out, result.item.etag);
  }
  const bool body = status != 204 && status != 304 && !result.item.json.empty() &&
                    (op.kind == Kind::kRead || !minimal);
  if (body) out += ",\"resourceBody\":" + result.item.json;
  out += '}';
}

}  // namespace

HandlerResult HandleBatch(const RequestContext& ctx, engine::Container& container) {
  ORRERY_ASSIGN_OR_RETURN(json::Value body, json::Parse(ctx.request.body));
  if (!body.is_array()) {
    return Status::BadRequest("A batch request body must be a JSON array of operations.");
  }
  if (body.as_array().empty()) {
    return Status::BadRequest("A batch request needs at least one operation.");
  }
  if (body.as_array().size() > engine::kMaxBatchOperations) {
    return Status::BadRequest("Batch request has more operations than what is supported.");
  }
  std::vector<ParsedOperation> parsed;
  for (size_t i = 0; i < body.as_array().size(); ++i) {
    ORRERY_ASSIGN_OR_RETURN(ParsedOperation op, ParseOperation(body.as_array()[i], i));
    parsed.push_back(std::move(op));
  }
  const std::string* atomic_header = ctx.Header(headers::kBatchAtomic);
  // "false" or "False" (the SDKs differ), as the service reads boolean headers.
  const bool atomic = atomic_header == nullptr || !EqualsIgnoreCase(*atomic_header, "false");
  const std::string* prefer = ctx.Header(headers::kPrefer);
  const bool minimal = prefer && prefer->find("return=minimal") != std::string::npos;

  std::vector<engine::BatchOperation> ops;
  for (ParsedOperation& p : parsed) ops.push_back(std::move(p.op));
  std::vector<engine::BatchOperationResult> results;
  std::vector<bool> ran(ops.size(), true);
  bool failed = false;
  if (atomic) {
    ORRERY_ASSIGN_OR_RETURN(partition::PartitionKeyValue key, PointPartitionKey(ctx, container));
    for (const ParsedOperation& p : parsed) {
      if (!p.partition_key) continue;
      Result<partition::PartitionKeyValue> own =
          partition::ParseHeader(*p.partition_key, container.settings().partition_key, false);
      if (!own.ok() || !(*own == key)) {
        return Status::BadRequest(
            "All operations of a transactional batch must be in the logical partition of its "
            "x-ms-documentdb-partitionkey header.",
            1001);
      }
    }
    ORRERY_RETURN_IF_ERROR(container.AdmitRequest(key, ctx.request_class));
    ORRERY_ASSIGN_OR_RETURN(results, container.ExecuteBatch(key, ops));
    // Nothing of a failed batch is written: every operation but the failing one is
    // answered 424 (failed dependency), those before it too.
    for (const auto& result : results) failed = failed || !result.status.ok();
    for (size_t i = 0; i < results.size(); ++i) ran[i] = !failed || !results[i].status.ok();
  } else {
    // Bulk: every operation on its own, with its own partition key.
    for (size_t i = 0; i < ops.size(); ++i) {
      engine::BatchOperationResult result;
      Result<partition::PartitionKeyValue> key =
          parsed[i].partition_key
              ? partition::ParseHeader(*parsed[i].partition_key, container.settings().partition_key,
                                       false)
              : Result<partition::PartitionKeyValue>(
                    Status::BadRequest("A bulk operation needs its partitionKey.", 1001));
      Status admitted = key.ok() ? container.AdmitRequest(*key, ctx.request_class) : key.status();
      if (!admitted.ok()) {
        // A throttled operation is answered 429 on its own; the SDK retries just it.
        result.status = std::move(admitted);
      } else {
        Result<std::vector<engine::BatchOperationResult>> one =
            container.ExecuteBatch(*key, {ops[i]});
        if (one.ok()) {
          result = std::move((*one)[0]);
        } else {
          result.status = one.status();
        }
      }
      failed = failed || !result.status.ok();
      results.push_back(std::move(result));
    }
  }

  std::string out = "[";
  double total = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i > 0) out += ',';
    double charge = 0;
    AppendResult(out, ops[i], results[i], ran[i], minimal, charge);
    total += charge;
    if (!atomic && results[i].status.code() != StatusCode::kTooManyRequests) {
      ChargeBulkOperation(container, parsed[i], charge, ctx.request_class);
    }
  }
  out += ']';
  if (atomic) {
    ORRERY_ASSIGN_OR_RETURN(partition::PartitionKeyValue key, PointPartitionKey(ctx, container));
    container.ChargeRequest(key, total, ctx.request_class);
  }
  ResponseBuilder builder(failed ? 207 : 200, ctx.activity_id);
  builder.Charge(total).JsonBody(std::move(out));
  builder.Header(headers::kContentPath, container.settings().rid);
  // The session token of the batch's partition at its latest write, as for single-item
  // operations.
  std::string session;
  uint64_t lsn = 0;
  for (const engine::BatchOperationResult& result : results) {
    if (atomic && result.status.ok() && !result.item.pkrange_id.empty() && result.item.lsn >= lsn) {
      lsn = result.item.lsn;
      session = SessionToken(result.item.pkrange_id, lsn);
    }
  }
  // A bulk request names the one range it is for (the Java SDK accepts a token of one
  // range only, "<range>:<token>").
  if (session.empty()) {
    const std::string* range_id = ctx.Header(headers::kPartitionKeyRangeId);
    session = range_id ? SessionToken(*range_id, container.current_lsn())
                       : AllRangesSessionToken(container);
  }
  builder.Header(headers::kSessionToken, session);
  return std::move(builder).Build();
}

}  // namespace orrery::api
