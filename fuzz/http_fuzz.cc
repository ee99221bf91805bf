// libFuzzer target for the HTTP front end: the input is the raw bytes a client sends
// on one connection. They go over loopback TCP to a real http::Server (Beast's parser,
// the session's limits, keep-alive and pipelining, the response writer) whose handler
// is api::Service over the in-memory account of fuzz_world.h. The client then closes its
// sending side and reads until the server closes. Whatever comes back must be HTTP/1.1
// responses; crashes, sanitizer reports and a server that never closes (a hang) are bugs.
//
// Built with -DORRERY_FUZZ=ON (clang); run with `make fuzz`.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "fuzz_world.h"
#include "http/server.h"

namespace {

uint16_t ServerPort() {
  static const uint16_t port = [] {
    orrery::http::ServerOptions options;
    options.port = 0;
    options.threads = 1;
    options.tls = false;
    // Small limits, so that inputs of a few KB reach them.
    options.max_header_bytes = 2048;
    options.max_body_bytes = 8192;
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
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    std::perror("http_fuzz: connect");
    std::abort();
  }
  return fd;
}

// Sends everything (the server may close early, on a limit: then the rest is dropped).
void SendAll(int fd, const uint8_t* data, size_t size) {
  while (size > 0) {
    const ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
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
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        std::fprintf(stderr, "http_fuzz: the server kept the connection open for 6 s\n");
        std::abort();
      }
      return received;  // reset by the server: fine
    }
    received.append(buffer, static_cast<size_t>(n));
  }
}

}  // namespace

extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16 * 1024) return -1;
  const int fd = Connect(ServerPort());
  SendAll(fd, data, size);
  shutdown(fd, SHUT_WR);
  const std::string received = ReceiveUntilClosed(fd);
  close(fd);
  if (!received.empty() && received.compare(0, 9, "HTTP/1.1 ") != 0) {
    std::fprintf(stderr, "http_fuzz: the answer is not HTTP/1.1: %.80s\n", received.c_str());
    std::abort();
  }
  return 0;
}
