// Stored procedures, triggers and user-defined functions under a container
// (server-side-scripts.md §1): their feeds, each one, and the execution of a stored
// procedure.

#include "api/data_plane.h"
#include "api/feed.h"
#include "api/handlers.h"
#include "api/headers.h"
#include "api/item_scope.h"
#include "api/resource_response.h"
#include "api/response.h"
#include "common/encoding.h"
#include "engine/script_execution.h"
#include "engine/throughput/cost_model.h"
#include "json/json.h"

namespace orrery::api {
namespace {

engine::ScriptType TypeOf(const RequestContext& ctx) {
  return *engine::ScriptTypeOfSegment(ctx.path.segments[4]);
}

// The parameters of an execution: a JSON array (the SDKs wrap a single value in one);
// no body at all is no parameters.
Result<std::string> ExecutionArguments(const RequestContext& ctx) {
  const std::string& body = ctx.request.body;
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) return std::string("[]");
  Result<json::Value> parsed = json::Parse(body);
  if (!parsed.ok() || !parsed->is_array()) {
    return Status::BadRequest(
        "The stored procedure's parameters must be a JSON array of values, one per parameter of "
        "its function (the request body was " +
        std::string(parsed.ok() ? "JSON, but not an array" : "not valid JSON") + ").");
  }
  return body;
}

HandlerResult ExecuteStoredProcedure(const RequestContext& ctx, engine::Container& container,
                                     const json::Value& procedure) {
  ORRERY_ASSIGN_OR_RETURN(std::string arguments, ExecutionArguments(ctx));
  ORRERY_ASSIGN_OR_RETURN(partition::PartitionKeyValue key, PointPartitionKey(ctx, container));
  ORRERY_RETURN_IF_ERROR(container.AdmitRequest(key, ctx.request_class));
  engine::StoredProcedureCall call;
  call.partition_key = key;
  call.body = procedure.Find("body")->as_string();
  call.arguments = arguments;
  call.logging = ctx.HeaderIsTrue(headers::kScriptEnableLogging);
  call.alt_link = AltContentPath(container.settings());
  ORRERY_ASSIGN_OR_RETURN(engine::ScriptRun run, engine::ExecuteStoredProcedure(container, call));
  const double charge = throughput::RoundCharge(run.charge);
  container.ChargeRequest(key, charge, ctx.request_class);
  if (run.outcome.kind != script::Outcome::Kind::kCompleted) {
    return engine::StatusOfFailedScript(run.outcome);
  }
  ResponseBuilder builder(200, ctx.activity_id);
  builder.Charge(charge).JsonBody(run.outcome.response_body);
  builder.Header(headers::kContentPath, container.settings().rid);
  builder.Header(headers::kAltContentPath,
                 AltContentPath(container.settings()) + "/sprocs/" + ctx.path.segments[5]);
  const std::string session = run.pkrange_id.empty() ? AllRangesSessionToken(container)
                                                     : SessionToken(run.pkrange_id, run.lsn);
  builder.Header(headers::kSessionToken, session);
  if (call.logging) builder.Header(headers::kScriptLogResults, PercentEncode(run.outcome.log));
  return std::move(builder).Build();
}

}  // namespace

HandlerResult HandleScriptFeed(const RequestContext& ctx) {
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<engine::Container> container, OwnerContainer(ctx));
  const engine::ScriptType type = TypeOf(ctx);
  if (IsListOrQuery(ctx)) {
    ORRERY_ASSIGN_OR_RETURN(std::vector<json::Value> scripts, container->ListScripts(type));
    return ListOrQueryResources(ctx, scripts, container->settings().rid,
                                engine::InfoOf(type).feed_array);
  }
  if (ctx.request.method == "POST") {
    ORRERY_ASSIGN_OR_RETURN(json::Value body, JsonBody(ctx));
    const bool upsert = ctx.HeaderIsTrue(headers::kIsUpsert);
    const std::string* id = body.is_object() && body.Find("id") && body.Find("id")->is_string()
                                ? &body.Find("id")->as_string()
                                : nullptr;
    const bool existed = upsert && id != nullptr && container->ReadScript(type, *id).ok();
    ORRERY_ASSIGN_OR_RETURN(json::Value created,
                            container->CreateScript(type, std::move(body), upsert));
    return ResourceResponse(ctx, existed ? 200 : 201, created, throughput::kMetadataWriteCharge);
  }
  return Status::MethodNotAllowed("The " + std::string(engine::InfoOf(type).noun) +
                                  "s feed supports GET and POST.");
}

HandlerResult HandleScript(const RequestContext& ctx) {
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<engine::Container> container, OwnerContainer(ctx));
  const engine::ScriptType type = TypeOf(ctx);
  const std::string& id = ctx.path.segments[5];
  const std::string& method = ctx.request.method;
  if (method == "GET") {
    ORRERY_ASSIGN_OR_RETURN(json::Value script, container->ReadScript(type, id));
    return ResourceResponse(ctx, 200, script, throughput::kMetadataReadCharge);
  }
  if (method == "PUT") {
    ORRERY_ASSIGN_OR_RETURN(json::Value body, JsonBody(ctx));
    ORRERY_ASSIGN_OR_RETURN(
        json::Value replaced,
        container->ReplaceScript(type, id, std::move(body), ctx.OptionalHeader(headers::kIfMatch)));
    return ResourceResponse(ctx, 200, replaced, throughput::kMetadataWriteCharge);
  }
  if (method == "DELETE") {
    ORRERY_RETURN_IF_ERROR(
        container->DeleteScript(type, id, ctx.OptionalHeader(headers::kIfMatch)));
    return NoContentResponse(ctx, throughput::kMetadataWriteCharge);
  }
  if (method == "POST" && type == engine::ScriptType::kStoredProcedure) {
    ORRERY_ASSIGN_OR_RETURN(json::Value procedure, container->ReadScript(type, id));
    return ExecuteStoredProcedure(ctx, *container, procedure);
  }
  if (method == "POST") {
    return Status::BadRequest("Only stored procedures can be executed; " +
                              std::string(engine::InfoOf(type).noun) +
                              "s run as part of the operations or queries that name them.");
  }
  return Status::MethodNotAllowed(
      "A " + std::string(engine::InfoOf(type).noun) + " supports GET, PUT, DELETE" +
      (type == engine::ScriptType::kStoredProcedure ? " and POST." : "."));
}

}  // namespace orrery::api
