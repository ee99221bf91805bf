// libFuzzer target for the HTTP front end: the bytes a client sends on one connection
// go over loopback TCP to a real http::Server (Beast's parser, the strict request-head
// rules, the session's limits, keep-alive and pipelining, the response writer) whose
// handler is api::Service over the in-memory account of fuzz_world.h. The client then
// closes its sending side and reads until the server closes.
//
// An input is used in one of two ways:
//  - as is (any input not starting with a NUL byte): raw bytes, for the parser;
//  - structured (a NUL byte first): the rest drives a request builder
//    (FuzzedDataProvider) that writes well-formed-looking requests with the things the
//    server must refuse: methods in the wrong case, no Host, two Hosts, invalid Hosts,
//    numeric headers that overflow or carry signs and garbage, repeated single-valued
//    headers, conflicting framing, and header counts and sizes at and beyond the
//    server's header limit (kMaxHeaderBytes below: a few header lines of about its size,
//    or up to thousands of short ones). Most heads it writes pass the http layer and
//    most are signed, so that they reach the API's checks behind authorization too.
//
// Whatever comes back must be HTTP/1.1 responses and never a 500; a structured request
// whose head is wrong (method case, Host) must be answered 400 (or 431/413 when its
// head or announced body is also past a limit). Crashes, sanitizer reports and a server
// that never closes (a hang) are bugs.
//
// Built with -DORRERY_FUZZ=ON (clang); run with `make fuzz`.

#include <arpa/inet.h>
#include <fuzzer/FuzzedDataProvider.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/auth.h"
#include "api/resource_path.h"
#include "common/encoding.h"
#include "fuzz_world.h"
#include "http/server.h"

