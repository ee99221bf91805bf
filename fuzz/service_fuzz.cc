// libFuzzer target for request handling: the input is an HTTP request as text,
//   <flags byte><METHOD> <target>\n<name>: <value>\n...\n\n<body>
// handed to api::Service over an in-memory account that holds a database, a container
// with a hierarchical key and a few items. With bit 0 of the flags set, the request is
// signed with the account key (a fresh x-ms-date and a valid signature for its verb and
// path), so that inputs reach the handlers, JSON bodies, partition key headers, queries
// and batches behind the authorization check; otherwise the input's own Authorization
// header is checked. Every answer must be a well-formed HTTP status; crashes,
// sanitizer reports, leaks and hangs are bugs.
//
// Built with -DORRERY_FUZZ=ON (clang); run with `make fuzz`.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "api/auth.h"
#include "api/resource_path.h"
#include "common/encoding.h"
#include "fuzz_world.h"

namespace {

using orrery::http::Request;

// Parses the input's request text; false when it has no request line.
bool ParseRequest(std::string_view text, Request& request) {
  const size_t line_end = text.find('\n');
  const std::string_view line = text.substr(0, line_end);
  const size_t space = line.find(' ');
  if (space == std::string_view::npos || space == 0) return false;
  request.method = std::string(line.substr(0, space));
  request.target = std::string(line.substr(space + 1));
  if (request.target.empty() || request.target[0] != '/') return false;
  std::string_view rest = line_end == std::string_view::npos ? "" : text.substr(line_end + 1);
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    const std::string_view header = rest.substr(0, end);
    rest = end == std::string_view::npos ? "" : rest.substr(end + 1);
    if (header.empty()) break;
    const size_t colon = header.find(':');
    if (colon == std::string_view::npos) continue;
    std::string value(header.substr(colon + 1));
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    request.headers.push_back({orrery::LowerAscii(header.substr(0, colon)), std::move(value)});
  }
  request.body = std::string(rest);
  return true;
}

}  // namespace

extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2 || size > 16 * 1024) return -1;
  const bool sign = (data[0] & 1) != 0;
  Request request;
  if (!ParseRequest(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1), request)) {
    return -1;
  }
  if (sign) orrery::fuzz::Sign(request);
  const orrery::http::Response response = orrery::fuzz::TheWorld().service->Handle(request);
  if (response.status < 200 || response.status > 599) {
    std::fprintf(stderr, "service_fuzz: status %d\n", response.status);
    std::abort();
  }
  return 0;
}
