#include "api/service.h"

#include <chrono>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "api/data_plane.h"
#include "api/error_mapping.h"
#include "api/feed.h"
#include "api/handlers.h"
#include "api/headers.h"
#include "api/numeric_headers.h"
#include "api/request_class.h"
#include "api/rid_path.h"
#include "api/singleton_headers.h"
#include "common/crypto.h"
#include "common/encoding.h"
#include "common/log.h"
#include "engine/script_catalog.h"
#include "engine/throughput/cost_model.h"

namespace orrery::api {
namespace {

bool IsWrite(const http::Request& request, const RequestContext& ctx) {
  if (request.method == "GET" || request.method == "HEAD") return false;
  if (request.method == "POST") {
    // Queries and query plans are reads even though they are POSTs.
    return !(IsQueryRequest(ctx) || ctx.HeaderIsTrue(headers::kIsQueryPlanRequest));
  }
  return true;
}

// The service's resources Orrery does not serve yet, by the path segment naming them.
const char* UnsupportedFeature(std::string_view segment) {
  static constexpr std::pair<std::string_view, const char*> kFeatures[] = {
      {"users", "Users"},
      {"permissions", "Permissions"},
      {"conflicts", "Conflicts"},
      {"attachments", "Attachments"},
      {"clientencryptionkeys", "Client encryption keys"},
  };
  for (const auto& [name, feature] : kFeatures) {
    if (segment == name) return feature;
  }
  return nullptr;
}

// A path under an existing kind of parent whose resource type Orrery lacks: say so, rather
// than that the resource does not exist (which would send a user looking for it).
std::optional<Status> NotSupportedYet(const ResourcePath& path) {
  const auto& s = path.segments;
  // dbs/{db}/users[/{user}[/permissions[/{p}]]], dbs/{db}/colls/{c}/conflicts[/{id}],
  // dbs/{db}/colls/{c}/docs/{id}/attachments[/{id}]
  const bool under_database = s.size() >= 3 && s.size() <= 6 && s[2] != "colls";
  const bool under_container = s.size() >= 5 && s.size() <= 6 && s[2] == "colls" && s[4] != "docs";
  const bool under_item = s.size() >= 7 && s.size() <= 8 && s[2] == "colls" && s[4] == "docs";
  const std::string* segment = under_database    ? &s[2]
                               : under_container ? &s[4]
                               : under_item      ? &s[6]
                                                 : nullptr;
  if (segment == nullptr) return std::nullopt;
  const char* feature = UnsupportedFeature(*segment);
  if (feature == nullptr) return std::nullopt;
  return Status::BadRequest(std::string(feature) +
                            " are not supported by Orrery yet: the request to '" + *segment +
                            "' was not carried out.");
}

Status UnknownPath(const ResourcePath& path, const http::Request& request) {
  return Status::NotFound("The resource path '" +
                          request.target.substr(0, request.target.find('?')) + "' (type '" +
                          path.resource_type + "') is not a resource this account serves.");
}

// A direct-mode client's address resolution (GET /addresses/?$resolveFor=...): it asks
// for the replicas' rntbd:// addresses, which Orrery has not: it serves gateway mode
// only. Answered before authentication (the SDKs sign it as a read of the container's
// documents), with a 400 the SDKs neither retry nor hide, saying what to change.
bool IsAddressResolution(const ResourcePath& path) {
  return !path.segments.empty() && path.segments[0] == "addresses";
}

Status GatewayModeOnly() {
  return Status::BadRequest(
      "Orrery serves gateway mode only: it has no replica addresses for a direct-mode "
      "client (this was the client's address resolution, GET /addresses). Configure the "
      "client for gateway mode: Java: call .gatewayMode() on CosmosClientBuilder; .NET: "
      "set CosmosClientOptions.ConnectionMode = ConnectionMode.Gateway.");
}

// GET /metrics (a Prometheus scrape), with or without a query string.
bool IsMetricsScrape(const http::Request& request) {
  return request.method == "GET" &&
         std::string_view(request.target).substr(0, request.target.find('?')) == "/metrics";
}

// GET /_explorer/emulator.pem, where the emulator serves its certificate.
bool IsCertificateRequest(const http::Request& request) {
  return request.method == "GET" &&
         std::string_view(request.target).substr(0, request.target.find('?')) ==
             "/_explorer/emulator.pem";
}

double ChargeOf(const http::Response& response) {
  for (const http::Header& h : response.headers) {
    if (h.name == headers::kRequestCharge) return std::strtod(h.value.c_str(), nullptr);
  }
  return 0;
}

}  // namespace

bool RequestContext::HeaderIsTrue(std::string_view lowercase_name) const {
  const std::string* v = Header(lowercase_name);
  return v != nullptr && EqualsIgnoreCase(*v, "true");
}

Service::Service(engine::Account& account, Authenticator authenticator, ServiceOptions options)
    : account_(account), authenticator_(std::move(authenticator)), options_(std::move(options)) {}

std::string Service::AdvertisedUrl(const http::Request& request) const {
  if (!options_.advertised_url.empty()) return options_.advertised_url;
  const std::string* host = request.FindHeader(headers::kHost);
  return std::string(request.tls ? "https://" : "http://") + (host ? *host : "localhost:8081") +
         "/";
}

http::Response Service::Handle(const http::Request& request) const {
  const auto started = std::chrono::steady_clock::now();
  if (IsCertificateRequest(request)) return CertificateResponse();
  if (ExplorerAssets::Serves(request.target)) return options_.explorer->Respond(request);
  if (IsMetricsScrape(request)) {
    http::Response response;
    response.headers.push_back({headers::kContentType, "text/plain; version=0.0.4; charset=utf-8"});
    response.body = metrics_->Render(account_);
    return response;
  }
  http::Response response = Serve(request);
  metrics_->Record(
      RequestMetrics::Classify(request), response.status, ChargeOf(response),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return response;
}

void Service::SetCertificatePem(std::string pem) {
  const std::lock_guard lock(certificate_->mutex);
  certificate_->pem = std::move(pem);
}

http::Response Service::CertificateResponse() const {
  http::Response response;
  {
    const std::lock_guard lock(certificate_->mutex);
    response.body = certificate_->pem;
  }
  if (response.body.empty()) {
    response.status = 404;
    response.headers.push_back({headers::kContentType, "text/plain; charset=utf-8"});
    response.body =
        "This server has no TLS certificate to give (it serves plain HTTP: --no-tls).\n";
    return response;
  }
  response.headers.push_back({headers::kContentType, "application/x-pem-file"});
  return response;
}

http::Response Service::Serve(const http::Request& request) const {
  const std::string activity_id = RandomGuid();
  // The request URI appears only in error messages.
  auto uri = [&request] { return request.target.substr(0, request.target.find('?')); };
  Result<ResourcePath> path = ParseResourcePath(request.target);
  if (!path.ok()) {
    return ErrorResponse(path.status(), activity_id, uri(), 0);
  }
  // Before authentication, which reads authorization and x-ms-date: with two of either
  // there is no one request to authenticate.
  if (Status once = CheckSingletonHeaders(request); !once.ok()) {
    return ErrorResponse(once, activity_id, uri(), 0);
  }
  if (IsAddressResolution(*path)) {
    return ErrorResponse(GatewayModeOnly(), activity_id, uri(), 0);
  }
  // A rid-based path is served by names; its signature covers the rid.
  std::optional<RidPath> rid_path = ResolveRidPath(account_, *path);
  // A copy of the path only for rid-based requests: a name-based one signs its own.
  std::optional<ResourcePath> rid_signed_path;
  if (rid_path) {
    rid_signed_path = *path;
    rid_signed_path->resource_link = rid_path->signed_link;
    path = std::move(rid_path->named);
  }
  Result<Access> access =
      authenticator_.Authenticate(request, rid_signed_path ? *rid_signed_path : *path);
  if (!access.ok()) {
    return ErrorResponse(access.status(), activity_id, uri(), 0);
  }
  if (rid_path && rid_path->item_missing) {
    return ErrorResponse(
        Status::NotFound("Entity with the specified id does not exist in the system."), activity_id,
        uri(), 0);
  }
  // Every numeric header, whether or not this operation reads it: a malformed one is
  // refused before anything runs or is stored.
  if (Status numbers = CheckNumericHeaders(request); !numbers.ok()) {
    return ErrorResponse(numbers, activity_id, uri(), 0);
  }
  Result<throughput::RequestClass> request_class = RequestClassOf(request);
  if (!request_class.ok()) {
    return ErrorResponse(request_class.status(), activity_id, uri(), 0);
  }
  try {
    HandlerResult result = Dispatch(request, *path, activity_id, *access, *request_class);
    if (result.ok()) {
      return std::move(result).value();
    }
    if (result.status().code() == StatusCode::kInternal ||
        result.status().code() == StatusCode::kIoError ||
        result.status().code() == StatusCode::kCorruption) {
      Log(LogLevel::kError, "activity " + activity_id + ": " + result.status().ToString());
    }
    return ErrorResponse(result.status(), activity_id, uri(), throughput::kRejectedCharge);
  } catch (const std::exception& e) {
    Log(LogLevel::kError, "activity " + activity_id + ": unexpected exception: " + e.what());
    return ErrorResponse(Status::Internal("An unexpected error occurred; activity id " +
                                          activity_id + " is in the server log."),
                         activity_id, uri(), 0);
  }
}

HandlerResult Service::Dispatch(const http::Request& request, const ResourcePath& path,
                                const std::string& activity_id, Access access,
                                const throughput::RequestClass& request_class) const {
  // Only the account read advertises the endpoint; skip building it otherwise.
  RequestContext ctx{request,
                     path,
                     account_,
                     access,
                     activity_id,
                     path.segments.empty() ? AdvertisedUrl(request) : std::string(),
                     options_.default_consistency,
                     request_class};
  if (access == Access::kReadOnly && IsWrite(request, ctx)) {
    return ReadOnlyKeyCannotWrite(request, path);
  }
  const auto& s = path.segments;
  if (s.empty()) {
    if (request.method != "GET") return Status::MethodNotAllowed("The account supports GET only.");
    return HandleAccountRead(ctx);
  }
  if (s[0] == "offers") {
    return HandleOffers(ctx);
  }
  if (s[0] == kAdminRoot) {
    return HandleAdmin(ctx);
  }
  if (s[0] != "dbs") {
    return UnknownPath(path, request);
  }
  if (std::optional<Status> unsupported = NotSupportedYet(path)) {
    return *unsupported;
  }
  ORRERY_RETURN_IF_ERROR(CheckConsistencyLevel(ctx));
  switch (s.size()) {
    case 1:
      return HandleDatabaseFeed(ctx);
    case 2:
      return HandleDatabase(ctx);
    case 3:
      return s[2] == "colls" ? HandleContainerFeed(ctx) : UnknownPath(path, request);
    case 4:
      return s[2] == "colls" ? HandleContainer(ctx) : UnknownPath(path, request);
    case 5:
      if (s[2] != "colls") return UnknownPath(path, request);
      if (s[4] == "docs") return HandleItemFeed(ctx);
      if (s[4] == "pkranges") return HandlePartitionKeyRanges(ctx);
      if (engine::ScriptTypeOfSegment(s[4])) return HandleScriptFeed(ctx);
      return UnknownPath(path, request);
    case 6:
      if (s[2] == "colls" && s[4] == "docs") return HandleItem(ctx);
      if (s[2] == "colls" && engine::ScriptTypeOfSegment(s[4])) return HandleScript(ctx);
      if (IsContainerOperation(path) && s[5] == "partitionkeydelete") {
        return HandlePartitionKeyDelete(ctx);
      }
      return UnknownPath(path, request);
    default:
      return UnknownPath(path, request);
  }
}

}  // namespace orrery::api
