#include "cli/rest_call.h"

#include <cctype>

#include "api/auth.h"
#include "common/encoding.h"
#include "http/client.h"
#include "json/json.h"

namespace orrery::cli {
namespace {

bool SameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

Result<http::Response> SendRaw(const Connection& connection, const RestCall& call) {
  const std::string key = connection.key.empty() ? api::kEmulatorMasterKey : connection.key;
  if (!Base64Decode(key)) return Status::BadRequest("--key must be base64");
  std::string endpoint = connection.endpoint;
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  http::ClientRequest request;
  request.url = endpoint + "/" + call.path;
  request.timeout = std::chrono::milliseconds(60000);
  const std::string date = api::Rfc1123Now();
  request.request.method = call.method;
  request.request.headers = {
      {"x-ms-date", date},
      {"x-ms-version", "2020-07-15"},
      {"authorization",
       api::MasterKeyAuthorization(
           key, api::SignaturePayload(call.method, call.resource_type, call.resource_link, date))},
      {"accept", "application/json"}};
  bool typed = false;
  for (const http::Header& h : call.headers) {
    typed = typed || SameName(h.name, "content-type");
    request.request.headers.push_back(h);
  }
  if (!call.body.empty()) {
    if (!typed) request.request.headers.push_back({"content-type", "application/json"});
    request.request.body = call.body;
  }
  return http::Fetch(request);
}

Result<http::Response> Send(const Connection& connection, const RestCall& call) {
  ORRERY_ASSIGN_OR_RETURN(http::Response response, SendRaw(connection, call));
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

RestCall QueryPageCall(const std::string& container_link, const std::string& container_path,
                       const std::string& query, const std::string& continuation) {
  RestCall call{"POST",
                "docs",
                container_link,
                container_path + "/docs",
                json::Write(json::Value::MakeObject({{"query", json::Value::String(query)},
                                                     {"parameters", json::Value::MakeArray({})}})),
                {{"x-ms-documentdb-isquery", "True"},
                 {"content-type", "application/query+json"},
                 {"x-ms-documentdb-query-enablecrosspartition", "True"},
                 {"x-ms-max-item-count", "1000"}}};
  if (!continuation.empty()) call.headers.push_back({"x-ms-continuation", continuation});
  return call;
}

std::string HeaderOf(const http::Response& response, std::string_view name) {
  for (const http::Header& h : response.headers) {
    if (SameName(h.name, name)) return h.value;
  }
  return "";
}

}  // namespace orrery::cli
