#pragma once

// The account both request fuzzers talk to: in memory, with a database "db", a
// container "c" (hierarchical key /t,/u, a unique key on /e, TTL on) and the
// emulator's key. Built once per process; never destroyed (libFuzzer exits without
// unwinding).

#include <cstdlib>
#include <memory>
#include <string>

#include "api/auth.h"
#include "api/resource_path.h"
#include "api/service.h"
#include "engine/account.h"
#include "json/json.h"

namespace orrery::fuzz {

struct World {
  std::unique_ptr<orrery::engine::Account> account;
  std::unique_ptr<orrery::api::Service> service;
};

inline World& TheWorld() {
  static World* world = [] {
    auto* w = new World;
    orrery::engine::AccountOptions options;
    options.store.in_memory = true;
    options.background_ttl_purge = false;
    options.background_splits = false;
    options.initial_partitions = 2;
    w->account = std::move(orrery::engine::Account::Open(options)).value();
    const auto body = [](const char* text) { return *orrery::json::Parse(text); };
    if (!w->account->CreateDatabase(body(R"({"id":"db"})"), {}).ok()) std::abort();
    if (!w->account
             ->CreateContainer("db", body(R"({"id":"c","partitionKey":{"paths":["/t","/u"],
                 "kind":"MultiHash","version":2},"uniqueKeyPolicy":{"uniqueKeys":[{"paths":["/e"]}]},
                 "defaultTtl":-1})"),
                               {})
             .ok()) {
      std::abort();
    }
    auto authenticator = orrery::api::Authenticator::Create(
        orrery::api::AccountKeys{orrery::api::kEmulatorMasterKey, "", ""}, orrery::Clock::System());
    w->service = std::make_unique<orrery::api::Service>(
        *w->account, std::move(authenticator).value(), orrery::api::ServiceOptions{});
    return w;
  }();
  return *world;
}

// Signs `request` with the account key, as a client would: a fresh x-ms-date and a
// valid signature for its verb and path (left unsigned when the path does not parse).
inline void Sign(orrery::http::Request& request) {
  auto path = orrery::api::ParseResourcePath(request.target);
  if (!path.ok()) return;
  const std::string date = orrery::api::Rfc1123Now();
  std::erase_if(request.headers, [](const orrery::http::Header& h) {
    return h.name == "authorization" || h.name == "x-ms-date";
  });
  request.headers.push_back({"x-ms-date", date});
  request.headers.push_back(
      {"authorization", orrery::api::MasterKeyAuthorization(
                            orrery::api::kEmulatorMasterKey,
                            orrery::api::SignaturePayload(request.method, path->resource_type,
                                                          path->resource_link, date))});
}

}  // namespace orrery::fuzz