namespace {

// Small limits, so that inputs of a few KB reach them.
constexpr size_t kMaxHeaderBytes = 2048;
constexpr size_t kMaxBodyBytes = 8192;
// What one structured input may write: enough for several heads past the limit, or
// thousands of header lines, without making an execution slow.
constexpr size_t kMaxGeneratedBytes = size_t{256} * 1024;
constexpr uint8_t kStructuredMarker = 0;

uint16_t ServerPort() {
  static const uint16_t port = [] {
    orrery::http::ServerOptions options;
    options.port = 0;
    options.threads = 1;
    options.tls = false;
    options.max_header_bytes = kMaxHeaderBytes;
    options.max_body_bytes = kMaxBodyBytes;
    options.idle_timeout = std::chrono::seconds(2);
    options.request_timeout = std::chrono::seconds(2);
    auto server = orrery::http::Server::Start(options, [](const orrery::http::Request& request) {
      return orrery::fuzz::TheWorld().service->Handle(request);
    });
    if (!server.ok()) {
      std::fprintf(stderr, "http_fuzz: %s\n", server.status().ToString().c_str());
      std::abort();
    }
    // Serves until the process exits; kept reachable, so LeakSanitizer does not count it.
    static orrery::http::Server* running = std::move(server).value().release();
    return running->port();
  }();
  return port;
}

// ---- the structured request builder --------------------------------------------------

constexpr const char* kMethods[] = {"GET",   "POST", "PUT",     "DELETE",
                                    "PATCH", "HEAD", "OPTIONS", "M-SEARCH"};
constexpr const char* kWrongCaseMethods[] = {"get",    "post",  "Post", "pUT",
                                             "delete", "Patch", "head", "GeT"};
constexpr const char* kTargets[] = {"/",
                                    "/dbs",
                                    "/dbs/db",
                                    "/dbs/db/colls",
                                    "/dbs/db/colls/c",
                                    "/dbs/db/colls/c/docs",
                                    "/dbs/db/colls/c/docs/a",
                                    "/dbs/db/colls/c/pkranges",
                                    "/offers",
                                    "/_orrery/dbs/db/colls/c/stats",
                                    "*",
                                    "http://127.0.0.1:8081/dbs"};
constexpr const char* kVersions[] = {"HTTP/1.1", "HTTP/1.1", "HTTP/1.1", "HTTP/1.0"};
constexpr const char* kHeaderNames[] = {"x-ms-max-item-count",
                                        "x-ms-offer-throughput",
                                        "x-ms-cosmos-offer-autopilot-settings",
                                        "x-ms-documentdb-responsecontinuationtokenlimitinkb",
                                        "authorization",
                                        "x-ms-date",
                                        "x-ms-documentdb-partitionkey",
                                        "x-ms-documentdb-partitionkeyrangeid",
                                        "x-ms-consistency-level",
                                        "x-ms-continuation",
                                        "if-none-match",
                                        "a-im",
                                        "content-type",
                                        "x-ms-documentdb-isquery",
                                        "x-ms-cosmos-is-batch-request",
                                        "Host",
                                        "Content-Length",
                                        "Transfer-Encoding",
                                        "Expect",
                                        "Connection",
                                        "x-filler"};
constexpr const char* kNumbers[] = {"-1",
                                    "0",
                                    "1",
                                    "100",
                                    "400",
                                    "2147483647",
                                    "2147483648",
                                    "4294967296",
                                    "9223372036854775807",
                                    "9223372036854775808",
                                    "-9223372036854775809",
                                    "18446744073709551616",
                                    "99999999999999999999",
                                    "+5",
                                    "-+5",
                                    "5abc",
                                    "0x10",
                                    "1e3",
                                    "1.5",
                                    "-0",
                                    "007",
                                    "5 5",
                                    "",
                                    "\"21\"",
                                    R"({"maxThroughput":4000})",
                                    R"({"maxThroughput":1e300})",
                                    R"({"maxThroughput":99999999999999999999})",
                                    R"(["a","b"])",
                                    "chunked",
                                    "gzip, chunked",
                                    "chunked, gzip",
                                    "100-continue",
                                    "close",
                                    "Incremental Feed"};
constexpr const char* kValidHosts[] = {"localhost:8081", "127.0.0.1", "", "[::1]:8081"};
constexpr const char* kInvalidHosts[] = {"a b", "x:99999", "x:+80", "[::1", "exa/mple", "h:1:2"};
// The headers whose values the API reads as numbers.
constexpr const char* kNumericHeaderNames[] = {
    "x-ms-max-item-count", "x-ms-offer-throughput", "x-ms-cosmos-offer-autopilot-settings",
    "x-ms-documentdb-responsecontinuationtokenlimitinkb"};

template <typename T, size_t N>
const T& Pick(FuzzedDataProvider& in, const T (&choices)[N]) {
  return choices[in.ConsumeIntegralInRange<size_t>(0, N - 1)];
}

// A string without CR and LF, so that it stays inside its line.
std::string OneLine(std::string text) {
  std::erase_if(text, [](char c) { return c == '\r' || c == '\n'; });
  return text;
}

// A length around the header limit: just under it, at it, just past it, or far past.
size_t LengthNearTheLimit(FuzzedDataProvider& in) {
  const size_t base = in.PickValueInArray<size_t>(
      {0, 16, kMaxHeaderBytes / 2, kMaxHeaderBytes - 64, kMaxHeaderBytes, 2 * kMaxHeaderBytes});
  const size_t jitter = in.ConsumeIntegralInRange<size_t>(0, 64);
  return in.ConsumeBool() ? base + jitter : (base > jitter ? base - jitter : 0);
}

std::string HostValue(FuzzedDataProvider& in) {
  return in.ConsumeIntegralInRange(0, 3) > 0 ? Pick(in, kValidHosts) : Pick(in, kInvalidHosts);
}

std::string HeaderValue(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 5)) {
    case 0:
    case 1:
      return Pick(in, kNumbers);
    case 2:  // a huge number
      return std::string(in.ConsumeIntegralInRange<size_t>(1, 3 * kMaxHeaderBytes), '9');
    case 3:  // a long value, near the limit
      return std::string(LengthNearTheLimit(in), 'v');
    case 4:
      return HostValue(in);
    default:
      return OneLine(in.ConsumeRandomLengthString(64));
  }
}

std::string HeaderName(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0:
      return Pick(in, kNumericHeaderNames);
    case 1:
    case 2:
      return Pick(in, kHeaderNames);
    default:
      return OneLine(in.ConsumeRandomLengthString(16));
  }
}

