#pragma once

// `orrery serve`: opens the account and serves the REST API until SIGINT/SIGTERM.

#include <string>

namespace orrery::cli {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8081;
  std::string data_dir = "./orrery-data";
  bool in_memory = false;
  std::string key;  // empty = the emulator's well-known key
  std::string secondary_key;
  std::string readonly_key;
  bool no_tls = false;
  std::string tls_cert;
  std::string tls_key;
  int initial_partitions = 0;
  std::string log_level = "info";
  bool sync_writes = false;
  bool enforce_throughput = false;
  std::string consistency_level = "Session";
  uint64_t logical_partition_max_bytes = uint64_t{20} << 30;
  uint64_t partition_split_bytes = uint64_t{50} << 30;
  int threads = 0;
  int query_page_time_ms = 5000;
  std::string explorer_dir;  // empty = "explorer" beside the executable
};

// Returns the process exit code; prints one-line errors to stderr.
int RunServe(const ServeOptions& options);

}  // namespace orrery::cli
