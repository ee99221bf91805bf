#pragma once

// `orrery advise` (issue 19): compares candidate partition keys by loading the same
// items under each into an in-process engine and measuring (advise/study.h). Prints a
// terminal summary, or JSON with --json, and writes an HTML report with --html.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace orrery::cli {

struct AdviseOptions {
  std::string demo;               // telemetry | ecommerce
  std::string data;               // a JSON-lines file, or
  std::string generate;           // a generator spec
  std::optional<uint64_t> items;  // overrides the generated count
  std::vector<std::string> candidates;
  std::string workload;         // a workload file
  std::string indexing_policy;  // JSON, or @file
  std::optional<int64_t> throughput;
  bool autoscale = false;
  std::optional<double> scale;
  std::optional<double> growth;  // per year: 1 doubles every year
  int samples = 25;
  uint64_t seed = 1;
  int threads = 2;
  bool json = false;
  std::string html;
  bool no_color = false;
  // Measure against this server through the REST API instead of in process.
  std::string endpoint;
  std::string key;  // empty: the emulator's
};

// Returns the process exit code.
int RunAdvise(const AdviseOptions& options);

}  // namespace orrery::cli
