#pragma once

// A blocking HTTP/1.1 client for Orrery's own command line (`orrery stats`): one
// request per connection, HTTP or HTTPS. It talks to a local server, whose
// certificate is usually the generated self-signed one, so TLS is not verified.

#include <chrono>
#include <string>

#include "common/http_message.h"
#include "common/status.h"

namespace orrery::http {

struct ClientRequest {
  std::string url;  // "https://127.0.0.1:8081/path" (the path percent-encoded)
  Request request;  // method, headers and body; its target comes from `url`
  std::chrono::milliseconds timeout{10000};
};

// Errors: BadRequest for a malformed URL, IoError for connection, TLS or protocol
// failures (with the reason).
Result<Response> Fetch(const ClientRequest& request);

}  // namespace orrery::http
