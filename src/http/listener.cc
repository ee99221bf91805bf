#include "http/listener.h"

#include <boost/asio/socket_base.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <chrono>

namespace orrery::http {

namespace {

// Running out of file descriptors makes accept fail at once, again and again; a short
// pause lets connections close instead of spinning a core on the failure.
constexpr std::chrono::milliseconds kAcceptRetryDelay{100};

Status ListenError(const tcp::endpoint& endpoint, const error_code& ec) {
  return Status::IoError("cannot listen on " + FormatEndpoint(endpoint) + ": " + ec.message());
}

}  // namespace

std::string FormatEndpoint(const tcp::endpoint& endpoint) {
  const std::string address = endpoint.address().to_string();
  const std::string port = std::to_string(endpoint.port());
  return endpoint.address().is_v6() ? "[" + address + "]:" + port : address + ":" + port;
}

Listener::Listener(asio::io_context& io_context, ssl::context* tls_context,
                   const SessionConfig& config)
    : acceptor_(asio::make_strand(io_context)),
      retry_timer_(acceptor_.get_executor()),
      tls_context_(tls_context),
      config_(config) {}

Result<std::shared_ptr<Listener>> Listener::Open(asio::io_context& io_context,
                                                 const tcp::endpoint& endpoint,
                                                 ssl::context* tls_context,
                                                 const SessionConfig& config,
                                                 std::vector<asio::io_context*> session_contexts) {
  auto listener = std::make_shared<Listener>(io_context, tls_context, config);
  if (session_contexts.empty()) session_contexts.push_back(&io_context);
  listener->session_contexts_ = std::move(session_contexts);
  tcp::acceptor& acceptor = listener->acceptor_;
  error_code ec;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) {
    // A restarted server can bind while connections of the previous one linger in
    // TIME_WAIT.
    acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  }
  if (!ec) {
    acceptor.bind(endpoint, ec);
  }
  if (!ec) {
    acceptor.listen(asio::socket_base::max_listen_connections, ec);
  }
  if (ec) {
    return ListenError(endpoint, ec);
  }
  const tcp::endpoint bound = acceptor.local_endpoint(ec);
  if (ec) {
    return ListenError(endpoint, ec);
  }
  listener->port_ = bound.port();
  return listener;
}

void Listener::Start() { Accept(); }

void Listener::Accept() {
  // Each connection goes to one of the session io_contexts, in turn. Its handlers must
  // never run concurrently: a context only one thread runs sees to that.
  asio::io_context& target = *session_contexts_[next_context_++ % session_contexts_.size()];
  acceptor_.async_accept(target.get_executor(),
                         beast::bind_front_handler(&Listener::OnAccept, shared_from_this()));
}

void Listener::OnAccept(error_code ec, SessionSocket socket) {
  if (ec == asio::error::operation_aborted) {
    return;  // the acceptor was closed
  }
  if (ec) {
    retry_timer_.expires_after(kAcceptRetryDelay);
    retry_timer_.async_wait([self = shared_from_this()](error_code wait_ec) {
      if (!wait_ec) {
        self->Accept();
      }
    });
    return;
  }
  // Small responses must leave at once rather than wait for an ACK of the previous
  // segment (Nagle); every write is a whole response anyway.
  socket.set_option(tcp::no_delay(true), ec);
  if (tls_context_ != nullptr) {
    StartTlsSession(std::move(socket), *tls_context_, config_);
  } else {
    StartPlainSession(std::move(socket), config_);
  }
  Accept();
}

}  // namespace orrery::http
