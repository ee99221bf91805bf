#include "engine/script_execution.h"

#include <chrono>

#include "engine/query_work.h"
#include "engine/throughput/cost_model.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

constexpr const char* kNotFound = "Resource Not Found";

// Operations are accepted until this share of the time limit has passed: the script
// then has the rest to report its progress (the documented bulk patterns return their
// count when an operation is not accepted).
constexpr double kAcceptedShareOfTime = 0.8;

std::string Reply(int status, std::string_view body_json = {},
                  const std::optional<std::string>& continuation = std::nullopt) {
  std::string out = "{\"s\":" + std::to_string(status);
  if (!body_json.empty()) {
    out += ",\"b\":";
    out += body_json;
  }
  if (continuation) {
    out += ",\"c\":";
    json::AppendQuoted(out, *continuation);
  }
  return out + "}";
}

std::string ErrorReply(const Status& status) {
  std::string out = "{\"s\":" + std::to_string(HttpStatusOf(status.code())) +
                    ",\"ss\":" + std::to_string(status.substatus()) + ",\"m\":";
  json::AppendQuoted(out, status.message());
  return out + "}";
}

std::string PageReply(const FeedPage& page) {
  std::string body = "[";
  for (size_t i = 0; i < page.documents.size(); ++i) {
    if (i > 0) body += ',';
    body += page.documents[i];
  }
  body += ']';
  return Reply(200, body, page.continuation);
}

std::string StringMember(const json::Value& request, const char* name) {
  const json::Value* v = request.Find(name);
  return v != nullptr && v->is_string() ? v->as_string() : std::string();
}

std::optional<std::string> OptionalMember(const json::Value& request, const char* name) {
  const json::Value* v = request.Find(name);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return v->as_string();
}

// What the script's data operations do, in its transaction.
class TransactionHost final : public script::ScriptHost {
 public:
  TransactionHost(Container::Transaction& transaction,
                  std::chrono::steady_clock::time_point accept_until)
      : transaction_(transaction), accept_until_(accept_until) {}

  std::string Call(std::string_view operation, std::string_view request_text) override {
    if (std::chrono::steady_clock::now() >= accept_until_) return R"({"na":true})";
    Result<json::Value> request = json::Parse(request_text);
    if (!request.ok()) return ErrorReply(request.status());
    ++operations_;
    Result<std::string> reply = Perform(operation, *request);
    return reply.ok() ? *reply : ErrorReply(reply.status());
  }

  double charge() const { return charge_; }
  size_t operations() const { return operations_; }
  const std::string& pkrange_id() const { return pkrange_id_; }
  uint64_t lsn() const { return lsn_; }

 private:
  Result<std::string> Perform(std::string_view operation, const json::Value& request) {
    if (operation == "read") return ReadItem(request);
    if (operation == "create" || operation == "upsert" || operation == "replace") {
      return WriteItem(operation, request);
    }
    if (operation == "delete") return DeleteItem(request);
    if (operation == "readFeed" || operation == "query") return ReadPage(operation, request);
    return Status::BadRequest("Unknown script operation '" + std::string(operation) + "'.");
  }

