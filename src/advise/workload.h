#pragma once

// The traffic `orrery advise --workload file` plays against each candidate (issue 19):
// queries and point operations with their share of requests, their parameters drawn
// from the data (a path: the value of a random item there, all of one request's
// parameters from the same item) or constant.
//
//   {"requestsPerSecond": 2000,
//    "operations": [
//      {"name": "events of a tenant", "share": 50,
//       "query": "SELECT * FROM c WHERE c.tenantId = @t", "parameters": {"@t": "/tenantId"}},
//      {"name": "one device", "share": 5, "query": "SELECT * FROM c WHERE c.deviceId = @d",
//       "parameters": {"@d": {"value": "d-9"}}},
//      {"name": "read an event", "share": 30, "kind": "read"},
//      {"name": "new event", "share": 15, "kind": "create"}]}
//
// Kinds: "query" (the default when "query" is given), "read" (a point read of a random
// item by id and partition key), "create" (a new item like a random one, with a new id),
// "upsert" (a random item written again). Shares are relative weights.

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "json/value.h"

namespace orrery::advise {

struct ParameterSource {
  std::string name;               // "@t"
  std::vector<std::string> path;  // from a drawn item, or
  std::optional<json::Value> constant;
};

struct Operation {
  enum class Kind { kQuery, kRead, kCreate, kUpsert };
  std::string name;
  double share = 0;  // of all requests, 0..1
  Kind kind = Kind::kQuery;
  std::string query;
  std::vector<ParameterSource> parameters;
};

struct Workload {
  std::vector<Operation> operations;
  // Offered load at production; nullopt: what spends 80% of the throughput on average.
  std::optional<double> requests_per_second;

  // Errors: BadRequest naming the operation and what is wrong with it (queries are
  // compiled, so a syntax error shows here).
  static Result<Workload> Parse(const json::Value& spec);
};

const char* KindName(Operation::Kind kind);

}  // namespace orrery::advise
