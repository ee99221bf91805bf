#pragma once

// The HTTP(S) front end: accepts connections, parses HTTP/1.1 requests with limits,
// calls one Handler per request and writes its response, honouring keep-alive.
// Knows bytes and HTTP only; Boost.Beast/Asio and OpenSSL stay inside src/http/.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/http_message.h"
#include "common/status.h"

namespace orrery::http {

// Called concurrently from several threads (I/O threads and worker threads, as the
// Classifier says): must be thread-safe.
using Handler = std::function<Response(const Request&)>;
// Says where a request's Handler call runs; called on an I/O thread before it, so it
// must be cheap (look at the method, target and headers, nothing more). Thread-safe.
using Classifier = std::function<WorkKind(const Request&)>;

struct ServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8081;  // 0 picks a free port; see Server::port()
  int threads = 0;       // 0 = two per core
  bool tls = true;
  // "= {}" keeps GCC's -Wmissing-field-initializers quiet for designated initializers
  // that leave these out.
  std::string tls_cert_file = {};  // PEM; with tls_key_file, used instead of a generated one
  std::string tls_key_file = {};
  // Where a generated self-signed certificate is kept (cert.pem, key.pem); empty =
  // generate one in memory at each start.
  std::string generated_cert_dir = {};
  size_t max_header_bytes = size_t{64} * 1024;
  size_t max_body_bytes = size_t{4} * 1024 * 1024;
  std::chrono::seconds idle_timeout{120};
  std::chrono::seconds request_timeout{60};  // to receive a whole request once started
  // Empty: every request runs inline, on its I/O thread.
  Classifier classify = {};
  // Threads for WorkKind::kLong; 0 = one per core. Fewer than the connections that may
  // scan at once: the pool bounds the CPU that scans take, and queues the rest.
  int long_work_threads = 0;
  // Their scheduling priority below the I/O threads' (nice, 0..19): a scan yields the
  // cores to point requests rather than taking turns with them.
  int long_work_nice = 5;
  // Threads for WorkKind::kBlocking. As many as the writes that should share one sync:
  // the store commits concurrent writers together, but only those that wait at once.
  int blocking_work_threads = 64;
};

// Thread-safe: Stop() may be called from any thread (e.g. a signal watcher).
class Server {
 public:
  virtual ~Server() = default;
  // Binds and starts serving on background threads. Errors: a clear one-line message
  // for an unusable address/port or unreadable certificate.
  static Result<std::unique_ptr<Server>> Start(ServerOptions options, Handler handler);

  virtual uint16_t port() const = 0;
  // The TLS certificate it serves (PEM); empty without TLS.
  virtual const std::string& certificate_pem() const = 0;
  // Stops accepting, closes connections, joins the threads. Idempotent; a concurrent
  // second call returns once the first is done. REQUIRES: not called from a Handler
  // (it joins the I/O thread the Handler runs on). The destructor calls it.
  virtual void Stop() = 0;
  // Blocks until SIGINT or SIGTERM arrives (then returns; the caller calls Stop()), or
  // until Stop() is called. The signals are caught only while it waits; on return
  // their default action is restored, so a second Ctrl-C ends a stuck shutdown.
  virtual void WaitForSignal() = 0;
  // Starts catching SIGINT and SIGTERM now, so that a signal arriving before
  // WaitForSignal() (right after the ready line, say) is not lost to the default
  // action. WaitForSignal() calls it if nobody has.
  virtual void CatchSignals() = 0;
};

}  // namespace orrery::http
