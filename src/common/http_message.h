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

struct Response {
  int status = 200;
  std::vector<Header> headers;
  std::string body;
};

}  // namespace orrery::http
