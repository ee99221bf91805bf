#pragma once

// Accepts connections on one address and starts a session for each.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "http/beast.h"
#include "http/session.h"

namespace orrery::http {

// Owned by the Server and by its own pending accept; runs on its own strand.
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  // Opens, binds (with SO_REUSEADDR) and listens on `endpoint`. With `tls_context`
  // set every connection speaks TLS. `config` and `tls_context` outlive the listener
  // and its sessions. Errors: IoError "cannot listen on <address>: <reason>", e.g.
  // "cannot listen on 127.0.0.1:8081: Address already in use".
  // The listener accepts on `io_context`; its sessions run on `session_contexts` in
  // turn (empty: on `io_context` too). One thread runs each of them, so a session needs
  // no strand of its own.
  static Result<std::shared_ptr<Listener>> Open(
      asio::io_context& io_context, const tcp::endpoint& endpoint, ssl::context* tls_context,
      const SessionConfig& config, std::vector<asio::io_context*> session_contexts = {});

  // The bound port: the one the system chose when the endpoint's port was 0.
  uint16_t port() const { return port_; }

  // Starts accepting in the background, until the io_context stops.
  void Start();

  // Use Open().
  Listener(asio::io_context& io_context, ssl::context* tls_context, const SessionConfig& config);

 private:
  void Accept();
  void OnAccept(error_code ec, SessionSocket socket);

  std::vector<asio::io_context*> session_contexts_;
  size_t next_context_ = 0;  // on the acceptor's strand
  tcp::acceptor acceptor_;
  asio::steady_timer retry_timer_;
  ssl::context* const tls_context_;
  const SessionConfig& config_;
  uint16_t port_ = 0;
};

// "127.0.0.1:8081", or "[::1]:8081" for IPv6, as shown in messages.
std::string FormatEndpoint(const tcp::endpoint& endpoint);

}  // namespace orrery::http
