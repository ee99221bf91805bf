#pragma once

// Plain HTTP messages: what src/http/ parses and writes, and what src/api/ reads and
// produces. Kept here so that api/ need not include http/ (which sits above it).

#include <string>
#include <string_view>
#include <vector>

namespace orrery::http {

struct Header {
  std::string name;  // lowercase for requests; as given for responses
  std::string value;
};

struct Request {
  std::string method;           // "GET", "POST", ...
  std::string target;           // raw request target, percent-encoded, may hold "?query"
  std::vector<Header> headers;  // names lowercased
  std::string body;
  bool tls = false;

  // The value of a header (name in lowercase), or nullptr.
  const std::string* FindHeader(std::string_view lowercase_name) const;
};

// Where the server runs a request's Handler call (http/README.md, "Where a request
// runs"): the I/O threads also read and write every connection's bytes, so work that
// takes long there holds up the other requests those threads serve.
enum class WorkKind {
  kInline,    // on the I/O thread: cheap work (a point read or write, a cached lookup)
  kLong,      // on the long-work pool: CPU work that may take long (queries, feeds)
  kBlocking,  // on the blocking pool: work that mostly waits (a synced write)
};

struct Response {
  int status = 200;
  std::vector<Header> headers;
  std::string body;
};

}  // namespace orrery::http
