#pragma once

// The one place src/http/ includes Boost.Asio, Boost.Beast and Asio's OpenSSL layer,
// with the short aliases the module uses. Internal to src/http/: no header outside
// this folder may include it, so the third-party types stop at the module's edge.

// Boost 1.74 Asio under GCC 12 in C++20 uses std::exchange and friends without
// including <utility> itself; it must come first. (clang-format off: include sorting
// would move it below the Boost headers.)
// clang-format off
#include <utility>
// clang-format on

// ThreadSanitizer cannot model the standalone fences Asio places around handler
// invocation (GCC 12 even rejects them under -Werror=tsan). They only reinforce the
// mutex hand-off of Asio's queues, which TSan does see, so TSan builds go without.
#if defined(__SANITIZE_THREAD__)
#define BOOST_ASIO_DISABLE_FENCED_BLOCK 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BOOST_ASIO_DISABLE_FENCED_BLOCK 1
#endif
#endif

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

namespace orrery::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace ssl = boost::asio::ssl;
using tcp = boost::asio::ip::tcp;
using error_code = boost::system::error_code;

// A session runs on an io_context that one thread runs (listener.h), so its socket and
// stream name that context's executor type rather than the type-erased any_io_executor,
// whose copies, destructions and prefer() calls on every operation were 2.5% of a point
// read's CPU (bench/README.md, stop 38).
using SessionExecutor = asio::io_context::executor_type;
using SessionSocket = tcp::socket::rebind_executor<SessionExecutor>::other;
using SessionTcpStream = beast::basic_stream<tcp, SessionExecutor>;

}  // namespace orrery::http
