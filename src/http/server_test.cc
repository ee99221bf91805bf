#include "http/server.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <stdexcept>
#include <thread>

#include "http/test_client.h"
#include "http/test_server.h"

namespace orrery::http {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::ClientResponse;
using testing::ConnectTo;
using testing::TestClient;

ServerOptions PlainOptions() {
  return ServerOptions{.host = "127.0.0.1", .port = 0, .threads = 2, .tls = false};
}

// Echoes what the server parsed, so tests can check the Request it built.
Response Echo(const Request& request) {
  const std::string* custom = request.FindHeader("x-custom");
  return Response{
      .status = 200,
      .headers = {{"Content-Type", "text/plain"}, {"x-ms-echo", "yes"}},
      .body = request.method + " " + request.target + " custom=" + (custom ? *custom : "-") +
              " tls=" + (request.tls ? "1" : "0") + " body=" + request.body,
  };
}

std::unique_ptr<Server> StartServer(ServerOptions options, Handler handler = Echo) {
  return testing::StartTestServer(std::move(options), std::move(handler));
}

std::string Get(std::string_view target) {
  return "GET " + std::string(target) + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
}

std::string Post(std::string_view target, std::string_view body) {
  return "POST " + std::string(target) +
         " HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n\r\n" + std::string(body);
}

void ExpectJsonError(const ClientResponse& response, int status, std::string_view code) {
  EXPECT_EQ(response.status, status);
  ASSERT_NE(response.Find("content-type"), nullptr);
  EXPECT_EQ(*response.Find("content-type"), "application/json");
  EXPECT_EQ(response.body.find(R"({"code":")" + std::string(code) + R"(","message":")"), 0u)
      << response.body;
  ASSERT_NE(response.Find("x-ms-request-charge"), nullptr);
  EXPECT_EQ(*response.Find("x-ms-request-charge"), "0");
  ASSERT_NE(response.Find("x-ms-activity-id"), nullptr);
  EXPECT_EQ(response.Find("x-ms-activity-id")->size(), 36u);
}

TEST(ServerTest, AnswersWithTheHandlersResponse) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(
      client->Send("POST /dbs/a%20b?x=1 HTTP/1.1\r\nHost: localhost\r\nX-Custom: Value\r\n"
                   "Content-Length: 5\r\n\r\nhello"));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->body, "POST /dbs/a%20b?x=1 custom=Value tls=0 body=hello");
  ASSERT_NE(response->Find("x-ms-echo"), nullptr);
  EXPECT_EQ(*response->Find("x-ms-echo"), "yes");
  EXPECT_EQ(*response->Find("content-length"), std::to_string(response->body.size()));
}

TEST(ServerTest, ServesSeveralRequestsOnOneKeepAliveConnection) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Get("/first")));
  const auto first = client->ReadResponse();
  ASSERT_TRUE(client->Send(Post("/second", "{}")));
  const auto second = client->ReadResponse();
  ASSERT_TRUE(first.has_value() && second.has_value());
  EXPECT_EQ(first->body, "GET /first custom=- tls=0 body=");
  EXPECT_EQ(second->body, "POST /second custom=- tls=0 body={}");
  EXPECT_EQ(first->Find("connection"), nullptr);
}

TEST(ServerTest, AnswersPipelinedRequestsInOrder) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Post("/a", "1") + Get("/b") + Post("/c", "3")));
  for (const char* expected : {"POST /a", "GET /b", "POST /c"}) {
    const auto response = client->ReadResponse();
    ASSERT_TRUE(response.has_value());
    EXPECT_EQ(response->body.find(expected), 0u) << response->body;
  }
}

TEST(ServerTest, ReadsAChunkedBody) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(
      client->Send("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                   "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->body, "POST /c custom=- tls=0 body=abcde");
}

TEST(ServerTest, RejectsAnOversizedBodyWith413AndCloses) {
  ServerOptions options = PlainOptions();
  options.max_body_bytes = 16;
  auto server = StartServer(options);
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Post("/big", std::string(100, 'x'))));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  ExpectJsonError(*response, 413, "RequestEntityTooLarge");
  EXPECT_EQ(*response->Find("connection"), "close");
  EXPECT_TRUE(client->WaitForClose(seconds(5)));
}