  // The item's id, from its link's last segment (an id, or a rid).
  Result<std::string> IdOf(const json::Value& request) {
    std::string id = StringMember(request, "id");
    const json::Value* by_rid = request.Find("byRid");
    if (by_rid == nullptr || !by_rid->is_bool() || !by_rid->as_bool()) return id;
    ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> named, transaction_.IdOfRid(id));
    if (!named) return Status::NotFound(kNotFound);
    return *named;
  }

  Result<std::string> ReadItem(const json::Value& request) {
    ORRERY_ASSIGN_OR_RETURN(std::string id, IdOf(request));
    const std::optional<std::string> if_none_match = OptionalMember(request, "ifNoneMatch");
    Result<Container::ReadResult> read = transaction_.Read(
        id, if_none_match ? std::optional<std::string_view>(*if_none_match) : std::nullopt);
    if (!read.ok()) {
      charge_ += throughput::kRejectedCharge;
      if (read.status().IsNotFound()) return Status::NotFound(kNotFound);
      return read.status();
    }
    charge_ += throughput::PointReadCharge(read->item.bytes);
    if (read->not_modified) return Reply(304);
    return Reply(200, read->item.json);
  }

  Result<std::string> WriteItem(std::string_view operation, const json::Value& request) {
    ItemWriteRequest write;
    write.kind = operation == "create"   ? WriteKind::kCreate
                 : operation == "upsert" ? WriteKind::kUpsert
                                         : WriteKind::kReplace;
    const std::string body = StringMember(request, "body");
    write.body = body;
    std::string id;
    if (write.kind == WriteKind::kReplace) {
      ORRERY_ASSIGN_OR_RETURN(id, IdOf(request));
      write.url_id = id;
    }
    write.if_match = OptionalMember(request, "etag");
    const std::string index_action = StringMember(request, "indexAction");
    if (index_action == "include") write.indexing_directive = true;
    if (index_action == "exclude") write.indexing_directive = false;
    const WriteKind kind = write.kind;
    ORRERY_ASSIGN_OR_RETURN(ItemResult result, transaction_.Write(std::move(write)));
    const bool created = kind == WriteKind::kCreate || result.created;
    charge_ += created ? throughput::CreateCharge(result.bytes, result.index)
                       : throughput::ReplaceCharge(result.bytes, result.index);
    Wrote(result);
    return Reply(created ? 201 : 200, result.json);
  }

  Result<std::string> DeleteItem(const json::Value& request) {
    ORRERY_ASSIGN_OR_RETURN(std::string id, IdOf(request));
    const std::optional<std::string> if_match = OptionalMember(request, "etag");
    Result<ItemResult> deleted = transaction_.Delete(
        id, if_match ? std::optional<std::string_view>(*if_match) : std::nullopt);
    if (!deleted.ok()) {
      if (deleted.status().IsNotFound()) return Status::NotFound(kNotFound);
      return deleted.status();
    }
    charge_ += throughput::DeleteCharge(deleted->bytes, deleted->index);
    Wrote(*deleted);
    return Reply(204);
  }

  Result<std::string> ReadPage(std::string_view operation, const json::Value& request) {
    int page_size = 100;
    if (const json::Value* size = request.Find("pageSize"); size != nullptr && size->is_number()) {
      const double requested = size->as_double();
      page_size = requested < 1 ? 100 : requested > 1000 ? 1000 : static_cast<int>(requested);
    }
    const std::string continuation = StringMember(request, "continuation");
    FeedPage page;
    if (operation == "readFeed") {
      ORRERY_ASSIGN_OR_RETURN(page, transaction_.ReadFeed(page_size, continuation));
      charge_ += FeedPageCharge(page, throughput::kMetadataReadCharge);
    } else {
      std::vector<query::Parameter> parameters;
      if (const json::Value* list = request.Find("parameters");
          list != nullptr && list->is_array()) {
        for (const json::Value& p : list->as_array()) {
          const json::Value* name = p.Find("name");
          const json::Value* value = p.Find("value");
          if (name == nullptr || !name->is_string()) continue;
          parameters.push_back({name->as_string(), value ? *value : json::Value()});
        }
      }
      const Container& container = transaction_.container();
      ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<const query::UserFunctions> udfs,
                              container.UserFunctionsForQueries());
      ORRERY_ASSIGN_OR_RETURN(
          std::unique_ptr<query::CompiledQuery> query,
          query::Compile(StringMember(request, "query"), std::move(parameters),
                         container.computed_properties(), &container.vector_policy(),
                         &container.full_text_policy(), container.coordinate_system(), udfs.get()));
      ORRERY_ASSIGN_OR_RETURN(page, transaction_.Query(*query, page_size, continuation));
      charge_ += FeedPageCharge(page, throughput::kQueryBaseCharge);
    }
    return PageReply(page);
  }

  void Wrote(const ItemResult& result) {
    pkrange_id_ = result.pkrange_id;
    lsn_ = std::max(lsn_, result.lsn);
  }

  Container::Transaction& transaction_;
  const std::chrono::steady_clock::time_point accept_until_;
  double charge_ = 0;
  size_t operations_ = 0;
  std::string pkrange_id_;
  uint64_t lsn_ = 0;
};

json::Value ScriptFacts(const Container& container, std::string_view kind,
                        const std::string& alt_link, bool logging) {
  json::Value facts = json::Value::MakeObject({
      {"kind", json::Value::String(std::string(kind))},
      {"selfLink", json::Value::String(container.settings().self)},
      {"altLink", json::Value::String(alt_link)},
      {"logging", json::Value::Bool(logging)},
  });
  std::vector<json::Value> paths;
  for (const std::string& path : container.settings().partition_key.paths) {
    paths.push_back(json::Value::String(path));
  }
  facts.Set("partitionKeyPaths", json::Value::MakeArray(std::move(paths)));
  return facts;
}

