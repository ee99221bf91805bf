#include "cli/serve.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "api/auth.h"
#include "api/data_plane.h"
#include "api/service.h"
#include "api/work_kind.h"
#include "common/log.h"
#include "engine/account.h"
#include "engine/query_page_budget.h"
#include "http/server.h"

namespace orrery::cli {
namespace {

// Where `make explorer` puts the page: beside the executable, in build/explorer.
std::string DefaultExplorerDirectory() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("explorer") : (self.parent_path() / "explorer").string();
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "orrery: error: %s\n", message.c_str());
  return 1;
}

}  // namespace

int RunServe(const ServeOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  LogLevel level;
  if (!ParseLogLevel(options.log_level, level)) {
    return Fail("--log-level must be one of debug, info, warn, error, off");
  }
  SetLogLevel(level);
  if (options.port < 0 || options.port > 65535) {
    return Fail("--port must be between 0 and 65535");
  }
  if (options.initial_partitions < 0 || options.initial_partitions > 1000) {
    return Fail("--initial-partitions must be between 1 and 1000");
  }
  if (options.tls_cert.empty() != options.tls_key.empty()) {
    return Fail("--tls-cert and --tls-key must be given together");
  }

  api::AccountKeys keys{options.key.empty() ? api::kEmulatorMasterKey : options.key,
                        options.secondary_key, options.readonly_key};
  Result<api::Authenticator> authenticator = api::Authenticator::Create(keys, Clock::System());
  if (!authenticator.ok()) {
    return Fail(authenticator.status().message());
  }

  engine::AccountOptions account_options;
  account_options.store.path = options.data_dir;
  account_options.store.in_memory = options.in_memory;
  account_options.store.sync_writes = options.sync_writes;
  engine::SetQueryPageTimeBudget(std::chrono::milliseconds(options.query_page_time_ms));
  account_options.initial_partitions = options.initial_partitions;
  account_options.enforce_throughput = options.enforce_throughput;
  if (options.logical_partition_max_bytes == 0) {
    return Fail("--logical-partition-max-bytes must be at least 1");
  }
  account_options.logical_partition_max_bytes = options.logical_partition_max_bytes;
  if (options.partition_split_bytes == 0) return Fail("--partition-split-bytes must be at least 1");
  account_options.partition_split_bytes = options.partition_split_bytes;
  Result<std::unique_ptr<engine::Account>> account = engine::Account::Open(account_options);
  if (!account.ok()) {
    return Fail(account.status().message());
  }

  api::ServiceOptions service_options;
  std::optional<throughput::Consistency> consistency =
      api::ParseConsistency(options.consistency_level);
  if (!consistency) {
    return Fail(
        "--consistency-level must be Strong, BoundedStaleness, Session, "
        "ConsistentPrefix or Eventual, not '" +
        options.consistency_level + "'");
  }
  service_options.default_consistency = *consistency;
  service_options.explorer = std::make_shared<api::ExplorerAssets>(api::ExplorerAssets::Load(
      options.explorer_dir.empty() ? DefaultExplorerDirectory() : options.explorer_dir));
  api::Service service(**account, std::move(authenticator).value(), service_options);
  http::ServerOptions server_options;
  server_options.host = options.host;
  server_options.port = static_cast<uint16_t>(options.port);
  server_options.threads = options.threads;
  server_options.tls = !options.no_tls;
  server_options.tls_cert_file = options.tls_cert;
  server_options.tls_key_file = options.tls_key;
  if (!options.in_memory) {
    server_options.generated_cert_dir = options.data_dir;
  }
  // Scans and synced writes run off the I/O threads (http/README.md).
  const api::WorkKindOptions work_options{.item_writes_sync =
                                              options.sync_writes && !options.in_memory};
  server_options.classify = [work_options](const http::Request& request) {
    return api::ClassifyWork(request, work_options);
  };
  Result<std::unique_ptr<http::Server>> server = http::Server::Start(
      server_options, [&service](const http::Request& request) { return service.Handle(request); });
  if (!server.ok()) {
    return Fail(server.status().message());
  }
  service.SetCertificatePem((*server)->certificate_pem());
  // Before the ready line: whoever reads it may signal at once.
  (*server)->CatchSignals();
  const auto ready_ms = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - started)
                            .count() /
                        1000.0;
  std::printf("Orrery listening on %s://%s:%u/ (%s, ready in %.1f ms)\n",
              options.no_tls ? "http" : "https", options.host.c_str(), (*server)->port(),
              options.in_memory ? "in memory"
                                : ("data in " + std::filesystem::weakly_canonical(
                                                    std::filesystem::absolute(options.data_dir))
                                                    .string())
                                      .c_str(),
              ready_ms);
  std::fflush(stdout);
  (*server)->WaitForSignal();
  Log(LogLevel::kInfo, "shutting down");
  (*server)->Stop();
  return 0;
}

}  // namespace orrery::cli
