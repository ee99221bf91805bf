#include "cli/main_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <tuple>
#include <utility>
#include <vector>

#include "cli/advise.h"
#include "cli/generate.h"
#include "cli/serve.h"
#include "cli/sql.h"
#include "cli/stats.h"
#include "cli/transfer.h"

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
  serve_cmd->add_option("--threads", serve.threads, "I/O threads (default: two per core)");
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

  serve_cmd->add_option("--explorer-dir", serve.explorer_dir,
                        "The Data Explorer's files, served at /_explorer/ (default: the "
                        "directory 'explorer' beside this executable, where `make` puts them)");

  StatsOptions stats;
  CLI::App* stats_cmd =
      app.add_subcommand("stats", "Print a running server's partition statistics of a container");
  stats_cmd->add_option("--endpoint", stats.endpoint,
                        "The server (default https://127.0.0.1:8081)");
  stats_cmd->add_option("--key", stats.key, "Master key, base64 (default: the emulator's)");
  stats_cmd->add_option("-d,--database", stats.database, "Database id")->required();
  stats_cmd->add_option("-c,--container", stats.container, "Container id")->required();
  stats_cmd->add_flag("--json", stats.json, "Print the admin call's JSON instead of a table");

  // `orrery sql database|container <verb>`, shaped as `az cosmosdb sql`.
  SqlOptions sql;
  CLI::App* sql_cmd = app.add_subcommand("sql", "Databases and containers of a running server");
  sql_cmd->require_subcommand(1);
  std::vector<std::pair<CLI::App*, SqlVerb>> sql_verbs;
  const auto verb = [&](CLI::App* group, const char* name, const char* help, SqlVerb v) {
    CLI::App* cmd = group->add_subcommand(name, help);
    cmd->add_option("--endpoint", sql.endpoint, "The server (default https://127.0.0.1:8081)");
    cmd->add_option("--key", sql.key, "Master key, base64 (default: the emulator's)");
    sql_verbs.emplace_back(cmd, v);
    return cmd;
  };
  CLI::App* database_cmd = sql_cmd->add_subcommand("database", "Databases");
  database_cmd->require_subcommand(1);
  for (auto [name, help, v] :
       {std::tuple{"create", "Create a database", SqlVerb::kDatabaseCreate},
        std::tuple{"show", "Show a database", SqlVerb::kDatabaseShow},
        std::tuple{"delete", "Delete a database", SqlVerb::kDatabaseDelete}}) {
    CLI::App* cmd = verb(database_cmd, name, help, v);
    cmd->add_option("-n,--name", sql.database, "Database id")->required();
    if (v == SqlVerb::kDatabaseCreate) {
      cmd->add_option("--throughput", sql.throughput, "Shared manual throughput (RU/s)");
      cmd->add_option("--max-throughput", sql.max_throughput, "Shared autoscale maximum (RU/s)");
    }
    if (v == SqlVerb::kDatabaseDelete)
      cmd->add_flag("-y,--yes", sql.yes, "Do not ask for confirmation");
  }
  verb(database_cmd, "list", "List the databases", SqlVerb::kDatabaseList);
  CLI::App* container_cmd = sql_cmd->add_subcommand("container", "Containers");
  container_cmd->require_subcommand(1);
  for (auto [name, help, v] :
       {std::tuple{"create", "Create a container", SqlVerb::kContainerCreate},
        std::tuple{"show", "Show a container", SqlVerb::kContainerShow},
        std::tuple{"delete", "Delete a container", SqlVerb::kContainerDelete},
        std::tuple{"list", "List a database's containers", SqlVerb::kContainerList}}) {
    CLI::App* cmd = verb(container_cmd, name, help, v);
    cmd->add_option("-d,--database-name", sql.database, "Database id")->required();
    if (v != SqlVerb::kContainerList)
      cmd->add_option("-n,--name", sql.name, "Container id")->required();
    if (v == SqlVerb::kContainerCreate) {
      cmd->add_option("-p,--partition-key-path", sql.partition_key_paths,
                      "Partition key path, or paths of a hierarchical key: \"/tenantId,/deviceId\"")
          ->required();
      cmd->add_option("--throughput", sql.throughput, "Manual throughput (RU/s)");
      cmd->add_option("--max-throughput", sql.max_throughput, "Autoscale maximum (RU/s)");
      cmd->add_option("--ttl", sql.ttl, "Default time to live in seconds (-1: on, no default)");
      cmd->add_option("--idx", sql.indexing_policy, "Indexing policy: JSON, or @file");
      cmd->add_option("--unique-key-policy", sql.unique_key_policy,
                      "Unique key policy: JSON, or @file");
    }
    if (v == SqlVerb::kContainerDelete)
      cmd->add_flag("-y,--yes", sql.yes, "Do not ask for confirmation");
  }
  CLI::App* update_cmd =
      verb(container_cmd, "update", "Change a container's TTL or indexing policy",
           SqlVerb::kContainerUpdate);
  update_cmd->add_option("-d,--database-name", sql.database, "Database id")->required();
  update_cmd->add_option("-n,--name", sql.name, "Container id")->required();
  update_cmd->add_option("--ttl", sql.ttl, "Default time to live in seconds (-1: on, no default)");
  update_cmd->add_option("--idx", sql.indexing_policy, "Indexing policy: JSON, or @file");
  CLI::App* throughput_cmd =
      container_cmd->add_subcommand("throughput", "A container's throughput");
  throughput_cmd->require_subcommand(1);
  for (auto [name, help, v] :
       {std::tuple{"show", "Show a container's offer", SqlVerb::kThroughputShow},
        std::tuple{"update", "Change a container's throughput", SqlVerb::kThroughputUpdate}}) {
    CLI::App* cmd = verb(throughput_cmd, name, help, v);
    cmd->add_option("-d,--database-name", sql.database, "Database id")->required();
    cmd->add_option("-n,--name", sql.name, "Container id")->required();
    if (v == SqlVerb::kThroughputUpdate) {
      cmd->add_option("--throughput", sql.throughput, "Manual throughput (RU/s)");
      cmd->add_option("--max-throughput", sql.max_throughput, "Autoscale maximum (RU/s)");
    }
  }
  CLI::App* query_cmd =
      verb(sql_cmd, "query", "Run a query over a container, every page", SqlVerb::kQuery);
  query_cmd->add_option("-d,--database-name", sql.database, "Database id")->required();
  query_cmd->add_option("-c,--container-name", sql.name, "Container id")->required();
  query_cmd->add_option("-q,--query-text", sql.query_text, "The query")->required();
  std::string output = "json";
  query_cmd->add_option("-o,--output", output, "json (default) or table")
      ->check(CLI::IsMember({"json", "table"}));

  TransferOptions transfer;
  const auto transfer_cmd = [&](const char* name, const char* help) {
    CLI::App* cmd = app.add_subcommand(name, help);
    cmd->add_option("--endpoint", transfer.endpoint, "The server (default https://127.0.0.1:8081)");
    cmd->add_option("--key", transfer.key, "Master key, base64 (default: the emulator's)");
    cmd->add_option("-d,--database-name", transfer.database, "Database id")->required();
    cmd->add_option("-c,--container-name", transfer.container, "Container id")->required();
    cmd->add_option("-f,--file", transfer.file, "JSON lines, or a JSON array")->required();
    return cmd;
  };
  CLI::App* import_cmd =
      transfer_cmd("import", "Upsert a file's items into a container (resumable)");
  import_cmd->add_option("--concurrency", transfer.concurrency,
                         "Bulk requests of 100 items in flight (default 4)");
  import_cmd->add_flag("--restart", transfer.restart,
                       "Start from the first item even if a checkpoint says otherwise");
  CLI::App* export_cmd = transfer_cmd("export", "Write a container's items to a file");
  export_cmd->add_flag("--array", transfer.array, "One JSON array instead of JSON lines");

  GenerateOptions generate;
  CLI::App* generate_cmd = app.add_subcommand(
      "generate", "Write the items of a generator spec as JSON lines (for orrery import)");
  generate_cmd->add_option("-s,--spec", generate.spec, "The generator spec (JSON)")->required();
  generate_cmd->add_option("-o,--out", generate.out, "The file to write (default: stdout)");

  AdviseOptions advise;
  CLI::App* advise_cmd = app.add_subcommand(
      "advise", "Compare partition keys by loading the same items under each and measuring");
  advise_cmd->add_option("--demo", advise.demo, "A built-in study: telemetry or ecommerce")
      ->check(CLI::IsMember({"telemetry", "ecommerce"}));
  advise_cmd->add_option("--data", advise.data, "The items: a JSON-lines file");
  advise_cmd->add_option("--generate", advise.generate, "The items: a generator spec (JSON)");
  advise_cmd->add_option("--items", advise.items,
                         "How many items to generate (overrides the spec)");
  advise_cmd->add_option("--candidates", advise.candidates,
                         "Partition keys to compare: /a (single), /a,/b (hierarchical), "
                         "/a+/b (synthetic: the values joined by '-')");
  advise_cmd->add_option("--workload", advise.workload,
                         "Operations with their share of traffic (JSON)");
  advise_cmd->add_option("--indexing-policy", advise.indexing_policy,
                         "The containers' indexing policy: JSON, or @file");
  advise_cmd->add_option("--throughput", advise.throughput,
                         "RU/s: manual, or the autoscale maximum with --autoscale (default 10000)");
  advise_cmd->add_flag("--autoscale", advise.autoscale, "--throughput is an autoscale maximum");
  advise_cmd->add_option("--scale", advise.scale,
                         "How many times larger production is than the items studied");
  advise_cmd->add_option("--growth", advise.growth,
                         "Yearly growth of production (1 = doubles every year)");
  advise_cmd->add_option(
      "--samples", advise.samples,
      "Runs of each operation, with parameters drawn from the data (default 25)");
  advise_cmd->add_option("--seed", advise.seed, "Seed of the parameter draws (default 1)");
  advise_cmd->add_option("--threads", advise.threads, "Loading threads (default 2)");
  advise_cmd->add_flag("--json", advise.json, "Print the measurements and ranking as JSON");
  advise_cmd->add_option("--html", advise.html, "Write a self-contained HTML report here");
  advise_cmd->add_flag("--no-color", advise.no_color, "No colours, even on a terminal");
  advise_cmd->add_option("--endpoint", advise.endpoint,
                         "Measure against this server (Orrery or Cosmos DB) through its REST "
                         "API, in a database of its own that is dropped at the end");
  advise_cmd->add_option("--key", advise.key,
                         "The endpoint's master key, base64 (default: the emulator's)");

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
  if (import_cmd->parsed()) return RunImport(transfer);
  if (generate_cmd->parsed()) return RunGenerate(generate);
  if (advise_cmd->parsed()) return RunAdvise(advise);
  if (export_cmd->parsed()) return RunExport(transfer);
  sql.table = output == "table";
  for (const auto& [cmd, v] : sql_verbs) {
    if (cmd->parsed()) return RunSql(v, sql);
  }
  return 2;
}

}  // namespace orrery::cli