std::chrono::steady_clock::time_point AcceptUntil(const script::Invocation& invocation) {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(invocation.time_limit *
                                                                         kAcceptedShareOfTime);
}

const char* OperationTypeName(TriggeredOperation::Kind kind) {
  switch (kind) {
    case TriggeredOperation::Kind::kCreate:
      return "Create";
    case TriggeredOperation::Kind::kUpsert:
      return "Upsert";
    case TriggeredOperation::Kind::kReplace:
      return "Replace";
    case TriggeredOperation::Kind::kDelete:
      return "Delete";
  }
  return "Create";
}

// Whether a trigger registered for `registered` runs for `kind` (a create trigger does
// not run for a replace, as the service's documentation shows).
bool RunsFor(TriggerOperation registered, TriggeredOperation::Kind kind) {
  using Kind = TriggeredOperation::Kind;
  switch (registered) {
    case TriggerOperation::kAll:
      return true;
    case TriggerOperation::kCreate:
      return kind == Kind::kCreate;
    case TriggerOperation::kUpsert:
      return kind == Kind::kUpsert;
    case TriggerOperation::kReplace:
      return kind == Kind::kReplace;
    case TriggerOperation::kUpdate:
      return kind == Kind::kReplace || kind == Kind::kUpsert;
    case TriggerOperation::kDelete:
      return kind == Kind::kDelete;
  }
  return false;
}

Status CheckTrigger(const json::Value& trigger, TriggerType expected,
                    TriggeredOperation::Kind kind) {
  const std::string& id = trigger.Find("id")->as_string();
  const json::Value* type = trigger.Find("triggerType");
  const json::Value* operation = trigger.Find("triggerOperation");
  const std::optional<TriggerType> parsed_type =
      type != nullptr && type->is_string() ? ParseTriggerType(type->as_string()) : std::nullopt;
  const bool pre = expected == TriggerType::kPre;
  if (parsed_type != expected) {
    return Status::BadRequest("The trigger '" + id + "' is a " + (pre ? "post" : "pre") +
                              "-trigger; it cannot be named as a " + (pre ? "pre" : "post") +
                              "-trigger.");
  }
  const std::optional<TriggerOperation> parsed_operation =
      operation != nullptr && operation->is_string() ? ParseTriggerOperation(operation->as_string())
                                                     : std::nullopt;
  if (!parsed_operation || !RunsFor(*parsed_operation, kind)) {
    const std::string registered =
        operation != nullptr && operation->is_string() ? operation->as_string() : "no";
    return Status::BadRequest("The trigger '" + id + "' is registered for " + registered +
                              " operations; it cannot run for a " + OperationTypeName(kind) +
                              " operation.");
  }
  return Status::Ok();
}

double ScriptRunCharge(const script::Outcome& outcome) {
  return throughput::kScriptBaseCharge + throughput::kScriptChargePerCpuMillisecond *
                                             static_cast<double>(outcome.cpu_time.count()) / 1000.0;
}

}  // namespace

Result<ScriptRun> ExecuteStoredProcedure(Container& container, const StoredProcedureCall& call) {
  ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<Container::Transaction> transaction,
                          container.BeginTransaction(call.partition_key));
  script::Invocation invocation;
  invocation.kind = script::ScriptKind::kStoredProcedure;
  invocation.body = call.body;
  invocation.arguments = call.arguments;
  invocation.facts = json::Write(ScriptFacts(container, "sproc", call.alt_link, call.logging));
  TransactionHost host(*transaction, AcceptUntil(invocation));
  ScriptRun run;
  run.outcome = script::Execute(invocation, host);
  run.operations_charge = host.charge();
  run.charge = ScriptRunCharge(run.outcome) + host.charge();
  run.operations = host.operations();
  if (run.outcome.kind != script::Outcome::Kind::kCompleted) return run;
  ORRERY_RETURN_IF_ERROR(transaction->Commit());
  run.pkrange_id = host.pkrange_id();
  run.lsn = host.lsn();
  return run;
}

