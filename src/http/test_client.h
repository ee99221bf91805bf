#pragma once

// A minimal blocking HTTP/1.1 client over a raw socket (optionally TLS through
// OpenSSL directly) for the http tests: it sends exactly the bytes a test gives, so
// tests can pipeline, truncate or oversize requests. Every read is bounded by a
// deadline, so a server bug fails a test instead of hanging it. Test-only.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/server.h"

namespace orrery::http::testing {

struct ClientResponse {
  int status = 0;
  std::vector<Header> headers;  // names lowercased
  std::string body;

  const std::string* Find(std::string_view lowercase_name) const {
    for (const Header& header : headers) {
      if (header.name == lowercase_name) {
        return &header.value;
      }
    }
    return nullptr;
  }
};

struct ClientTlsOptions {
  std::string ca_file;      // PEM to verify the server against; empty = no verification
  std::string server_name;  // SNI and the name verified, e.g. "localhost"
};

class TestClient {
 public:
  static constexpr std::chrono::milliseconds kDefaultTimeout{5000};

  ~TestClient() {
    if (ssl_ != nullptr) {
      SSL_free(ssl_);
    }
    if (ssl_context_ != nullptr) {
      SSL_CTX_free(ssl_context_);
    }
    if (fd_ >= 0) {
      ::close(fd_);
    }
  }

  // Connects to 127.0.0.1:`port`; nullptr on failure (the reason in `error`).
  static std::unique_ptr<TestClient> Connect(uint16_t port, std::string* error = nullptr) {
    auto client = std::unique_ptr<TestClient>(new TestClient());
    client->fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (client->fd_ < 0 ||
        ::connect(client->fd_, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
      if (error != nullptr) {
        *error = std::string("connect: ") + std::strerror(errno);
      }
      return nullptr;
    }
    return client;
  }

  // Connects and completes a TLS handshake; nullptr on failure (reason in `error`).
  static std::unique_ptr<TestClient> ConnectTls(uint16_t port, const ClientTlsOptions& options,
                                                std::string* error = nullptr) {
    auto client = Connect(port, error);
    if (client == nullptr) {
      return nullptr;
    }
    if (!client->Handshake(options)) {
      if (error != nullptr) {
        char reason[256] = "handshake failed";
        if (const unsigned long code = ERR_get_error(); code != 0) {
          ERR_error_string_n(code, reason, sizeof(reason));
        }
        *error = reason;
      }
      ERR_clear_error();
      return nullptr;
    }
    return client;
  }

  bool Send(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t sent = 0;
      if (ssl_ != nullptr) {
        sent = SSL_write(ssl_, bytes.data(), static_cast<int>(bytes.size()));
      } else {
        sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      }
      if (sent <= 0) {
        return false;
      }
      bytes.remove_prefix(static_cast<size_t>(sent));
    }
    return true;
  }

  // Reads one response framed by Content-Length (or without a body; always without
  // one when !expect_body, as after HEAD); nullopt on timeout, close or a malformed
  // response.
  std::optional<ClientResponse> ReadResponse(std::chrono::milliseconds timeout = kDefaultTimeout,
                                             bool expect_body = true) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    size_t head_end = 0;
    while ((head_end = buffer_.find("\r\n\r\n")) == std::string::npos) {
      if (ReadMore(deadline) <= 0) {
        return std::nullopt;
      }
    }
    std::optional<ClientResponse> response = ParseHead(buffer_.substr(0, head_end + 2));
    if (!response) {
      return std::nullopt;
    }
    buffer_.erase(0, head_end + 4);
    const std::string* length = response->Find("content-length");
    const size_t body_bytes = length == nullptr || !expect_body ? 0 : std::stoul(*length);
    while (buffer_.size() < body_bytes) {
      if (ReadMore(deadline) <= 0) {
        return std::nullopt;
      }
    }
    response->body = buffer_.substr(0, body_bytes);
    buffer_.erase(0, body_bytes);
    return response;
  }

