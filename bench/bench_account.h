#pragma once

// The account the in-process benchmarks write to: on disk in a directory of their own,
// with database "db" and container "c" partitioned by /pk at 400 RU/s.

#include <memory>
#include <optional>

#include "engine/account.h"
#include "json/json.h"

namespace orrery::bench {

struct BenchAccount {
  std::unique_ptr<engine::Account> account;
  std::shared_ptr<engine::Container> container;
};

// Opens the account with `options` (store.path names the directory) and creates the
// database and container; nullopt if any step fails.
inline std::optional<BenchAccount> OpenBenchAccount(const engine::AccountOptions& options) {
  Result<std::unique_ptr<engine::Account>> opened = engine::Account::Open(options);
  if (!opened.ok()) return std::nullopt;
  BenchAccount out{std::move(opened).value(), nullptr};
  if (!out.account->CreateDatabase(*json::Parse(R"({"id":"db"})"), {}).ok()) return std::nullopt;
  engine::ThroughputRequest throughput;
  throughput.manual = 400;
  const json::Value definition =
      *json::Parse(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2}})");
  if (!out.account->CreateContainer("db", definition, throughput).ok()) return std::nullopt;
  Result<std::shared_ptr<engine::Container>> container = out.account->GetContainer("db", "c");
  if (!container.ok()) return std::nullopt;
  out.container = std::move(container).value();
  return out;
}

}  // namespace orrery::bench