struct Built {
  std::string bytes;
  // The head has something wrong that the http layer must refuse (method case, Host).
  bool wrong_head = false;
};

void AppendRequest(FuzzedDataProvider& in, Built& out, bool first) {
  // Mostly heads that pass the http layer, so that the API's checks are reached too.
  std::string method;
  switch (in.ConsumeIntegralInRange(0, 5)) {
    case 0:
      method = Pick(in, kWrongCaseMethods);
      break;
    case 1:
      method = OneLine(in.ConsumeRandomLengthString(12));
      break;
    default:
      method = Pick(in, kMethods);
      break;
  }
  const std::string target =
      in.ConsumeBool() ? Pick(in, kTargets) : "/" + OneLine(in.ConsumeRandomLengthString(40));
  const std::string version = Pick(in, kVersions);
  std::string head = method + " " + target + " " + version + "\r\n";
  bool wrong_head =
      std::any_of(method.begin(), method.end(), [](char c) { return c >= 'a' && c <= 'z'; });

  // Host: none, one (valid or not), or several; header groups below may add more.
  size_t hosts = in.PickValueInArray<size_t>({0, 1, 1, 1, 1, 1, 2, 3});
  for (size_t i = 0; i < hosts; ++i) head += "Host: " + HostValue(in) + "\r\n";

  if (in.ConsumeIntegralInRange(0, 3) > 0) {
    const orrery::Result<orrery::api::ResourcePath> path = orrery::api::ParseResourcePath(target);
    if (path.ok()) {
      const std::string date = orrery::api::Rfc1123Now();
      head += "x-ms-date: " + date + "\r\nauthorization: " +
              orrery::api::MasterKeyAuthorization(
                  orrery::api::kEmulatorMasterKey,
                  orrery::api::SignaturePayload(method, path->resource_type, path->resource_link,
                                                date)) +
              "\r\n";
    }
  }

  // Header lines: each chosen name and value, repeated up to thousands of times.
  const int groups = in.ConsumeIntegralInRange(0, 8);
  for (int g = 0; g < groups && out.bytes.size() + head.size() < kMaxGeneratedBytes; ++g) {
    const std::string name = HeaderName(in);
    const std::string value = HeaderValue(in);
    const size_t repeat = in.PickValueInArray<size_t>({1, 1, 1, 2, 50, 500, 3000});
    const bool numbered = in.ConsumeBool();  // x-filler-1, x-filler-2, ... or one name
    for (size_t r = 0; r < repeat && out.bytes.size() + head.size() < kMaxGeneratedBytes; ++r) {
      head += name + (numbered ? "-" + std::to_string(r) : "") + ": " + value + "\r\n";
      if (!numbered && orrery::EqualsIgnoreCase(name, "host")) ++hosts;
    }
  }

  wrong_head = wrong_head || hosts > 1 || (hosts == 0 && version == "HTTP/1.1");

  std::string body = OneLine(in.ConsumeRandomLengthString(256));
  switch (in.ConsumeIntegralInRange(0, 7)) {
    case 0:  // no framing header
      body.clear();
      break;
    case 1:
    case 2:
    case 3:
      head += "Content-Length: " + std::to_string(body.size()) + "\r\n";
      break;
    case 4: {  // chunked, one chunk
      char size[32];
      std::snprintf(size, sizeof size, "%zx", body.size());
      body = body.empty() ? "0\r\n\r\n" : std::string(size) + "\r\n" + body + "\r\n0\r\n\r\n";
      head += "Transfer-Encoding: chunked\r\n";
      break;
    }
    case 5:  // both
      head += "Content-Length: " + std::to_string(body.size()) +
              "\r\nTransfer-Encoding: " + Pick(in, kNumbers) + "\r\n";
      break;
    case 6:  // two lengths
      head += "Content-Length: " + std::to_string(body.size()) +
              "\r\nContent-Length: " + Pick(in, kNumbers) + "\r\n";
      break;
    default:  // a length that is no length
      head += "Content-Length: " + std::string(Pick(in, kNumbers)) + "\r\n";
      break;
  }
  out.bytes += head + "\r\n" + body;
  if (first) out.wrong_head = wrong_head;
}