  // True when the server closes the connection (EOF or reset) within `timeout`;
  // bytes received meanwhile are discarded.
  bool WaitForClose(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      const ssize_t n = ReadMore(deadline);
      if (n == 0 || n == kReset) {
        return true;
      }
      if (n == kTimedOut) {
        return false;
      }
      buffer_.clear();
    }
  }

 private:
  static constexpr ssize_t kTimedOut = -1;
  static constexpr ssize_t kReset = -2;

  TestClient() = default;

  bool Handshake(const ClientTlsOptions& options) {
    ssl_context_ = SSL_CTX_new(TLS_client_method());
    if (ssl_context_ == nullptr) {
      return false;
    }
    if (!options.ca_file.empty()) {
      if (SSL_CTX_load_verify_locations(ssl_context_, options.ca_file.c_str(), nullptr) != 1) {
        return false;
      }
      SSL_CTX_set_verify(ssl_context_, SSL_VERIFY_PEER, nullptr);
    }
    ssl_ = SSL_new(ssl_context_);
    if (ssl_ == nullptr || SSL_set_fd(ssl_, fd_) != 1) {
      return false;
    }
    if (!options.server_name.empty()) {
      SSL_set_tlsext_host_name(ssl_, options.server_name.c_str());
      if (!options.ca_file.empty()) {
        SSL_set1_host(ssl_, options.server_name.c_str());
      }
    }
    return SSL_connect(ssl_) == 1;
  }

  // Appends what arrives before `deadline` to buffer_: the byte count, 0 on a clean
  // close, kTimedOut or kReset.
  ssize_t ReadMore(std::chrono::steady_clock::time_point deadline) {
    char chunk[16384];
    for (;;) {
      if (ssl_ == nullptr || SSL_pending(ssl_) == 0) {
        const auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (remaining.count() <= 0) {
          return kTimedOut;
        }
        pollfd poll_fd{.fd = fd_, .events = POLLIN, .revents = 0};
        const int ready = ::poll(&poll_fd, 1, static_cast<int>(remaining.count()));
        if (ready == 0) {
          return kTimedOut;
        }
        if (ready < 0) {
          continue;  // EINTR
        }
      }
      ssize_t n = 0;
      if (ssl_ != nullptr) {
        n = SSL_read(ssl_, chunk, sizeof(chunk));
        if (n <= 0) {
          const int reason = SSL_get_error(ssl_, static_cast<int>(n));
          ERR_clear_error();
          if (reason == SSL_ERROR_WANT_READ) {
            continue;
          }
          return reason == SSL_ERROR_ZERO_RETURN ? 0 : kReset;
        }
      } else {
        n = ::recv(fd_, chunk, sizeof(chunk), 0);
        if (n < 0) {
          return errno == EINTR ? ReadMore(deadline) : kReset;
        }
        if (n == 0) {
          return 0;
        }
      }
      buffer_.append(chunk, static_cast<size_t>(n));
      return n;
    }
  }

  static std::optional<ClientResponse> ParseHead(std::string_view head) {
    ClientResponse response;
    size_t line_end = head.find("\r\n");
    const std::string_view status_line = head.substr(0, line_end);
    if (status_line.substr(0, 9) != "HTTP/1.1 " || status_line.size() < 12) {
      return std::nullopt;
    }
    response.status = std::stoi(std::string(status_line.substr(9, 3)));
    head.remove_prefix(line_end + 2);
    while (!head.empty()) {
      line_end = head.find("\r\n");
      const std::string_view line = head.substr(0, line_end);
      const size_t colon = line.find(':');
      if (colon == std::string_view::npos) {
        return std::nullopt;
      }
      Header header{std::string(line.substr(0, colon)), std::string(line.substr(colon + 1))};
      for (char& c : header.name) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      header.value.erase(0, header.value.find_first_not_of(' '));
      response.headers.push_back(std::move(header));
      head.remove_prefix(line_end + 2);
    }
    return response;
  }

  int fd_ = -1;
  SSL_CTX* ssl_context_ = nullptr;
  SSL* ssl_ = nullptr;
  std::string buffer_;  // received, not yet consumed
};

}  // namespace orrery::http::testing
