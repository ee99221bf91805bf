#pragma once

// One client connection: reads HTTP/1.1 requests one after the other (pipelined
// ones included), calls the Handler for each and writes its response, until the
// client closes, a limit or timeout is hit, or the io_context is stopped.

#include <chrono>
#include <cstddef>

#include "http/beast.h"
#include "http/server.h"
#include "http/work_pool.h"

namespace orrery::http {

// What every session of one server shares. Must outlive all sessions.
struct SessionConfig {
  Handler handler;
  size_t max_header_bytes = 0;
  size_t max_body_bytes = 0;
  // Between requests, before the first byte of the next one arrives.
  std::chrono::steady_clock::duration idle_timeout{};
  // From a request's first byte until it is fully read; also bounds writing a response
  // and the TLS handshake.
  std::chrono::steady_clock::duration request_timeout{};
  // Where the Handler call of each request runs; without a Classifier (or a pool for
  // its kind), on the I/O thread.
  Classifier classify;
  WorkPool* long_pool = nullptr;
  WorkPool* blocking_pool = nullptr;
};

// Starts serving `socket` in the background; the session keeps itself alive through
// its pending operations and closes the socket when done, or when the io_context is
// destroyed. REQUIRES: `socket` belongs to an io_context that one thread runs, so that
// the session's handlers never run concurrently. `config` (and `tls_context`)
// outlive the session.
void StartPlainSession(SessionSocket socket, const SessionConfig& config);
void StartTlsSession(SessionSocket socket, ssl::context& tls_context, const SessionConfig& config);

}  // namespace orrery::http