// The client is still sending when the 413 goes out; the server must read and drop
// the rest rather than reset the connection, or the client would lose the answer.
TEST(ServerTest, Delivers413ToAClientStillSendingALargeBody) {
  ServerOptions options = PlainOptions();
  options.max_body_bytes = 1024;
  auto server = StartServer(options);
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Post("/big", std::string(4 * 1024 * 1024, 'x'))));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  ExpectJsonError(*response, 413, "RequestEntityTooLarge");
}

TEST(ServerTest, RejectsAnOversizedChunkedBodyWith413) {
  ServerOptions options = PlainOptions();
  options.max_body_bytes = 16;
  auto server = StartServer(options);
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
                           std::string("14\r\n") + std::string(20, 'y') + "\r\n0\r\n\r\n"));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  ExpectJsonError(*response, 413, "RequestEntityTooLarge");
}

TEST(ServerTest, AcceptsABodyOfExactlyTheLimit) {
  ServerOptions options = PlainOptions();
  options.max_body_bytes = 16;
  auto server = StartServer(options);
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Post("/ok", std::string(16, 'z'))));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->status, 200);
}

TEST(ServerTest, RejectsOversizedHeadersWith431) {
  ServerOptions options = PlainOptions();
  options.max_header_bytes = 1024;
  auto server = StartServer(options);
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(
      client->Send("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(2000, 'h') + "\r\n\r\n"));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  ExpectJsonError(*response, 431, "RequestHeaderFieldsTooLarge");
  EXPECT_TRUE(client->WaitForClose(seconds(5)));
}

// The limit counts the whole head, request line and final blank line included.
TEST(ServerTest, HoldsTheWholeHeadToTheHeaderLimit) {
  ServerOptions options = PlainOptions();
  options.max_header_bytes = 1024;
  auto server = StartServer(options);
  ASSERT_NE(server, nullptr);
  const std::string start = "GET /limit HTTP/1.1\r\nHost: x\r\nX-Pad: ";
  const auto head = [&start](size_t bytes) {
    return start + std::string(bytes - start.size() - 4, 'p') + "\r\n\r\n";
  };
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(head(1024)));
  const auto at_limit = client->ReadResponse();
  ASSERT_TRUE(at_limit.has_value());
  EXPECT_EQ(at_limit->status, 200);
  ASSERT_TRUE(client->Send(head(1025)));
  const auto past_limit = client->ReadResponse();
  ASSERT_TRUE(past_limit.has_value());
  ExpectJsonError(*past_limit, 431, "RequestHeaderFieldsTooLarge");
  // A request line and header fields each under the limit, together over it (Beast alone
  // would let this through).
  auto second = ConnectTo(*server);
  ASSERT_NE(second, nullptr);
  ASSERT_TRUE(second->Send("GET /" + std::string(700, 't') +
                           " HTTP/1.1\r\nHost: x\r\nX-Pad: " + std::string(700, 'p') + "\r\n\r\n"));
  const auto split = second->ReadResponse();
  ASSERT_TRUE(split.has_value());
  ExpectJsonError(*split, 431, "RequestHeaderFieldsTooLarge");
  EXPECT_TRUE(second->WaitForClose(seconds(5)));
}

// Many short header lines within the byte limit are served; the API sees every one.
TEST(ServerTest, ServesThousandsOfHeaderLinesWithinTheLimit) {
  auto server = StartServer(PlainOptions(), [](const Request& request) {
    return Response{.status = 200, .headers = {}, .body = std::to_string(request.headers.size())};
  });
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  std::string request = "GET / HTTP/1.1\r\nHost: x\r\n";
  for (int i = 0; i < 5000; ++i) request += "a:\r\n";
  ASSERT_TRUE(client->Send(request + "\r\n"));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->body, "5001");
}

TEST(ServerTest, RejectsAMalformedRequestWith400) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  ExpectJsonError(*response, 400, "BadRequest");
  EXPECT_TRUE(client->WaitForClose(seconds(5)));
}

// Answers one request that the server must refuse before the handler runs: `status`
// with the JSON error body naming `fragment`, then the connection is closed, and
// nothing that followed the head (a body, a pipelined or smuggled request) was served.
void ExpectRefusedAndClosed(std::string_view request, int status, std::string_view fragment) {
  std::atomic<int> handled{0};
  auto server = StartServer(PlainOptions(), [&handled](const Request& r) {
    handled.fetch_add(1);
    return Echo(r);
  });
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(request));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value()) << request;
  ExpectJsonError(*response, status, status == 501 ? "NotImplemented" : "BadRequest");
  EXPECT_NE(response->body.find(fragment), std::string::npos) << response->body;
  ASSERT_NE(response->Find("connection"), nullptr);
  EXPECT_EQ(*response->Find("connection"), "close");
  EXPECT_TRUE(client->WaitForClose(seconds(5))) << request;
  EXPECT_EQ(handled.load(), 0) << request;
}

