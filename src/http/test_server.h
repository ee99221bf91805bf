#pragma once

// Starting a server and connecting to it, for the http tests: a failure fails the test
// and yields null. Test-only.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "http/server.h"
#include "http/test_client.h"

namespace orrery::http::testing {

inline std::unique_ptr<Server> StartTestServer(ServerOptions options, Handler handler) {
  Result<std::unique_ptr<Server>> server = Server::Start(std::move(options), std::move(handler));
  EXPECT_TRUE(server.ok()) << server.status().ToString();
  return server.ok() ? std::move(server).value() : nullptr;
}

inline std::unique_ptr<TestClient> ConnectTo(const Server& server) {
  std::string error;
  auto client = TestClient::Connect(server.port(), &error);
  EXPECT_NE(client, nullptr) << error;
  return client;
}

}  // namespace orrery::http::testing
