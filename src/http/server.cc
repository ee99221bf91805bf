#include "http/server.h"

#include <algorithm>
#include <condition_variable>
#include <csignal>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "common/log.h"
#include "common/stack.h"
#include "http/beast.h"
#include "http/listener.h"
#include "http/session.h"
#include "http/tls_context.h"
#include "http/work_pool.h"

namespace orrery::http {

namespace {

constexpr int kIoThreadsPerCore = 2;  // ThreadCount() says why

// The Server behind the interface: `threads` I/O threads, each running an io_context of
// its own, one Listener that hands each connection to them in turn, and the TLS context
// and session config every session refers to. One io_context per thread rather than one
// shared by all: a completion never wakes another thread to run it (with one shared
// context, the cross-thread wake-ups cost point requests about a fifth of their CPU).
// Thread-safe: Stop() and WaitForSignal() may be called from any thread.
class ServerImpl final : public Server {
 public:
  ServerImpl(ServerOptions options, Handler handler);
  ~ServerImpl() override { Stop(); }

  // Resolves the address, prepares TLS, listens, then starts the I/O threads.
  Status Init();

  uint16_t port() const override { return port_; }
  const std::string& certificate_pem() const override { return certificate_pem_; }
  void Stop() override;
  void WaitForSignal() override;
  void CatchSignals() override;

 private:
  void CatchSignalsLocked();  // REQUIRES: mutex_ held
  int ThreadCount() const;
  Result<tcp::endpoint> ResolveEndpoint();
  void RunIoThread(asio::io_context& io_context);

  const ServerOptions options_;
  SessionConfig config_;
  // Declared before io_contexts_: sessions refer to it until the io_contexts are gone.
  std::unique_ptr<ssl::context> tls_context_;
  // The first also runs the listener and the signal handler.
  std::vector<std::unique_ptr<asio::io_context>> io_contexts_;
  // Keep each io_context running while it has no connection.
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> keep_running_;
  std::shared_ptr<Listener> listener_;
  // Request handlers run here, so their stacks are sized for the deepest request the
  // limits admit (common/stack.h), not left to `ulimit -s`.
  std::vector<Thread> threads_;
  // Where classified requests run (README.md, "Where a request runs"); null without a
  // Classifier. Stopped after the I/O threads, before the io_context goes: their queued
  // jobs hold sessions, whose sockets belong to it.
  std::unique_ptr<WorkPool> long_pool_;
  std::unique_ptr<WorkPool> blocking_pool_;
  uint16_t port_ = 0;
  std::string certificate_pem_;  // set by Init, then only read

