// The server runs each request where its Classifier says (server.h): these tests use
// one I/O thread, so a request that ran on it while another blocked would hang.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "http/server.h"
#include "http/test_client.h"
#include "http/test_server.h"

namespace orrery::http {
namespace {

using testing::TestClient;

// A gate handlers wait at until the test opens it.
class Gate {
 public:
  void Open() {
    {
      const std::lock_guard lock(mutex_);
      open_ = true;
    }
    changed_.notify_all();
  }
  void Wait() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;
};

// Targets name their kind: /long..., /blocking..., anything else inline.
WorkKind ByTarget(const Request& request) {
  if (request.target.starts_with("/long")) return WorkKind::kLong;
  if (request.target.starts_with("/blocking")) return WorkKind::kBlocking;
  return WorkKind::kInline;
}

ServerOptions OneIoThread() {
  return ServerOptions{.host = "127.0.0.1",
                       .port = 0,
                       .threads = 1,
                       .tls = false,
                       .classify = ByTarget,
                       .long_work_threads = 1,
                       .blocking_work_threads = 8};
}

std::unique_ptr<Server> StartServer(ServerOptions options, Handler handler) {
  return testing::StartTestServer(std::move(options), std::move(handler));
}

std::string Get(std::string_view target) {
  return "GET " + std::string(target) + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
}

Response Text(std::string body) {
  return Response{.status = 200, .headers = {}, .body = std::move(body)};
}

TEST(WorkDispatchTest, AnInlineRequestIsServedWhileALongOneRuns) {
  Gate gate;
  std::atomic<bool> long_started{false};
  auto server = StartServer(OneIoThread(), [&](const Request& request) {
    if (request.target == "/long") {
      long_started = true;
      gate.Wait();
    }
    return Text(request.target);
  });
  ASSERT_NE(server, nullptr);
  auto scanner = TestClient::Connect(server->port());
  auto reader = TestClient::Connect(server->port());
  ASSERT_NE(scanner, nullptr);
  ASSERT_NE(reader, nullptr);
  ASSERT_TRUE(scanner->Send(Get("/long")));
  while (!long_started.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(reader->Send(Get("/point")));
    const auto point = reader->ReadResponse();
    ASSERT_TRUE(point.has_value());
    EXPECT_EQ(point->body, "/point");
  }
  gate.Open();
  const auto scanned = scanner->ReadResponse();
  ASSERT_TRUE(scanned.has_value());
  EXPECT_EQ(scanned->body, "/long");
}

TEST(WorkDispatchTest, BlockingRequestsWaitTogether) {
  // Eight requests that each wait until all eight are inside: they complete only if
  // they run at once, as writes that should share one sync must.
  constexpr int kClients = 8;
  std::mutex mutex;
  std::condition_variable changed;
  int inside = 0;
  auto server = StartServer(OneIoThread(), [&](const Request& request) {
    std::unique_lock lock(mutex);
    ++inside;
    changed.notify_all();
    const bool all =
        changed.wait_for(lock, std::chrono::seconds(5), [&] { return inside >= kClients; });
    return Text(all ? "together" : "alone" + request.target);
  });
  ASSERT_NE(server, nullptr);
  std::vector<std::unique_ptr<TestClient>> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.push_back(TestClient::Connect(server->port()));
    ASSERT_NE(clients.back(), nullptr);
    ASSERT_TRUE(clients.back()->Send(Get("/blocking" + std::to_string(i))));
  }
  for (auto& client : clients) {
    const auto response = client->ReadResponse(std::chrono::milliseconds(10000));
    ASSERT_TRUE(response.has_value());
    EXPECT_EQ(response->body, "together");
  }
}

TEST(WorkDispatchTest, PipelinedRequestsOfEveryKindAreAnsweredInOrder) {
  auto server = StartServer(OneIoThread(), [](const Request& request) {
    if (request.target.starts_with("/long")) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return Text(request.target);
  });
  ASSERT_NE(server, nullptr);
  auto client = TestClient::Connect(server->port());
  ASSERT_NE(client, nullptr);
  const std::vector<std::string> targets = {"/long1", "/a", "/blocking1", "/long2", "/b"};
  std::string pipelined;
  for (const auto& target : targets) pipelined += Get(target);
  ASSERT_TRUE(client->Send(pipelined));
  for (const auto& target : targets) {
    const auto response = client->ReadResponse();
    ASSERT_TRUE(response.has_value()) << target;
    EXPECT_EQ(response->body, target);
  }
}

TEST(WorkDispatchTest, AHandlerExceptionOnAWorkerIsA500ForThatRequestAlone) {
  auto server = StartServer(OneIoThread(), [](const Request& request) -> Response {
    if (request.target == "/long-throw") throw std::runtime_error("boom");
    return Text("fine");
  });
  ASSERT_NE(server, nullptr);
  auto client = TestClient::Connect(server->port());
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->Send(Get("/long-throw")));
  const auto failed = client->ReadResponse();
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->status, 500);
  ASSERT_TRUE(client->Send(Get("/long")));
  const auto next = client->ReadResponse();
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->body, "fine");
}

TEST(WorkDispatchTest, StopWaitsForRunningWorkAndDropsQueuedWork) {
  Gate gate;
  std::atomic<bool> started{false};
  std::atomic<int> handled{0};
  auto server = StartServer(OneIoThread(), [&](const Request& request) {
    if (request.target == "/long-first") {
      started = true;
      gate.Wait();
    }
    handled.fetch_add(1);
    return Text(request.target);
  });
  ASSERT_NE(server, nullptr);
  auto first = TestClient::Connect(server->port());
  auto second = TestClient::Connect(server->port());
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  ASSERT_TRUE(first->Send(Get("/long-first")));
  while (!started.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  // The long pool's one thread is busy: this one queues behind it.
  ASSERT_TRUE(second->Send(Get("/long-second")));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::thread opener([&gate] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    gate.Open();
  });
  server->Stop();
  opener.join();
  EXPECT_EQ(handled.load(), 1);
  EXPECT_TRUE(second->WaitForClose(std::chrono::milliseconds(5000)));
}

}  // namespace
}  // namespace orrery::http
