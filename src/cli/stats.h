#pragma once

// `orrery stats`: a running server's partition statistics for one container, from the
// admin call GET /_orrery/dbs/{db}/colls/{c}/stats, as a table or as its JSON.

#include <string>

namespace orrery::cli {

struct StatsOptions {
  std::string endpoint = "https://127.0.0.1:8081";
  std::string key;  // empty: the emulator's key
  std::string database;
  std::string container;
  bool json = false;
};

// Returns the process exit code; prints one-line errors to stderr.
int RunStats(const StatsOptions& options);

}  // namespace orrery::cli
