// A container's server-side scripts (script_catalog.h): create, read, replace, delete
// and list of stored procedures, triggers and user-defined functions. Each write is one
// synced store write of the script's record, then the in-memory catalog.

#include "common/encoding.h"
#include "engine/container.h"
#include "engine/etag.h"
#include "engine/item_rules.h"
#include "engine/resource_id.h"
#include "json/json.h"
#include "script/runtime.h"
#include "script/user_function.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

constexpr const char* kNotFound = "Resource Not Found";
constexpr const char* kExists = "Resource with specified id or name already exists.";
constexpr const char* kPreconditionFailed =
    "One of the specified pre-condition is not met. Learn more: "
    "https://aka.ms/CosmosDB/sql/errors/precondition-failed";

std::string ScriptRid(const std::string& container_rid, ScriptType type, uint64_t number) {
  return TypedChildRid(container_rid, InfoOf(type).rid_type, number);
}

// The body of a create or replace, as the service checks it: an id, a body that is
// JavaScript text of one function, and for triggers their type and operation.
Status ValidateScript(ScriptType type, const json::Value& body) {
  ORRERY_RETURN_IF_ERROR(ValidateResourceId(body));
  const json::Value* source = body.Find("body");
  if (source == nullptr || !source->is_string()) {
    return Status::BadRequest(
        "The input content is invalid because the required properties - "
        "'body; ' - are missing");
  }
  if (type == ScriptType::kTrigger) {
    const json::Value* trigger_type = body.Find("triggerType");
    if (trigger_type == nullptr || !trigger_type->is_string() ||
        !ParseTriggerType(trigger_type->as_string())) {
      return Status::BadRequest(
          "The trigger's 'triggerType' must be Pre or Post (the input content is invalid).");
    }
    const json::Value* operation = body.Find("triggerOperation");
    if (operation == nullptr || !operation->is_string() ||
        !ParseTriggerOperation(operation->as_string())) {
      return Status::BadRequest(
          "The trigger's 'triggerOperation' must be All, Create, Replace, Delete or Upsert (the "
          "input content is invalid).");
    }
  }
  if (std::optional<std::string> error = script::CompileError(source->as_string())) {
    return Status::BadRequest("The " + std::string(InfoOf(type).noun) +
                              " does not compile: " + *error);
  }
  return Status::Ok();
}

}  // namespace

Status Container::LoadScripts() const {
  ScriptCatalog& catalog = write_state_->scripts;
  if (catalog.loaded) return Status::Ok();
  std::map<ScriptType, std::map<std::string, json::Value, std::less<>>> loaded;
  Status scanned = store_.Scan(
      storage::keys::ScriptsBegin(settings_.number), storage::keys::ScriptsEnd(settings_.number),
      [&](std::string_view key, std::string_view value) {
        const size_t type_at = storage::keys::ScriptsBegin(settings_.number).size();
        if (key.size() <= type_at) return true;
        for (ScriptType type : {ScriptType::kStoredProcedure, ScriptType::kTrigger,
                                ScriptType::kUserDefinedFunction}) {
          if (key[type_at] != InfoOf(type).key_byte) continue;
          Result<json::Value> resource = json::Parse(value);
          if (resource.ok()) {
            loaded[type].emplace(std::string(key.substr(type_at + 1)), std::move(*resource));
          }
        }
        return true;
      });
  ORRERY_RETURN_IF_ERROR(scanned);
  catalog.scripts = std::move(loaded);
  catalog.loaded = true;
  return Status::Ok();
}

Result<json::Value> Container::CreateScript(ScriptType type, json::Value body, bool upsert) {
  ORRERY_RETURN_IF_ERROR(ValidateScript(type, body));
  const std::string id = body.Find("id")->as_string();
  ScriptCatalog& catalog = write_state_->scripts;
  std::lock_guard lock(catalog.mutex);
  ORRERY_RETURN_IF_ERROR(LoadScripts());
  auto& scripts = catalog.scripts[type];
  auto existing = scripts.find(id);
  if (existing != scripts.end() && !upsert) return Status::Conflict(kExists);
  if (existing == scripts.end() && scripts.size() >= InfoOf(type).limit) {
    return Status::Forbidden("The number of " + std::string(InfoOf(type).noun) +
                             "s in this container has reached its limit of " +
                             std::to_string(InfoOf(type).limit) +
                             " (resource quota exceeded); delete one first.");
  }
  std::string rid;
  if (existing != scripts.end()) {
    rid = existing->second.Find("_rid")->as_string();
  } else {
    ORRERY_ASSIGN_OR_RETURN(uint64_t number, write_state_->item_numbers->Next());
    rid = ScriptRid(settings_.rid, type, number);
  }
  return StoreScript(type, id, rid, std::move(body), catalog);
}

Result<json::Value> Container::StoreScript(ScriptType type, const std::string& id,
                                           const std::string& rid, json::Value body,
                                           ScriptCatalog& catalog) {
  StripSystemProperties(body);
  body.Set("_rid", json::Value::String(rid));
  body.Set("_self", json::Value::String(settings_.self + std::string(InfoOf(type).segment) + "/" +
                                        rid + "/"));
  body.Set("_etag", json::Value::String(NewEtag()));
  body.Set("_ts", json::Value::Int(clock_.NowSeconds()));
  storage::WriteBatch batch;
  batch.Put(storage::keys::Script(settings_.number, InfoOf(type).key_byte, id), json::Write(body));
  ORRERY_RETURN_IF_ERROR(store_.WriteSynced(batch));
  catalog.scripts[type][id] = body;
  if (type == ScriptType::kUserDefinedFunction) catalog.user_functions.reset();
  if (type != ScriptType::kUserDefinedFunction) SerializePartitionWrites();
  return body;
}

