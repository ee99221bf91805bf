#pragma once

// `orrery sql database ...` and `orrery sql container ...`: the Azure CLI's
// `az cosmosdb sql` verbs against a running server, over its REST API (signed with the
// master key). Output is the resource's JSON, as the Azure CLI prints it; errors print
// the service's message and exit 1; deletes ask for confirmation on a terminal and take
// --yes as the Azure CLI does.

#include <optional>
#include <string>

namespace orrery::cli {

struct SqlOptions {
  std::string endpoint = "https://127.0.0.1:8081";
  std::string key;  // empty: the emulator's key
  std::string database;
  std::string name;
  // container create
  std::string partition_key_paths;  // "/tenantId" or "/tenantId,/deviceId" (hierarchical)
  std::optional<int> throughput;
  std::optional<int> max_throughput;
  std::optional<int> ttl;
  std::string indexing_policy;    // JSON, or @file
  std::string unique_key_policy;  // JSON, or @file
  bool yes = false;
  // query
  std::string query_text;
  bool table = false;  // a table instead of JSON
};

enum class SqlVerb {
  kDatabaseCreate,
  kDatabaseList,
  kDatabaseShow,
  kDatabaseDelete,
  kContainerCreate,
  kContainerList,
  kContainerShow,
  kContainerDelete,
  kContainerUpdate,
  kThroughputShow,
  kThroughputUpdate,
  kQuery,
};

// Returns the process exit code.
int RunSql(SqlVerb verb, const SqlOptions& options);

}  // namespace orrery::cli
