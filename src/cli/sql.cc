#include "cli/sql.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>

#include "api/auth.h"
#include "common/encoding.h"
#include "http/client.h"
#include "json/json.h"

namespace orrery::cli {
namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "orrery sql: %s\n", message.c_str());
  return 1;
}

struct Call {
  std::string method;
  std::string resource_type;  // "dbs", "colls"
  std::string resource_link;  // what the signature covers: "dbs/a" or "" for the feed
  std::string path;           // under the endpoint, percent-encoded
  std::string body;
  std::vector<http::Header> headers;
};

// The call, signed with the master key; the response, or the service's message.
Result<http::Response> Send(const SqlOptions& options, const Call& call) {
  const std::string key = options.key.empty() ? api::kEmulatorMasterKey : options.key;
  if (!Base64Decode(key)) return Status::BadRequest("--key must be base64");
  std::string endpoint = options.endpoint;
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  http::ClientRequest request;
  request.url = endpoint + "/" + call.path;
  const std::string date = api::Rfc1123Now();
  request.request.method = call.method;
  request.request.headers = {
      {"x-ms-date", date},
      {"x-ms-version", "2020-07-15"},
      {"authorization",
       api::MasterKeyAuthorization(
           key, api::SignaturePayload(call.method, call.resource_type, call.resource_link, date))},
      {"accept", "application/json"}};
  for (const http::Header& h : call.headers) request.request.headers.push_back(h);
  if (!call.body.empty()) {
    request.request.headers.push_back({"content-type", "application/json"});
    request.request.body = call.body;
  }
  ORRERY_ASSIGN_OR_RETURN(http::Response response, http::Fetch(request));
  if (response.status >= 400) {
    std::string message = response.body;
    if (Result<json::Value> error = json::Parse(response.body); error.ok()) {
      if (const json::Value* m = error->Find("message"); m != nullptr && m->is_string()) {
        message = m->as_string();
      }
    }
    return Status::BadRequest("(" + std::to_string(response.status) + ") " + message);
  }
  return response;
}

// Prints a resource (or a feed's list of them) as indented JSON.
int PrintJson(const std::string& body, const char* list_member = nullptr) {
  Result<json::Value> value = json::Parse(body);
  if (!value.ok()) return Fail("the server's answer is not JSON");
  const json::Value* shown = &*value;
  if (list_member != nullptr) {
    shown = value->Find(list_member);
    if (shown == nullptr) return Fail("the server's answer has no " + std::string(list_member));
  }
  std::printf("%s\n", json::Write(*shown).c_str());
  return 0;
}

// As the Azure CLI: on a terminal, asks; otherwise --yes must say so.
bool Confirmed(const SqlOptions& options, const std::string& what) {
  if (options.yes) return true;
  if (!isatty(STDIN_FILENO)) {
    std::fprintf(stderr,
                 "orrery sql: deleting %s needs confirmation: pass --yes (no terminal to ask)\n",
                 what.c_str());
    return false;
  }
  std::fprintf(stderr, "Are you sure you want to delete %s? (y/n): ", what.c_str());
  std::string answer;
  std::getline(std::cin, answer);
  return answer == "y" || answer == "Y" || answer == "yes";
}

std::string DbPath(const SqlOptions& o) { return "dbs/" + PercentEncode(o.database); }

