#include "http/session.h"

#include <algorithm>
#include <array>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/string.hpp>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "http/error_response.h"
#include "http/request_arena.h"
#include "http/request_head_rules.h"
#include "http/response_head.h"

namespace orrery::http {

namespace {

using PlainStream = SessionTcpStream;
using TlsStream = beast::ssl_stream<SessionTcpStream>;

// The first read of a request: large enough for a typical SDK request in one go.
constexpr size_t kReadChunkBytes = size_t{8} * 1024;
// A session hands the previous request's body buffer back to the parser to avoid an
// allocation per request, but does not keep a multi-megabyte one for an idle client.
constexpr size_t kMaxRetainedBodyCapacity = size_t{64} * 1024;
// How long a connection closed after an error keeps reading (and discarding) what
// the client still sends. Closing a socket with unread data makes the kernel send
// RST, and a client still writing a large body would then lose our 413 before it
// reads it.
constexpr std::chrono::seconds kLingerTimeout{2};
constexpr std::string_view kContinueResponse = "HTTP/1.1 100 Continue\r\n\r\n";

void AssignLowercase(beast::string_view text, std::string& out) {
  out.assign(text.data(), text.size());
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
}

// A syntax error in the request, as opposed to the client going away mid-request.
bool IsMalformedRequest(const error_code& ec) {
  return ec.category() == bhttp::make_error_code(bhttp::error::bad_target).category() &&
         ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message &&
         ec != bhttp::error::short_read;
}

// Invokes the Handler. An exception must not unwind into Asio (it would end the
// I/O thread), so it becomes a 500 for this request alone.
Response CallHandler(const Handler& handler, const Request& request) {
  try {
    Response response = handler(request);
    // 1xx from a Handler would be taken as interim and leave the client waiting.
    if (response.status < 200 || response.status > 999) {
      return MakeErrorResponse(500, "The server produced an invalid status code.");
    }
    return response;
  } catch (const std::exception&) {
    return MakeErrorResponse(500, "The server failed to process the request.");
  } catch (...) {
    return MakeErrorResponse(500, "The server failed to process the request.");
  }
}

template <typename Stream>
class Session : public std::enable_shared_from_this<Session<Stream>> {
 public:
  static constexpr bool kIsTls = std::is_same_v<Stream, TlsStream>;

  template <typename... StreamArgs>
  explicit Session(const SessionConfig& config, StreamArgs&&... stream_args)
      : stream_(std::forward<StreamArgs>(stream_args)...), config_(config) {}

  // The socket's executor serializes this session (listener.h); dispatching there first makes
  // every handler, including the first, run on it.
  void Start() {
    asio::dispatch(stream_.get_executor(),
                   beast::bind_front_handler(&Session::Begin, this->shared_from_this()));
  }

 private:
  SessionTcpStream& Lowest() { return beast::get_lowest_layer(stream_); }

  void Begin() {
    if constexpr (!kIsTls) {
      // Reads and writes are first tried at once (ParseBuffered, WriteNow); a socket
      // that would block hands over to the asynchronous operation.
      error_code ignored;
      Lowest().socket().non_blocking(true, ignored);
    }
    if constexpr (kIsTls) {
      Lowest().expires_after(config_.request_timeout);
      stream_.async_handshake(
          ssl::stream_base::server,
          beast::bind_front_handler(&Session::OnHandshake, this->shared_from_this()));
    } else {
      WaitForRequest();
    }
  }

  void OnHandshake(error_code ec) {
    if (ec) {
      return;  // not a TLS client, or it gave up: nothing to answer
    }
    WaitForRequest();
  }

  // Waiting for the first byte of a request runs under the idle timeout; from that
  // byte on, the request timeout applies, so a client that trickles a request in
  // (slow loris) cannot hold the connection for idle_timeout per byte.
  void WaitForRequest() {
    if (buffer_.size() > 0) {
      ReadHeader();  // a pipelined request is already here
      return;
    }
    Lowest().expires_after(config_.idle_timeout);
    stream_.async_read_some(
        buffer_.prepare(kReadChunkBytes),
        beast::bind_front_handler(&Session::OnFirstBytes, this->shared_from_this()));
  }

  void OnFirstBytes(error_code ec, size_t bytes) {
    if (ec) {
      return;  // idle timeout, the client closed, or the server is stopping
    }
    buffer_.commit(bytes);
    ReadHeader();
  }

