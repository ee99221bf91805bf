#pragma once

// The Cosmos DB REST API over an Account: routes each request by path and verb,
// authenticates it before any handler runs, and maps errors to responses in one
// place. Thread-safe: Handle() runs concurrently on the server's I/O threads.

#include <memory>
#include <mutex>
#include <string>

#include "api/auth.h"
#include "api/explorer_assets.h"
#include "api/request_context.h"
#include "api/request_metrics.h"
#include "common/http_message.h"
#include "engine/account.h"

namespace orrery::api {

struct ServiceOptions {
  // The URL the account read advertises; empty = derived from each request's scheme
  // and Host header (wire-protocol.md §2).
  std::string advertised_url;
  // The account's default consistency (the account read's userConsistencyPolicy);
  // reads at Strong and Bounded staleness cost twice as much.
  throughput::Consistency default_consistency = throughput::Consistency::kSession;
  // The Data Explorer's files, served at /_explorer/ without authentication (the page
  // holds no key: it signs its requests with the one the user enters).
  std::shared_ptr<const ExplorerAssets> explorer = std::make_shared<ExplorerAssets>();
};

class Service {
 public:
  Service(engine::Account& account, Authenticator authenticator, ServiceOptions options);
  // Serves the request, and counts it in the metrics GET /metrics answers (that one
  // needs no key: request_metrics.h).
  http::Response Handle(const http::Request& request) const;
  // The TLS certificate GET /_explorer/emulator.pem serves, as the emulator's does (for
  // Java's keytool and .NET's certutil); until set, or without TLS, that is a 404.
  void SetCertificatePem(std::string pem);

 private:
  http::Response Serve(const http::Request& request) const;
  http::Response CertificateResponse() const;
  HandlerResult Dispatch(const http::Request& request, const ResourcePath& path,
                         const std::string& activity_id, Access access,
                         const throughput::RequestClass& request_class) const;
  std::string AdvertisedUrl(const http::Request& request) const;

  engine::Account& account_;
  Authenticator authenticator_;
  ServiceOptions options_;
  std::shared_ptr<RequestMetrics> metrics_ = std::make_shared<RequestMetrics>();
  struct Certificate {
    std::mutex mutex;
    std::string pem;
  };
  std::shared_ptr<Certificate> certificate_ = std::make_shared<Certificate>();
};

}  // namespace orrery::api