Result<std::string> IndexingPolicyText(const std::string& argument) {
  if (argument.empty() || argument[0] != '@') return argument;
  std::ifstream in(argument.substr(1));
  if (!in) return Status::BadRequest("cannot read " + argument.substr(1));
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The body and headers of a container create.
Result<Call> ContainerCreate(const SqlOptions& o) {
  if (o.partition_key_paths.empty()) {
    return Status::BadRequest("--partition-key-path is required (e.g. \"/tenantId\")");
  }
  json::Array paths;
  for (size_t from = 0; from <= o.partition_key_paths.size();) {
    size_t comma = o.partition_key_paths.find(',', from);
    if (comma == std::string::npos) comma = o.partition_key_paths.size();
    paths.push_back(json::Value::String(o.partition_key_paths.substr(from, comma - from)));
    from = comma + 1;
  }
  const bool hierarchical = paths.size() > 1;
  json::Value body = json::Value::MakeObject({
      {"id", json::Value::String(o.name)},
      {"partitionKey", json::Value::MakeObject({
                           {"paths", json::Value::MakeArray(std::move(paths))},
                           {"kind", json::Value::String(hierarchical ? "MultiHash" : "Hash")},
                           {"version", json::Value::Int(2)},
                       })},
  });
  if (o.ttl) body.Set("defaultTtl", json::Value::Int(*o.ttl));
  if (!o.indexing_policy.empty()) {
    ORRERY_ASSIGN_OR_RETURN(std::string text, IndexingPolicyText(o.indexing_policy));
    Result<json::Value> policy = json::Parse(text);
    if (!policy.ok()) return Status::BadRequest("--idx is not JSON: " + policy.status().message());
    body.Set("indexingPolicy", std::move(*policy));
  }
  Call call{"POST", "colls", DbPath(o), DbPath(o) + "/colls", json::Write(body), {}};
  if (o.throughput && o.max_throughput) {
    return Status::BadRequest(
        "give --throughput (manual) or --max-throughput (autoscale), not both");
  }
  if (o.throughput)
    call.headers.push_back({"x-ms-offer-throughput", std::to_string(*o.throughput)});
  if (o.max_throughput) {
    call.headers.push_back({"x-ms-cosmos-offer-autopilot-settings",
                            "{\"maxThroughput\":" + std::to_string(*o.max_throughput) + "}"});
  }
  return call;
}

Result<Call> CallFor(SqlVerb verb, const SqlOptions& o) {
  const std::string db = DbPath(o);
  const std::string coll = db + "/colls/" + PercentEncode(o.name);
  const std::string db_link = "dbs/" + o.database;
  const std::string coll_link = db_link + "/colls/" + o.name;
  switch (verb) {
    case SqlVerb::kDatabaseCreate: {
      Call call{"POST",
                "dbs",
                "",
                "dbs",
                json::Write(json::Value::MakeObject({{"id", json::Value::String(o.database)}})),
                {}};
      if (o.throughput) {
        call.headers.push_back({"x-ms-offer-throughput", std::to_string(*o.throughput)});
      }
      if (o.max_throughput) {
        call.headers.push_back({"x-ms-cosmos-offer-autopilot-settings",
                                "{\"maxThroughput\":" + std::to_string(*o.max_throughput) + "}"});
      }
      return call;
    }
    case SqlVerb::kDatabaseList:
      return Call{"GET", "dbs", "", "dbs", "", {}};
    case SqlVerb::kDatabaseShow:
      return Call{"GET", "dbs", db_link, db, "", {}};
    case SqlVerb::kDatabaseDelete:
      return Call{"DELETE", "dbs", db_link, db, "", {}};
    case SqlVerb::kContainerCreate:
      return ContainerCreate(o);
    case SqlVerb::kContainerList:
      return Call{"GET", "colls", db_link, db + "/colls", "", {}};
    case SqlVerb::kContainerShow:
      return Call{"GET", "colls", coll_link, coll, "", {}};
    case SqlVerb::kContainerDelete:
      return Call{"DELETE", "colls", coll_link, coll, "", {}};
  }
  return Status::Internal("unknown verb");
}

}  // namespace

int RunSql(SqlVerb verb, const SqlOptions& options) {
  if (verb != SqlVerb::kDatabaseList && options.database.empty()) {
    return Fail("the database's name is required");
  }
  const bool container = verb == SqlVerb::kContainerCreate || verb == SqlVerb::kContainerShow ||
                         verb == SqlVerb::kContainerDelete;
  if (container && options.name.empty()) return Fail("--name is required");
  if (verb == SqlVerb::kDatabaseDelete &&
      !Confirmed(options, "database '" + options.database + "'")) {
    return 1;
  }
  if (verb == SqlVerb::kContainerDelete &&
      !Confirmed(options,
                 "container '" + options.name + "' of database '" + options.database + "'")) {
    return 1;
  }
  Result<Call> call = CallFor(verb, options);
  if (!call.ok()) return Fail(call.status().message());
  Result<http::Response> response = Send(options, *call);
  if (!response.ok()) return Fail(response.status().message());
  switch (verb) {
    case SqlVerb::kDatabaseDelete:
    case SqlVerb::kContainerDelete:
      return 0;
    case SqlVerb::kDatabaseList:
      return PrintJson(response->body, "Databases");
    case SqlVerb::kContainerList:
      return PrintJson(response->body, "DocumentCollections");
    default:
      return PrintJson(response->body);
  }
}

}  // namespace orrery::cli