  void PrepareParser() {
    std::string body = std::move(request_.body);
    body.clear();
    if (body.capacity() > kMaxRetainedBodyCapacity) {
      body = std::string();
    }
    // The previous request's fields go before their memory is handed out again.
    parser_.reset();
    arena_.Rewind();
    parser_.emplace(std::piecewise_construct, std::make_tuple(std::move(body)),
                    std::make_tuple(ArenaAllocator<char>(arena_)));
    parser_->header_limit(static_cast<uint32_t>(
        std::min<size_t>(config_.max_header_bytes, std::numeric_limits<uint32_t>::max())));
    parser_->body_limit(config_.max_body_bytes);
  }

  void ReadHeader() {
    PrepareParser();
    head_bytes_parsed_ = 0;
    head_read_async_ = false;
    if constexpr (!kIsTls) {
      error_code ec;
      if (ParseBuffered(&bhttp::basic_parser<true>::is_header_done, ec, head_bytes_parsed_)) {
        OnHeader(ec, 0);
        return;
      }
    }
    head_read_async_ = true;
    Lowest().expires_after(config_.request_timeout);
    bhttp::async_read_header(
        stream_, buffer_, *parser_,
        beast::bind_front_handler(&Session::OnHeader, this->shared_from_this()));
  }

  // What Beast's read does before it reads from the socket: parse the bytes buffer_
  // already holds. A whole request usually arrives in the read that found its first
  // byte, and parsing it here spares the asynchronous read's posted completion and its
  // timer. True when that settled the read: `finished` holds, or the parser failed
  // (`ec`); false when the parser needs bytes still to come (it keeps what it took).
  bool ParseBuffered(bool (bhttp::basic_parser<true>::*finished)() const, error_code& ec,
                     size_t& used) {
    while (!((*parser_).*finished)() && buffer_.size() > 0) {
      const size_t n = parser_->put(buffer_.data(), ec);
      used += n;
      buffer_.consume(n);
      if (ec == bhttp::error::need_more) {
        ec = {};
        return false;
      }
      if (ec) return true;
      if (n == 0) return false;
    }
    return ((*parser_).*finished)();
  }

  void OnHeader(error_code ec, size_t head_bytes) {
    head_bytes += head_bytes_parsed_;
    if (ec) {
      OnReadError(ec);
      return;
    }
    // Beast 1.74 counts a head that arrives over several reads as a whole, but one that
    // arrives in a single read only by part: the request line and the fields each within
    // the limit. With a limit below the first read's size (kReadChunkBytes) a head of
    // nearly twice the limit got through; `head_bytes` is all of it.
    if (head_bytes > config_.max_header_bytes) {
      OnReadError(bhttp::error::header_limit);
      return;
    }
    // Before the body is read (or 100-continue invites it): a refused head is answered
    // and the connection closed, whatever body follows.
    if (std::optional<HeadRejection> rejection = CheckRequestHead(parser_->get())) {
      Fail(rejection->status, rejection->message);
      return;
    }
    if (parser_->is_done()) {
      ServeRequest();
      return;
    }
    if (AsksToContinue()) {
      // curl and some HTTP libraries send "Expect: 100-continue" before a large body
      // and wait (about a second) for this interim response before sending it.
      asio::async_write(
          stream_, asio::buffer(kContinueResponse.data(), kContinueResponse.size()),
          beast::bind_front_handler(&Session::OnContinueWritten, this->shared_from_this()));
      return;
    }
    ReadBody();
  }

  bool AsksToContinue() {
    const auto& fields = parser_->get();
    const auto it = fields.find(bhttp::field::expect);
    return it != fields.end() && beast::iequals(it->value(), "100-continue");
  }

  void OnContinueWritten(error_code ec, size_t /*bytes*/) {
    if (ec) {
      return;
    }
    ReadBody();
  }

  void ReadBody() {
    if constexpr (!kIsTls) {
      error_code ec;
      size_t used = 0;
      if (ParseBuffered(&bhttp::basic_parser<true>::is_done, ec, used)) {
        OnBody(ec, used);
        return;
      }
      // The request timeout runs from the head's first byte; a head parsed from the
      // buffer started no timer.
      if (!head_read_async_) Lowest().expires_after(config_.request_timeout);
    }
    bhttp::async_read(stream_, buffer_, *parser_,
                      beast::bind_front_handler(&Session::OnBody, this->shared_from_this()));
  }

