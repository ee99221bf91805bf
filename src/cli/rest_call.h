#pragma once

// One signed call of the REST API from Orrery's command line (`orrery sql`, `orrery
// import`, `orrery export`): the master-key authorization the service checks, over
// http::Fetch.

#include <string>
#include <vector>

#include "common/http_message.h"
#include "common/status.h"

namespace orrery::cli {

struct Connection {
  std::string endpoint = "https://127.0.0.1:8081";
  std::string key;  // empty: the emulator's key
};

struct RestCall {
  std::string method;
  std::string resource_type;  // "dbs", "colls", "docs", "offers"
  std::string resource_link;  // what the signature covers: "dbs/a", or "" for the feed
  std::string path;           // under the endpoint, percent-encoded
  std::string body;           // sent as application/json unless a header says otherwise
  std::vector<http::Header> headers;
};

// The response whatever its status. Errors: BadRequest for a key that is not base64,
// IoError when the server cannot be reached.
Result<http::Response> SendRaw(const Connection& connection, const RestCall& call);
// The same, with an error status turned into BadRequest "(<status>) <the service's
// message>".
Result<http::Response> Send(const Connection& connection, const RestCall& call);

// One page of a query over a container's items, across its partitions (up to 1,000 rows),
// resuming at `continuation` when it is not empty.
RestCall QueryPageCall(const std::string& container_link, const std::string& container_path,
                       const std::string& query, const std::string& continuation);

// A response header's value (names compared without case), or "".
std::string HeaderOf(const http::Response& response, std::string_view name);

}  // namespace orrery::cli
