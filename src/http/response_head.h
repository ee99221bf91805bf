#pragma once

// Serializes a Response's status line and header block; the body goes out as is,
// in the same write.

#include <string>
#include <string_view>

#include "http/server.h"

namespace orrery::http {

// How the response tells the client about the connection.
enum class ConnectionHeader {
  kNone,       // HTTP/1.1 keep-alive: the default needs no header
  kKeepAlive,  // an HTTP/1.0 client that asked for keep-alive
  kClose,      // the server closes after this response
};

// True when HTTP allows a body (and Content-Length) with `status`: not 1xx, 204, 304.
bool StatusAllowsBody(int status);

// The reason phrase of the status line, e.g. "Not Found"; "Unknown" for codes
// outside the table.
std::string_view ReasonPhrase(int status);

// True when `response` carries "Connection: close" (any case).
bool ResponseAsksToClose(const Response& response);

// Replaces `out` with "HTTP/1.1 <status> <reason>\r\n", the response's headers as
// given, Content-Length (when the status allows a body), the connection header and
// the blank line. Headers the framing owns (Content-Length, Transfer-Encoding,
// Connection) and headers containing CR or LF are left out. `out` is an output
// parameter so a session reuses one buffer for every response it writes.
void FormatResponseHead(const Response& response, ConnectionHeader connection, std::string& out);

}  // namespace orrery::http