  void OnBody(error_code ec, size_t /*bytes*/) {
    if (ec) {
      OnReadError(ec);
      return;
    }
    ServeRequest();
  }

  // Limits and syntax errors get an answer; a client that vanished, a timeout or a
  // stopping server just end the session.
  void OnReadError(const error_code& ec) {
    if (ec == bhttp::error::header_limit) {
      Fail(431, "Request headers are larger than the limit of " +
                    std::to_string(config_.max_header_bytes) + " bytes.");
    } else if (ec == bhttp::error::body_limit) {
      Fail(413, "Request body is larger than the limit of " +
                    std::to_string(config_.max_body_bytes) + " bytes.");
    } else if (IsMalformedRequest(ec)) {
      Fail(400, MalformedRequestMessage(ec));
    }
  }

  // Answers with an error and closes: after a failed parse the position of the next
  // request in the byte stream is unknown.
  void Fail(int status, const std::string& message) {
    response_ = MakeErrorResponse(status, message);
    close_after_write_ = true;
    drain_on_close_ = true;
    omit_body_ = false;
    Write(ConnectionHeader::kClose);
  }

  void FillRequest() {
    auto& message = parser_->get();
    // CheckRequestHead let only upper-case methods through.
    request_.method.assign(message.method_string().data(), message.method_string().size());
    request_.target.assign(message.target().data(), message.target().size());
    // Reusing the Header strings keeps their capacity: no allocation per header once
    // a connection has seen a request of similar shape.
    size_t count = 0;
    for (const auto& field : message) {
      if (count == request_.headers.size()) {
        request_.headers.emplace_back();
      }
      Header& header = request_.headers[count++];
      AssignLowercase(field.name_string(), header.name);
      header.value.assign(field.value().data(), field.value().size());
    }
    request_.headers.resize(count);
    request_.body = std::move(message.body());
    request_.tls = kIsTls;
  }

  void ServeRequest() {
    FillRequest();
    WorkPool* pool = PoolFor(request_);
    if (pool == nullptr) {
      Respond(CallHandler(config_.handler, request_));
      return;
    }
    // The session does nothing else until the response is back on its strand: no read
    // is pending (a pipelined request waits in buffer_) and no timer runs, so the
    // worker may read request_ and the parser's head stays as it was.
    auto self = this->shared_from_this();
    pool->Submit([self] {
      Response response = CallHandler(self->config_.handler, self->request_);
      asio::post(self->stream_.get_executor(), [self, response = std::move(response)]() mutable {
        self->Respond(std::move(response));
      });
    });
    // A pool that is stopping drops the job, and with it this session: the server is
    // shutting down and the connection closes unanswered.
  }

  WorkPool* PoolFor(const Request& request) const {
    if (!config_.classify) return nullptr;
    switch (config_.classify(request)) {
      case WorkKind::kLong:
        return config_.long_pool;
      case WorkKind::kBlocking:
        return config_.blocking_pool;
      case WorkKind::kInline:
        break;
    }
    return nullptr;
  }

  void Respond(Response response) {
    const auto& message = parser_->get();
    bool keep_alive = message.keep_alive();
    const bool http10 = message.version() < 11;
    response_ = std::move(response);
    if (ResponseAsksToClose(response_)) {
      keep_alive = false;
    }
    close_after_write_ = !keep_alive;
    drain_on_close_ = false;
    // A response to HEAD announces the length of the body it does not carry.
    omit_body_ = request_.method == "HEAD";
    if (!keep_alive) {
      Write(ConnectionHeader::kClose);
    } else {
      Write(http10 ? ConnectionHeader::kKeepAlive : ConnectionHeader::kNone);
    }
  }