Result<TriggeredRun> ExecuteTriggered(Container& container, const TriggeredOperation& operation) {
  using Kind = TriggeredOperation::Kind;
  if (operation.pre_trigger != nullptr) {
    ORRERY_RETURN_IF_ERROR(CheckTrigger(*operation.pre_trigger, TriggerType::kPre, operation.kind));
  }
  if (operation.post_trigger != nullptr) {
    ORRERY_RETURN_IF_ERROR(
        CheckTrigger(*operation.post_trigger, TriggerType::kPost, operation.kind));
  }
  json::Value request_body;  // null for a delete
  if (operation.kind != Kind::kDelete) {
    ORRERY_ASSIGN_OR_RETURN(request_body, json::Parse(operation.body));
  }
  ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<Container::Transaction> transaction,
                          container.BeginTransaction(operation.partition_key));
  TriggeredRun run;
  const auto run_trigger = [&](const json::Value& trigger, std::string_view kind,
                               const json::Value* response_body) {
    script::Invocation invocation;
    invocation.kind =
        kind == "pre" ? script::ScriptKind::kPreTrigger : script::ScriptKind::kPostTrigger;
    invocation.body = trigger.Find("body")->as_string();
    json::Value facts = ScriptFacts(container, kind, operation.alt_link, false);
    facts.Set("requestBody", request_body);
    facts.Set("operationType", json::Value::String(OperationTypeName(operation.kind)));
    if (response_body != nullptr) facts.Set("responseBody", *response_body);
    invocation.facts = json::Write(facts);
    TransactionHost host(*transaction, AcceptUntil(invocation));
    script::Outcome outcome = script::Execute(invocation, host);
    run.triggers_charge += ScriptRunCharge(outcome) + host.charge();
    return outcome;
  };

  std::string body = operation.body;
  if (operation.pre_trigger != nullptr) {
    script::Outcome pre = run_trigger(*operation.pre_trigger, "pre", nullptr);
    if (pre.kind != script::Outcome::Kind::kCompleted) {
      run.failed = std::move(pre);
      return run;
    }
    // The item as the pre-trigger left it (setBody) is what is written.
    if (operation.kind != Kind::kDelete && !pre.request_body.empty()) {
      body = pre.request_body;
      ORRERY_ASSIGN_OR_RETURN(request_body, json::Parse(body));
    }
  }
  if (operation.kind == Kind::kDelete) {
    const std::optional<std::string_view> if_match =
        operation.if_match ? std::optional<std::string_view>(*operation.if_match) : std::nullopt;
    ORRERY_ASSIGN_OR_RETURN(run.item, transaction->Delete(operation.id, if_match));
  } else {
    ItemWriteRequest write;
    write.kind = operation.kind == Kind::kCreate   ? WriteKind::kCreate
                 : operation.kind == Kind::kUpsert ? WriteKind::kUpsert
                                                   : WriteKind::kReplace;
    write.body = body;
    write.url_id = operation.id;
    write.if_match = operation.if_match;
    write.indexing_directive = operation.indexing_directive;
    ORRERY_ASSIGN_OR_RETURN(run.item, transaction->Write(std::move(write)));
  }
  if (operation.post_trigger != nullptr) {
    std::optional<json::Value> written;
    if (!run.item.json.empty()) {
      Result<json::Value> parsed = json::Parse(run.item.json);
      if (parsed.ok()) written = std::move(*parsed);
    }
    script::Outcome post =
        run_trigger(*operation.post_trigger, "post", written ? &*written : nullptr);
    if (post.kind != script::Outcome::Kind::kCompleted) {
      run.failed = std::move(post);
      return run;
    }
  }
  ORRERY_RETURN_IF_ERROR(transaction->Commit());
  return run;
}

Status StatusOfFailedScript(const script::Outcome& outcome) {
  using Kind = script::Outcome::Kind;
  switch (outcome.kind) {
    case Kind::kTimedOut:
      return Status::RequestTimeout(
          "The requested operation exceeded maximum alloted time. Learn more: "
          "https://aka.ms/cosmosdb-tsg-service-request-timeout");
    case Kind::kOutOfMemory:
      return Status::BadRequest(
          "Encountered exception while executing function. Exception = The script ran out of "
          "memory: it allocated more than a script may hold. Nothing it wrote was kept.");
    case Kind::kNotAScript:
      return Status::BadRequest("The script could not be run: " + outcome.message);
    case Kind::kFailed:
      return Status::BadRequest(outcome.message, outcome.number);
    case Kind::kCompleted:
      break;
  }
  return Status::Ok();
}

}  // namespace orrery::engine