Built BuildRequests(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Built out;
  const int requests = in.ConsumeIntegralInRange(1, 3);  // pipelined
  for (int i = 0; i < requests && out.bytes.size() < kMaxGeneratedBytes; ++i) {
    AppendRequest(in, out, i == 0);
  }
  return out;
}

// ---- the client ------------------------------------------------------------------------

int Connect(uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) std::abort();
  timeval timeout{6, 0};  // the server's own timeouts are 2 s: longer is a hang
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  // libFuzzer's timeout alarm (SIGALRM) can interrupt any of these calls: an interrupted
  // connect goes on in the background (EALREADY until it is done, then EISCONN).
  while (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    if (errno == EISCONN) break;
    if (errno == EINTR || errno == EALREADY) {
      pollfd wait{fd, POLLOUT, 0};
      poll(&wait, 1, 1000);
      continue;
    }
    std::perror("http_fuzz: connect");
    std::abort();
  }
  return fd;
}

// Sends everything (the server may close early, on a limit: then the rest is dropped).
void SendAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    data += n;
    size -= static_cast<size_t>(n);
  }
}

std::string ReceiveUntilClosed(int fd) {
  std::string received;
  char buffer[16384];
  for (;;) {
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n == 0) return received;
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        std::fprintf(stderr, "http_fuzz: the server kept the connection open for 6 s\n");
        std::abort();
      }
      return received;  // reset by the server: fine
    }
    received.append(buffer, static_cast<size_t>(n));
  }
}

std::string Exchange(std::string_view request) {
  const int fd = Connect(ServerPort());
  SendAll(fd, request.data(), request.size());
  shutdown(fd, SHUT_WR);
  std::string received = ReceiveUntilClosed(fd);
  close(fd);
  return received;
}

void Fail(const char* what, const std::string& received) {
  std::fprintf(stderr, "http_fuzz: %s: %.200s\n", what, received.c_str());
  std::abort();
}

// The status codes of the responses in `received`, in order, as far as they can be told
// apart by their Content-Length (a response to HEAD announces a body it does not carry:
// the walk stops where it no longer finds a status line).
std::vector<int> Statuses(const std::string& received) {
  std::vector<int> statuses;
  size_t at = 0;
  while (at + 12 <= received.size() && received.compare(at, 9, "HTTP/1.1 ") == 0) {
    const int status = std::atoi(received.substr(at + 9, 3).c_str());
    statuses.push_back(status);
    const size_t head_end = received.find("\r\n\r\n", at);
    if (head_end == std::string::npos) break;
    const std::string head = received.substr(at, head_end - at);
    size_t length = 0;
    if (const size_t field = head.find("\r\nContent-Length: "); field != std::string::npos) {
      length = std::strtoul(head.c_str() + field + 18, nullptr, 10);
    }
    at = head_end + 4 + (status == 100 ? 0 : length);
  }
  return statuses;
}

}  // namespace

extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16 * 1024) return -1;
  Built built;
  if (size > 0 && data[0] == kStructuredMarker) {
    built = BuildRequests(data + 1, size - 1);
  } else {
    built.bytes.assign(reinterpret_cast<const char*>(data), size);
  }
  const std::string received = Exchange(built.bytes);
  if (received.empty()) return 0;  // the client sent nothing, or only part of a request
  if (received.compare(0, 9, "HTTP/1.1 ") != 0) Fail("the answer is not HTTP/1.1", received);
  const std::vector<int> statuses = Statuses(received);
  if (std::find(statuses.begin(), statuses.end(), 500) != statuses.end()) {
    Fail("a 500", received);
  }
  // A wrong method case or Host is refused before the body (400); only a head past the
  // header limit (431) or a Content-Length past the body limit (413) is caught first.
  if (built.wrong_head && !statuses.empty() && statuses[0] != 400 && statuses[0] != 413 &&
      statuses[0] != 431) {
    Fail("a wrong head was not refused", received);
  }
  return 0;
}