  // Head and body go out in one gather write (one TLS record batch): no copy of the
  // body, and no small separate segment for Nagle or delayed ACKs to hold back.
  //
  // Over TLS the two are first joined into one buffer: Beast 1.74's ssl_stream (its
  // flat_stream) loses the rest of a gather write whose buffers together pass 16 KB,
  // and the client waited forever for a large body. Encryption copies the bytes anyway.
  void Write(ConnectionHeader connection) {
    FormatResponseHead(response_, connection, head_);
    const bool with_body = StatusAllowsBody(response_.status) && !omit_body_;
    if constexpr (kIsTls) {
      if (with_body) {
        head_ += response_.body;
      }
    }
    std::array<asio::const_buffer, 2> buffers = {
        asio::buffer(head_),
        with_body && !kIsTls ? asio::buffer(response_.body) : asio::const_buffer()};
    if constexpr (!kIsTls) {
      if (WriteNow(buffers)) return;
    }
    // A client that stops reading its responses is cut off like a slow sender.
    Lowest().expires_after(config_.request_timeout);
    asio::async_write(stream_, buffers,
                      beast::bind_front_handler(&Session::OnWrite, this->shared_from_this()));
  }

  // Sends as much of `buffers` as the socket takes now, as the asynchronous write's
  // first attempt would, but without its posted completion and timer. True when that
  // settled the write (all sent, or the connection failed); otherwise `buffers` is left
  // holding what remains.
  bool WriteNow(std::array<asio::const_buffer, 2>& buffers) {
    error_code ec;
    size_t sent = 0;
    while (buffers[0].size() + buffers[1].size() > 0) {
      const size_t n = Lowest().socket().write_some(buffers, ec);
      if (ec) break;
      if (n == 0) return false;
      sent += n;
      const size_t from_head = std::min(n, buffers[0].size());
      buffers[0] += from_head;
      buffers[1] += n - from_head;
    }
    if (ec == asio::error::would_block || ec == asio::error::try_again) return false;
    if (buffer_.size() > 0) {
      // A pipelined request waits in the buffer: go on from the executor rather than
      // from inside this call, so that a long pipeline does not deepen the stack.
      asio::post(stream_.get_executor(),
                 beast::bind_front_handler(&Session::OnWrite, this->shared_from_this(), ec, sent));
    } else {
      OnWrite(ec, sent);
    }
    return true;
  }

  void OnWrite(error_code ec, size_t /*bytes*/) {
    if (ec) {
      return;
    }
    response_ = Response();  // an idle connection should not hold the last body
    if constexpr (kIsTls) {
      if (head_.capacity() > kMaxRetainedBodyCapacity) {
        std::string().swap(head_);  // nor its copy joined to the head
      }
    }
    if (close_after_write_) {
      Close();
      return;
    }
    WaitForRequest();
  }

  void Close() {
    if constexpr (kIsTls) {
      // close_notify tells the client the response is complete and untruncated.
      Lowest().expires_after(kLingerTimeout);
      stream_.async_shutdown(
          beast::bind_front_handler(&Session::OnTlsShutdown, this->shared_from_this()));
    } else {
      error_code ignored;
      Lowest().socket().shutdown(tcp::socket::shutdown_send, ignored);
      if (drain_on_close_) {
        Lowest().expires_after(kLingerTimeout);
        Drain();
      }
    }
  }

  void OnTlsShutdown(error_code /*ec*/) {}

  void Drain() {
    buffer_.clear();
    stream_.async_read_some(
        buffer_.prepare(kReadChunkBytes),
        beast::bind_front_handler(&Session::OnDrained, this->shared_from_this()));
  }

  void OnDrained(error_code ec, size_t /*bytes*/) {
    if (ec) {
      return;  // the client closed too, or kLingerTimeout passed
    }
    Drain();
  }

  Stream stream_;
  const SessionConfig& config_;
  beast::flat_buffer buffer_;                 // kept across requests: may hold pipelined bytes
  RequestArena arena_;                        // the parser's fields; outlives parser_
  std::optional<ArenaRequestParser> parser_;  // one per request
  Request request_;
  Response response_;
  std::string head_;
  size_t head_bytes_parsed_ = 0;  // of the current head, before an asynchronous read
  bool head_read_async_ = false;  // the request timeout is running
  bool close_after_write_ = false;
  bool drain_on_close_ = false;
  bool omit_body_ = false;
};

}  // namespace

void StartPlainSession(SessionSocket socket, const SessionConfig& config) {
  std::make_shared<Session<PlainStream>>(config, std::move(socket))->Start();
}

void StartTlsSession(SessionSocket socket, ssl::context& tls_context, const SessionConfig& config) {
  std::make_shared<Session<TlsStream>>(config, std::move(socket), tls_context)->Start();
}

}  // namespace orrery::http
