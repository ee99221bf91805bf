// A plain session parses the bytes it already holds and writes its response at once,
// and hands over to asynchronous reads and writes only when the socket has nothing more
// for it or takes no more (session.cc: ParseBuffered, WriteNow). These tests force each
// hand-over: a request that arrives in pieces, a response larger than the socket takes,
// a long pipeline, and a body that never completes.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "http/server.h"
#include "http/test_client.h"
#include "http/test_server.h"

namespace orrery::http {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::TestClient;

constexpr size_t kLargeBodyBytes = size_t{16} << 20;

// Echoes method, target and body; /large answers kLargeBodyBytes of a repeating pattern.
Response EchoOrLarge(const Request& request) {
  if (request.target == "/large") {
    std::string body(kLargeBodyBytes, '\0');
    for (size_t i = 0; i < body.size(); ++i) body[i] = static_cast<char>('a' + i % 26);
    return Response{.status = 200, .headers = {}, .body = std::move(body)};
  }
  return Response{.status = 200,
                  .headers = {},
                  .body = request.method + " " + request.target + " " + request.body};
}

// A plain server with two I/O threads and one client connected to it (tests call
// Connect under ASSERT_NO_FATAL_FAILURE: a server that did not start ends the test).
class PartialIoTest : public ::testing::Test {
 protected:
  void Connect(ServerOptions options = {}) {
    options.host = "127.0.0.1";
    options.port = 0;
    options.threads = 2;
    options.tls = false;
    server_ = testing::StartTestServer(std::move(options), EchoOrLarge);
    ASSERT_NE(server_, nullptr);
    client_ = testing::ConnectTo(*server_);
    ASSERT_NE(client_, nullptr);
  }

  std::unique_ptr<Server> server_;
  std::unique_ptr<TestClient> client_;
};

TEST_F(PartialIoTest, AHeadAndBodyArrivingInPiecesAreReadWhole) {
  ASSERT_NO_FATAL_FAILURE(Connect());
  // The first piece ends inside the head, the second inside the body.
  const std::string pieces[] = {"POST /pieces HTTP/1.1\r\nHost: x\r\nConte",
                                "nt-Length: 11\r\n\r\nhello", " world"};
  for (const std::string& piece : pieces) {
    ASSERT_TRUE(client_->Send(piece));
    std::this_thread::sleep_for(milliseconds(50));
  }
  const auto response = client_->ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->body, "POST /pieces hello world");
}

TEST_F(PartialIoTest, ABodySentAfterItsHeadIsRead) {
  ASSERT_NO_FATAL_FAILURE(Connect());
  ASSERT_TRUE(client_->Send("POST /later HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\n"));
  std::this_thread::sleep_for(milliseconds(50));
  ASSERT_TRUE(client_->Send("body"));
  const auto response = client_->ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->body, "POST /later body");
}

TEST_F(PartialIoTest, AResponseLargerThanTheSocketTakesArrivesWholeToASlowReader) {
  ASSERT_NO_FATAL_FAILURE(Connect());
  ASSERT_TRUE(client_->Send("GET /large HTTP/1.1\r\nHost: x\r\n\r\n"));
  // The server's first write fills the socket buffers long before 16 MB.
  std::this_thread::sleep_for(milliseconds(300));
  const auto large = client_->ReadResponse(seconds(30));
  ASSERT_TRUE(large.has_value());
  ASSERT_EQ(large->body.size(), kLargeBodyBytes);
  for (size_t i = 0; i < large->body.size(); i += 4099) {
    ASSERT_EQ(large->body[i], static_cast<char>('a' + i % 26)) << "at byte " << i;
  }
  EXPECT_EQ(large->body.back(), static_cast<char>('a' + (kLargeBodyBytes - 1) % 26));
  // The connection goes on.
  ASSERT_TRUE(client_->Send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n"));
  const auto after = client_->ReadResponse();
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->body, "GET /after ");
}

TEST_F(PartialIoTest, AnswersAThousandPipelinedRequestsInOrder) {
  ASSERT_NO_FATAL_FAILURE(Connect());
  std::string pipeline;
  for (int i = 0; i < 1000; ++i) {
    pipeline += "GET /" + std::to_string(i) + " HTTP/1.1\r\nHost: x\r\n\r\n";
  }
  ASSERT_TRUE(client_->Send(pipeline));
  for (int i = 0; i < 1000; ++i) {
    const auto response = client_->ReadResponse();
    ASSERT_TRUE(response.has_value()) << "response " << i;
    ASSERT_EQ(response->body, "GET /" + std::to_string(i) + " ");
  }
}

TEST_F(PartialIoTest, ABodyThatNeverCompletesIsCutOffAtTheRequestTimeout) {
  ServerOptions options;
  options.idle_timeout = seconds(30);
  options.request_timeout = seconds(1);
  ASSERT_NO_FATAL_FAILURE(Connect(options));
  // The head arrives whole with the first bytes; the body stops halfway.
  ASSERT_TRUE(client_->Send("POST /stuck HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhalf"));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(client_->WaitForClose(seconds(10)));
  EXPECT_LT(std::chrono::steady_clock::now() - start, seconds(5));
}

}  // namespace
}  // namespace orrery::http