TEST(ServerTest, RefusesAMethodNotInUpperCase) {
  ExpectRefusedAndClosed("get / HTTP/1.1\r\nHost: x\r\n\r\n", 400, "'get' is not valid");
  ExpectRefusedAndClosed(Post("/p", "{}").replace(0, 4, "Post"), 400, "use 'POST'");
}

TEST(ServerTest, RefusesAnHttp11RequestWithoutHost) {
  ExpectRefusedAndClosed("GET /dbs HTTP/1.1\r\n\r\n", 400, "no Host header");
}

TEST(ServerTest, RefusesTwoHostHeadersOrAnInvalidOne) {
  ExpectRefusedAndClosed("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "2 Host headers");
  ExpectRefusedAndClosed("GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400,
                         "The Host header 'a b' is not a valid host[:port]");
  ExpectRefusedAndClosed("GET / HTTP/1.1\r\nHost: x:70000\r\n\r\n", 400, "'x:70000'");
}

// HTTP/1.0 clients need not send Host (RFC 9112 §3.2 asks it of HTTP/1.1).
TEST(ServerTest, ServesAnHttp10RequestWithoutHost) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send("GET /old HTTP/1.0\r\n\r\n"));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->body, "GET /old custom=- tls=0 body=");
}

// A body two parties could frame differently: the bytes after the head must never be
// taken for a request of their own.
TEST(ServerTest, RefusesConflictingFramingAndServesNothingSmuggled) {
  const std::string smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
  ExpectRefusedAndClosed(
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n"
      "Content-Length: " +
          std::to_string(smuggled.size()) + "\r\n\r\n" + smuggled,
      400, "both Transfer-Encoding and Content-Length");
  ExpectRefusedAndClosed(
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
      "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n" +
          smuggled,
      400, "Transfer-Encoding");
  ExpectRefusedAndClosed(
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
      "Content-Length: 5\r\n\r\n0\r\n\r\n" +
          smuggled,
      400, "Content-Length");
  ExpectRefusedAndClosed(
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
      "Content-Length: " +
          std::to_string(smuggled.size()) + "\r\n\r\n" + smuggled,
      400, "Content-Length");
  ExpectRefusedAndClosed(
      "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled, 400, "HTTP/1.0");
  ExpectRefusedAndClosed(
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n" + smuggled, 400,
      "not chunked");
  ExpectRefusedAndClosed(
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501,
      "'gzip' is not supported");
}

TEST(ServerTest, RefusesNumbersThatOverflowInTheFraming) {
  ExpectRefusedAndClosed(
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n", 400,
      "Content-Length header must be one decimal number");
  ExpectRefusedAndClosed("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello", 400,
                         "Content-Length");
  // A chunk size beyond 64 bits.
  ExpectRefusedAndClosed(
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
      "10000000000000000\r\nx\r\n0\r\n\r\n",
      400, "Malformed HTTP request");
}

// A refused head is answered before the body is invited: no 100 Continue first.
TEST(ServerTest, RefusesABadHeadWithoutInvitingTheBody) {
  ExpectRefusedAndClosed("PUT /e HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n",
                         400, "no Host header");
}

// The same length twice is one length (RFC 9110 §8.6 lets a recipient take it so).
TEST(ServerTest, AcceptsTheSameContentLengthTwice) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(
      "POST /twice HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok"));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->body, "POST /twice custom=- tls=0 body=ok");
}

TEST(ServerTest, ClosesAnIdleConnectionAfterTheIdleTimeout) {
  ServerOptions options = PlainOptions();
  options.idle_timeout = seconds(1);
  auto server = StartServer(options);
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Get("/")));
  ASSERT_TRUE(client->ReadResponse().has_value());
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(client->WaitForClose(seconds(5)));
  EXPECT_GE(std::chrono::steady_clock::now() - start, milliseconds(900));
}

