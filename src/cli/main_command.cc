#include "cli/main_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/serve.h"
#include "cli/stats.h"

namespace orrery::cli {

int Main(int argc, char** argv) {
  CLI::App app{"Orrery: a Cosmos DB (NoSQL API) compatible database server", "orrery"};
  app.require_subcommand(1);
  ServeOptions serve;
  CLI::App* serve_cmd = app.add_subcommand("serve", "Serve the Cosmos DB REST API");
  serve_cmd->add_option("--host", serve.host, "Address to listen on (default 127.0.0.1)");
  serve_cmd->add_option("--port", serve.port, "Port (default 8081; 0 picks a free port)");
  serve_cmd->add_option("--data-dir", serve.data_dir, "Data directory (default ./orrery-data)");
  serve_cmd->add_flag("--in-memory", serve.in_memory, "Keep all data in memory");
  serve_cmd->add_option("--key", serve.key,
                        "Primary master key, base64 (default: the emulator's well-known key)");
  serve_cmd->add_option("--secondary-key", serve.secondary_key, "Secondary master key, base64");
  serve_cmd->add_option("--readonly-key", serve.readonly_key,
                        "Read-only key, base64: reads and queries only");
  serve_cmd->add_flag("--no-tls", serve.no_tls, "Serve plain HTTP instead of HTTPS");
  serve_cmd->add_option("--tls-cert", serve.tls_cert, "TLS certificate (PEM)");
  serve_cmd->add_option("--tls-key", serve.tls_key, "TLS private key (PEM)");
  serve_cmd->add_option("--initial-partitions", serve.initial_partitions,
                        "Physical partitions per new container (default: by throughput)");
  serve_cmd->add_option("--log-level", serve.log_level, "debug|info|warn|error|off");
  serve_cmd->add_flag("--sync-writes", serve.sync_writes,
                      "fdatasync the write-ahead log on every write (survives power loss)");
  serve_cmd->add_flag("--enforce-throughput", serve.enforce_throughput,
                      "Throttle (429) requests beyond a container's provisioned RU/s per "
                      "physical partition");
  serve_cmd->add_option("--consistency-level", serve.consistency_level,
                        "The account's default consistency: Strong, BoundedStaleness, Session "
                        "(default), ConsistentPrefix or Eventual");
  serve_cmd->add_option("--threads", serve.threads, "I/O threads (default: one per core)");
  serve_cmd
      ->add_option("--query-page-time-ms", serve.query_page_time_ms,
                   "How long one page of a query may run before it ends early with a "
                   "continuation token (default 5000, the service's 5 s)")
      ->check(CLI::Range(1, 600000));
  serve_cmd->add_option("--partition-split-bytes", serve.partition_split_bytes,
                        "A physical partition holding more bytes of items splits in two "
                        "(default 53687091200, 50 GB)");
  serve_cmd->add_option("--logical-partition-max-bytes", serve.logical_partition_max_bytes,
                        "Bytes one logical partition may hold (default 21474836480, 20 GB)");

  StatsOptions stats;
  CLI::App* stats_cmd =
      app.add_subcommand("stats", "Print a running server's partition statistics of a container");
  stats_cmd->add_option("--endpoint", stats.endpoint,
                        "The server (default https://127.0.0.1:8081)");
  stats_cmd->add_option("--key", stats.key, "Master key, base64 (default: the emulator's)");
  stats_cmd->add_option("-d,--database", stats.database, "Database id")->required();
  stats_cmd->add_option("-c,--container", stats.container, "Container id")->required();
  stats_cmd->add_flag("--json", stats.json, "Print the admin call's JSON instead of a table");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "orrery: error: %s (see 'orrery --help')\n", e.what());
    return 2;
  }
  if (serve_cmd->parsed()) {
    return RunServe(serve);
  }
  if (stats_cmd->parsed()) {
    return RunStats(stats);
  }
  return 2;
}

}  // namespace orrery::cli
