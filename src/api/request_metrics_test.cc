#include "api/request_metrics.h"

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

namespace orrery::api {
namespace {

http::Request Make(std::string method, std::string target, std::vector<http::Header> headers = {}) {
  http::Request r;
  r.method = std::move(method);
  r.target = std::move(target);
  r.headers = std::move(headers);
  return r;
}

std::pair<std::string, std::string> Op(const http::Request& r) {
  const RequestMetrics::Operation op = RequestMetrics::Classify(r);
  return {std::string(op.resource), std::string(op.name)};
}

TEST(RequestMetricsTest, ClassifiesRequestsByResourceTypeAndOperation) {
  using P = std::pair<std::string, std::string>;
  EXPECT_EQ(Op(Make("GET", "/")), P("account", "Read"));
  EXPECT_EQ(Op(Make("GET", "/dbs")), P("dbs", "ReadFeed"));
  EXPECT_EQ(Op(Make("POST", "/dbs")), P("dbs", "Create"));
  EXPECT_EQ(Op(Make("DELETE", "/dbs/a")), P("dbs", "Delete"));
  EXPECT_EQ(Op(Make("GET", "/dbs/a/colls/b")), P("colls", "Read"));
  EXPECT_EQ(Op(Make("GET", "/dbs/a/colls/b/pkranges")), P("pkranges", "ReadFeed"));
  EXPECT_EQ(Op(Make("POST", "/dbs/a/colls/b/docs")), P("docs", "Create"));
  EXPECT_EQ(Op(Make("POST", "/dbs/a/colls/b/docs", {{"x-ms-documentdb-is-upsert", "True"}})),
            P("docs", "Upsert"));
  EXPECT_EQ(Op(Make("POST", "/dbs/a/colls/b/docs", {{"x-ms-documentdb-isquery", "true"}})),
            P("docs", "Query"));
  EXPECT_EQ(Op(Make("POST", "/dbs/a/colls/b/docs", {{"content-type", "application/query+json"}})),
            P("docs", "Query"));
  EXPECT_EQ(Op(Make("POST", "/dbs/a/colls/b/docs", {{"x-ms-cosmos-is-batch-request", "True"}})),
            P("docs", "Batch"));
  EXPECT_EQ(Op(Make("GET", "/dbs/a/colls/b/docs/c?x=1")), P("docs", "Read"));
  EXPECT_EQ(Op(Make("PUT", "/dbs/a/colls/b/docs/c")), P("docs", "Replace"));
  EXPECT_EQ(Op(Make("PATCH", "/dbs/a/colls/b/docs/c")), P("docs", "Patch"));
  EXPECT_EQ(Op(Make("GET", "/offers")), P("offers", "ReadFeed"));
  EXPECT_EQ(Op(Make("GET", "/_orrery/dbs/a/colls/b/stats")), P("admin", "Read"));
  EXPECT_EQ(Op(Make("GET", "/dbs/a/colls/b/sprocs/s")), P("sprocs", "Read"));
  EXPECT_EQ(Op(Make("GET", "/dbs/a/whatever")), P("other", "ReadFeed"));
  EXPECT_EQ(Op(Make("GET", "//dbs//a/")), P("dbs", "Read"));
}

TEST(RequestMetricsTest, RendersCountersChargesAndCumulativeBuckets) {
  engine::AccountOptions options;
  options.store.in_memory = true;
  options.background_ttl_purge = false;
  options.background_splits = false;
  std::unique_ptr<engine::Account> account = std::move(engine::Account::Open(options)).value();
  RequestMetrics metrics;
  const RequestMetrics::Operation read{"docs", "Read"};
  metrics.Record(read, 200, 1, 0.0004);
  metrics.Record(read, 200, 1, 0.003);
  metrics.Record(read, 429, 0, 20);  // beyond the last bucket: +Inf only
  metrics.Record({"docs", "Create"}, 201, 5.71, 0.002);
  const std::string text = metrics.Render(*account);
  const auto has = [&](const std::string& line) {
    return text.find("\n" + line + "\n") != std::string::npos;
  };
  EXPECT_TRUE(has(R"(orrery_requests_total{resource="docs",operation="Read",status="200"} 2)"));
  EXPECT_TRUE(has(R"(orrery_requests_total{resource="docs",operation="Read",status="429"} 1)"));
  EXPECT_TRUE(has(R"(orrery_request_charge_total{resource="docs",operation="Create"} 5.71)"));
  EXPECT_TRUE(has(R"(orrery_throttled_requests_total{resource="docs",operation="Read"} 1)"));
  EXPECT_TRUE(has(
      R"(orrery_request_duration_seconds_bucket{resource="docs",operation="Read",le="0.0005"} 1)"));
  EXPECT_TRUE(has(
      R"(orrery_request_duration_seconds_bucket{resource="docs",operation="Read",le="0.005"} 2)"));
  EXPECT_TRUE(
      has(R"(orrery_request_duration_seconds_bucket{resource="docs",operation="Read",le="10"} 2)"));
  EXPECT_TRUE(has(
      R"(orrery_request_duration_seconds_bucket{resource="docs",operation="Read",le="+Inf"} 3)"));
  EXPECT_TRUE(has(R"(orrery_request_duration_seconds_count{resource="docs",operation="Read"} 3)"));
  EXPECT_TRUE(has("# TYPE orrery_request_duration_seconds histogram"));
}

TEST(RequestMetricsTest, RequestsFromManyThreadsAreAllCounted) {
  engine::AccountOptions options;
  options.store.in_memory = true;
  options.background_ttl_purge = false;
  options.background_splits = false;
  std::unique_ptr<engine::Account> account = std::move(engine::Account::Open(options)).value();
  for (int instance = 0; instance < 2; ++instance) {  // a second one counts from zero
    RequestMetrics metrics;
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < 1000; ++i) metrics.Record({"docs", "Read"}, 200, 1, 0.001);
      });
    }
    for (std::thread& t : threads) t.join();
    metrics.Record({"docs", "Read"}, 200, 1, 0.001);  // and this thread's
    const std::string text = metrics.Render(*account);
    EXPECT_NE(text.find("\norrery_requests_total{resource=\"docs\",operation=\"Read\",status="
                        "\"200\"} 4001\n"),
              std::string::npos)
        << text.substr(0, 400);
  }
}

}  // namespace
}  // namespace orrery::api