TEST(ServerTest, ClosesARequestThatIsNotCompleteInTime) {
  ServerOptions options = PlainOptions();
  options.idle_timeout = seconds(30);
  options.request_timeout = seconds(1);
  auto server = StartServer(options);
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send("GET / HTTP/1.1\r\nHost: x\r\n"));  // never finished
  EXPECT_TRUE(client->WaitForClose(seconds(5)));
}

TEST(ServerTest, ClosesAfterAnsweringConnectionClose) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send("GET /bye HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(*response->Find("connection"), "close");
  EXPECT_TRUE(client->WaitForClose(seconds(5)));
}

TEST(ServerTest, KeepsAnHttp10ConnectionOpenOnlyWhenAsked) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
  const auto first = client->ReadResponse();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first->Find("connection"), "keep-alive");
  ASSERT_TRUE(client->Send("GET /b HTTP/1.0\r\n\r\n"));
  const auto second = client->ReadResponse();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(*second->Find("connection"), "close");
  EXPECT_TRUE(client->WaitForClose(seconds(5)));
}

TEST(ServerTest, ClosesWhenTheHandlerAsksTo) {
  auto server = StartServer(PlainOptions(), [](const Request&) {
    return Response{.status = 200, .headers = {{"Connection", "close"}}, .body = "x"};
  });
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Get("/")));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(*response->Find("connection"), "close");
  EXPECT_TRUE(client->WaitForClose(seconds(5)));
}

TEST(ServerTest, SendsNoBodyWith204AndStaysInSync) {
  auto server = StartServer(PlainOptions(), [](const Request& request) {
    if (request.method == "DELETE") {
      return Response{.status = 204, .headers = {}, .body = "ignored"};
    }
    return Response{.status = 200, .headers = {}, .body = "after"};
  });
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send("DELETE /x HTTP/1.1\r\nHost: x\r\n\r\n" + Get("/y")));
  const auto deleted = client->ReadResponse();
  const auto after = client->ReadResponse();
  ASSERT_TRUE(deleted.has_value() && after.has_value());
  EXPECT_EQ(deleted->status, 204);
  EXPECT_EQ(deleted->Find("content-length"), nullptr);
  EXPECT_EQ(after->body, "after");
}

TEST(ServerTest, AnswersHeadWithTheLengthButNoBody) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send("HEAD /h HTTP/1.1\r\nHost: x\r\n\r\n"));
  // The client reads no body after HEAD: read the head alone by asking for nothing more.
  ASSERT_TRUE(client->Send(Get("/next")));
  const auto head = client->ReadResponse(TestClient::kDefaultTimeout, /*expect_body=*/false);
  const auto next = client->ReadResponse();
  ASSERT_TRUE(head.has_value() && next.has_value());
  EXPECT_EQ(head->status, 200);
  EXPECT_NE(*head->Find("content-length"), "0");
  EXPECT_EQ(next->body, "GET /next custom=- tls=0 body=");
}

TEST(ServerTest, AnswersExpectContinueBeforeTheBody) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(
      "PUT /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n"));
  const auto interim = client->ReadResponse();
  ASSERT_TRUE(interim.has_value());
  EXPECT_EQ(interim->status, 100);
  ASSERT_TRUE(client->Send("data"));
  const auto response = client->ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->body, "PUT /e custom=- tls=0 body=data");
}

TEST(ServerTest, TurnsAHandlerExceptionInto500) {
  auto server = StartServer(PlainOptions(), [](const Request& request) -> Response {
    if (request.target == "/throw") {
      throw std::runtime_error("boom");
    }
    return Response{.status = 200, .headers = {}, .body = "fine"};
  });
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Get("/throw")));
  const auto failed = client->ReadResponse();
  ASSERT_TRUE(failed.has_value());
  ExpectJsonError(*failed, 500, "InternalServerError");
  ASSERT_TRUE(client->Send(Get("/ok")));
  const auto next = client->ReadResponse();
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->body, "fine");
}