Result<json::Value> Container::ReadScript(ScriptType type, std::string_view id) const {
  ScriptCatalog& catalog = write_state_->scripts;
  std::lock_guard lock(catalog.mutex);
  ORRERY_RETURN_IF_ERROR(LoadScripts());
  const auto& scripts = catalog.scripts[type];
  auto it = scripts.find(id);
  if (it == scripts.end()) return Status::NotFound(kNotFound);
  return it->second;
}

Result<const json::Value*> Container::ScriptToChange(
    ScriptType type, std::string_view id, const std::optional<std::string>& if_match) const {
  ORRERY_RETURN_IF_ERROR(LoadScripts());
  auto& scripts = write_state_->scripts.scripts[type];
  auto it = scripts.find(id);
  if (it == scripts.end()) return Status::NotFound(kNotFound);
  if (if_match && *if_match != "*" && *if_match != it->second.Find("_etag")->as_string()) {
    return Status::PreconditionFailed(kPreconditionFailed);
  }
  return &it->second;
}

Result<json::Value> Container::ReplaceScript(ScriptType type, std::string_view id, json::Value body,
                                             std::optional<std::string> if_match) {
  ORRERY_RETURN_IF_ERROR(ValidateScript(type, body));
  if (body.Find("id")->as_string() != id) {
    return Status::BadRequest("The id of the " + std::string(InfoOf(type).noun) +
                              " in the request body does not match the id in the URL.");
  }
  ScriptCatalog& catalog = write_state_->scripts;
  std::lock_guard lock(catalog.mutex);
  ORRERY_ASSIGN_OR_RETURN(const json::Value* current, ScriptToChange(type, id, if_match));
  const std::string rid = current->Find("_rid")->as_string();
  return StoreScript(type, std::string(id), rid, std::move(body), catalog);
}

Status Container::DeleteScript(ScriptType type, std::string_view id,
                               std::optional<std::string> if_match) {
  ScriptCatalog& catalog = write_state_->scripts;
  std::lock_guard lock(catalog.mutex);
  ORRERY_RETURN_IF_ERROR(ScriptToChange(type, id, if_match).status());
  storage::WriteBatch batch;
  batch.Delete(storage::keys::Script(settings_.number, InfoOf(type).key_byte, id));
  ORRERY_RETURN_IF_ERROR(store_.WriteSynced(batch));
  catalog.scripts[type].erase(std::string(id));
  if (type == ScriptType::kUserDefinedFunction) catalog.user_functions.reset();
  return Status::Ok();
}

Result<std::vector<json::Value>> Container::ListScripts(ScriptType type) const {
  ScriptCatalog& catalog = write_state_->scripts;
  std::lock_guard lock(catalog.mutex);
  ORRERY_RETURN_IF_ERROR(LoadScripts());
  // In creation order (by rid), as the service lists them.
  std::vector<std::pair<std::string, json::Value>> by_rid;
  for (const auto& [id, script] : catalog.scripts[type]) {
    by_rid.emplace_back(script.Find("_rid")->as_string(), script);
  }
  std::vector<json::Value> out;
  std::sort(by_rid.begin(), by_rid.end(),
            [](const auto& a, const auto& b) { return RidOrder(a.first) < RidOrder(b.first); });
  for (auto& [rid, script] : by_rid) out.push_back(std::move(script));
  return out;
}

Result<std::optional<std::string>> Container::ScriptIdOfRid(ScriptType type,
                                                            std::string_view rid) const {
  ScriptCatalog& catalog = write_state_->scripts;
  std::lock_guard lock(catalog.mutex);
  ORRERY_RETURN_IF_ERROR(LoadScripts());
  for (const auto& [id, script] : catalog.scripts[type]) {
    if (script.Find("_rid")->as_string() == rid) return std::optional<std::string>(id);
  }
  return std::optional<std::string>();
}

Result<std::shared_ptr<const query::UserFunctions>> Container::UserFunctionsForQueries() const {
  ScriptCatalog& catalog = write_state_->scripts;
  std::lock_guard lock(catalog.mutex);
  ORRERY_RETURN_IF_ERROR(LoadScripts());
  if (!catalog.user_functions) {
    auto functions = std::make_shared<query::UserFunctions>();
    for (const auto& [id, udf] : catalog.scripts[ScriptType::kUserDefinedFunction]) {
      functions->emplace(id,
                         std::make_shared<script::UserFunction>(id, udf.Find("body")->as_string()));
    }
    catalog.user_functions = std::move(functions);
  }
  return catalog.user_functions;
}

size_t Container::ScriptCount(ScriptType type) const {
  ScriptCatalog& catalog = write_state_->scripts;
  std::lock_guard lock(catalog.mutex);
  if (!LoadScripts().ok()) return 0;
  return catalog.scripts[type].size();
}

}  // namespace orrery::engine