  // Serializes Stop() calls, so a second one returns only once the first is done.
  std::mutex stop_mutex_;
  std::mutex mutex_;
  std::condition_variable state_changed_;
  bool stopped_ = false;                     // guarded by mutex_
  bool signaled_ = false;                    // guarded by mutex_
  std::optional<asio::signal_set> signals_;  // guarded by mutex_
};

ServerImpl::ServerImpl(ServerOptions options, Handler handler)
    : options_(std::move(options)),
      config_{.handler = std::move(handler),
              .max_header_bytes = options_.max_header_bytes,
              .max_body_bytes = options_.max_body_bytes,
              .idle_timeout = options_.idle_timeout,
              .request_timeout = options_.request_timeout,
              .classify = options_.classify} {
  const int threads = ThreadCount();
  for (int i = 0; i < threads; ++i) io_contexts_.push_back(std::make_unique<asio::io_context>(1));
}

int ServerImpl::ThreadCount() const {
  if (options_.threads > 0) {
    return options_.threads;
  }
  // Two per core: with one, a thread that found no request left slept and its core was
  // woken for the next one; those wake-ups were 29% of a point read's CPU, 10% with two
  // (point reads ~1.33x faster, writes 2-5% dearer in CPU; http/README.md).
  return kIoThreadsPerCore * std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// A literal address is used as is; a name is resolved, preferring IPv4 because the
// SDKs' default endpoint, https://localhost:8081, is commonly tried as 127.0.0.1.
Result<tcp::endpoint> ServerImpl::ResolveEndpoint() {
  error_code ec;
  const asio::ip::address address = asio::ip::make_address(options_.host, ec);
  if (!ec) {
    return tcp::endpoint(address, options_.port);
  }
  tcp::resolver resolver(*io_contexts_.front());
  const auto results =
      resolver.resolve(options_.host, std::to_string(options_.port), tcp::resolver::passive, ec);
  if (ec || results.empty()) {
    return Status::IoError("cannot listen on " + options_.host + ":" +
                           std::to_string(options_.port) + ": " +
                           (ec ? ec.message() : std::string("host not found")));
  }
  for (const auto& entry : results) {
    if (entry.endpoint().address().is_v4()) {
      return entry.endpoint();
    }
  }
  return results.begin()->endpoint();
}

Status ServerImpl::Init() {
  ORRERY_ASSIGN_OR_RETURN(const tcp::endpoint endpoint, ResolveEndpoint());
  if (options_.tls) {
    ORRERY_ASSIGN_OR_RETURN(tls_context_, MakeTlsContext(options_, &certificate_pem_));
  }
  std::vector<asio::io_context*> session_contexts;
  for (const auto& io_context : io_contexts_) session_contexts.push_back(io_context.get());
  ORRERY_ASSIGN_OR_RETURN(listener_, Listener::Open(*io_contexts_.front(), endpoint,
                                                    tls_context_.get(), config_, session_contexts));
  port_ = listener_->port();
  if (options_.classify) {
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    long_pool_ = std::make_unique<WorkPool>(
        options_.long_work_threads > 0 ? options_.long_work_threads : cores,
        options_.long_work_nice);
    blocking_pool_ = std::make_unique<WorkPool>(options_.blocking_work_threads, 0);
    config_.long_pool = long_pool_.get();
    config_.blocking_pool = blocking_pool_.get();
  }
  listener_->Start();
  threads_.reserve(io_contexts_.size());
  for (const auto& io_context : io_contexts_) {
    keep_running_.push_back(asio::make_work_guard(*io_context));
    asio::io_context* context = io_context.get();
    threads_.emplace_back(kRequestThreadStackBytes, [this, context] { RunIoThread(*context); });
  }
  return Status::Ok();
}

// Handlers never let exceptions out, but Beast or Asio may (std::bad_alloc); losing
// an I/O thread silently would slowly stall the server, so it reports and goes on.
void ServerImpl::RunIoThread(asio::io_context& io_context) {
  for (;;) {
    try {
      io_context.run();
      return;
    } catch (const std::exception& e) {
      Log(LogLevel::kError, std::string("unexpected exception on an HTTP I/O thread: ") + e.what());
    }
  }
}

void ServerImpl::Stop() {
  const std::lock_guard stop_lock(stop_mutex_);
  {
    const std::lock_guard lock(mutex_);
    if (stopped_) {
      return;
    }
    stopped_ = true;
  }
  state_changed_.notify_all();
  // Stopping the io_context rather than closing each socket: no handler runs after
  // stop(), so there is no session registry to keep and nothing to wait for.
  keep_running_.clear();
  for (const auto& io_context : io_contexts_) io_context->stop();
  for (Thread& thread : threads_) {
    thread.join();
  }
  threads_.clear();
  // Jobs still running finish and post their responses to the stopped io_context,
  // which drops them; queued ones are dropped unrun.
  if (long_pool_) long_pool_->Stop();
  if (blocking_pool_) blocking_pool_->Stop();
  {
    const std::lock_guard lock(mutex_);
    signals_.reset();
  }
  listener_.reset();
  // Destroying the io_context destroys the pending handlers, and with them the last
  // references to the listener and every session: the acceptor and all connections
  // close here.
  io_contexts_.clear();
}

void ServerImpl::CatchSignals() {
  const std::lock_guard lock(mutex_);
  CatchSignalsLocked();
}

void ServerImpl::CatchSignalsLocked() {
  if (stopped_ || signals_) {
    return;
  }
  signals_.emplace(*io_contexts_.front(), SIGINT, SIGTERM);
  signals_->async_wait([this](error_code ec, int /*signal*/) {
    if (ec) {
      return;
    }
    {
      const std::lock_guard handler_lock(mutex_);
      signaled_ = true;
    }
    state_changed_.notify_all();
  });
}

void ServerImpl::WaitForSignal() {
  std::unique_lock lock(mutex_);
  if (stopped_) {
    return;
  }
  // Installed on demand rather than in Start(), so that a process that never waits
  // (a test) keeps the default SIGINT behaviour.
  CatchSignalsLocked();
  state_changed_.wait(lock, [this] { return signaled_ || stopped_; });
  if (signals_) {
    // Restores the default dispositions: a second Ctrl-C during a slow shutdown kills
    // the process, as users expect.
    error_code ignored;
    signals_->clear(ignored);
  }
}

}  // namespace

Result<std::unique_ptr<Server>> Server::Start(ServerOptions options, Handler handler) {
  // Asio reports a few resource failures (creating an epoll or a socket) by throwing;
  // no exception may cross this header.
  try {
    auto server = std::make_unique<ServerImpl>(std::move(options), std::move(handler));
    ORRERY_RETURN_IF_ERROR(server->Init());
    return std::unique_ptr<Server>(std::move(server));
  } catch (const std::exception& e) {
    return Status::IoError(std::string("cannot start the HTTP server: ") + e.what());
  }
}

}  // namespace orrery::http