TEST(ServerTest, ServesManyConcurrentClients) {
  std::atomic<int> handled{0};
  auto server = StartServer(PlainOptions(), [&handled](const Request& request) {
    handled.fetch_add(1);
    return Response{.status = 200, .headers = {}, .body = request.target};
  });
  ASSERT_NE(server, nullptr);
  constexpr int kClients = 8;
  constexpr int kRequestsPerClient = 200;
  std::atomic<int> correct{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      auto client = TestClient::Connect(server->port());
      for (int i = 0; client != nullptr && i < kRequestsPerClient; ++i) {
        const std::string target = "/c" + std::to_string(c) + "/r" + std::to_string(i);
        if (!client->Send(Get(target))) {
          return;
        }
        const auto response = client->ReadResponse();
        if (response && response->body == target) {
          correct.fetch_add(1);
        }
      }
    });
  }
  for (std::thread& thread : clients) {
    thread.join();
  }
  EXPECT_EQ(correct.load(), kClients * kRequestsPerClient);
  EXPECT_EQ(handled.load(), kClients * kRequestsPerClient);
}

TEST(ServerTest, PicksAFreePortForPortZero) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  EXPECT_NE(server->port(), 0);
}

TEST(ServerTest, ReportsAPortInUse) {
  auto first = StartServer(PlainOptions());
  ASSERT_NE(first, nullptr);
  ServerOptions options = PlainOptions();
  options.port = first->port();
  const Result<std::unique_ptr<Server>> second = Server::Start(options, Echo);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kIoError);
  EXPECT_EQ(
      second.status().message(),
      "cannot listen on 127.0.0.1:" + std::to_string(first->port()) + ": Address already in use");
}

TEST(ServerTest, ReportsAnAddressItCannotUse) {
  ServerOptions options = PlainOptions();
  options.host = "192.0.2.1";  // TEST-NET-1: never a local address
  const Result<std::unique_ptr<Server>> server = Server::Start(options, Echo);
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.status().message(),
            "cannot listen on 192.0.2.1:0: Cannot assign requested address");
}

TEST(ServerTest, StopClosesOpenConnectionsAndIsIdempotent) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  auto client = ConnectTo(*server);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Get("/")));
  ASSERT_TRUE(client->ReadResponse().has_value());
  server->Stop();
  EXPECT_TRUE(client->WaitForClose(seconds(5)));
  server->Stop();
  EXPECT_EQ(TestClient::Connect(server->port()), nullptr);
}

TEST(ServerTest, StopEndsAWaitForSignal) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  std::thread waiter([&] { server->WaitForSignal(); });
  server->Stop();
  waiter.join();
}

// Polls the disposition of SIGTERM until it is no longer the default, i.e. until
// WaitForSignal has installed its handler; bounded so a bug fails instead of hanging.
bool WaitForSigtermHandler() {
  for (int i = 0; i < 5000; ++i) {
    struct sigaction action {};
    ::sigaction(SIGTERM, nullptr, &action);
    if (action.sa_handler != SIG_DFL) {
      return true;
    }
    std::this_thread::sleep_for(milliseconds(1));
  }
  return false;
}

TEST(ServerTest, WaitForSignalReturnsOnSigtermAndRestoresTheDefault) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  std::atomic<bool> returned{false};
  std::thread waiter([&] {
    server->WaitForSignal();
    returned = true;
  });
  if (!WaitForSigtermHandler()) {
    server->Stop();  // unblocks the waiter
    waiter.join();
    FAIL() << "WaitForSignal did not install a SIGTERM handler";
  }
  // Sent to the waiting thread itself: the handler then runs on the thread that
  // installed it, which ThreadSanitizer can see is ordered (it does not model the
  // ordering sigaction gives across threads).
  ASSERT_EQ(::pthread_kill(waiter.native_handle(), SIGTERM), 0);
  waiter.join();
  EXPECT_TRUE(returned.load());
  struct sigaction action {};
  ::sigaction(SIGTERM, nullptr, &action);
  EXPECT_EQ(action.sa_handler, SIG_DFL);
  server->Stop();
}

// The serve command catches signals before printing its ready line: a SIGTERM that
// arrives between the two must still end the wait rather than kill the process.
TEST(ServerTest, SignalCaughtBeforeTheWaitIsNotLost) {
  auto server = StartServer(PlainOptions());
  ASSERT_NE(server, nullptr);
  server->CatchSignals();
  struct sigaction action {};
  ::sigaction(SIGTERM, nullptr, &action);
  ASSERT_NE(action.sa_handler, SIG_DFL);
  ASSERT_EQ(::raise(SIGTERM), 0);
  std::thread waiter([&] { server->WaitForSignal(); });
  waiter.join();
  ::sigaction(SIGTERM, nullptr, &action);
  EXPECT_EQ(action.sa_handler, SIG_DFL);
  server->Stop();
}

}  // namespace
}  // namespace orrery::http
