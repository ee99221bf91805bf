#pragma once

// Prometheus metrics, served at GET /metrics in the text exposition format (0.0.4): the
// requests served since the server started (by resource type, operation and status:
// counts, request charge, 429s, a latency histogram), and what each container holds
// now (items, bytes and logical partitions, per container and per physical partition;
// each partition's charge and 429s; splits and TTL purges). Read without a key, as a
// Prometheus server scrapes; it tells counts and sizes, never data. Thread-safe.

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "common/http_message.h"
#include "engine/account.h"

namespace orrery::api {

class RequestMetrics {
 public:
  // What a request asks for, as its labels: the resource type its path names ("docs",
  // "colls", "dbs", "pkranges", "offers", "account", "admin") and the operation
  // ("Read", "ReadFeed", "Create", "Upsert", "Replace", "Patch", "Delete", "Query",
  // "Batch").
  // Views of static names: counting a request allocates nothing.
  struct Operation {
    std::string_view resource;
    std::string_view name;
  };
  static Operation Classify(const http::Request& request);

  void Record(const Operation& operation, int status, double charge, double seconds);

  // The exposition, with the gauges of `account`'s containers.
  std::string Render(const engine::Account& account) const;

  // Upper bounds of the latency histogram's buckets, in seconds (+Inf follows).
  static constexpr std::array<double, 14> kBuckets = {
      0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

 private:
  struct Series {
    uint64_t requests = 0;
    double charge = 0;
    double seconds = 0;
    std::array<uint64_t, kBuckets.size()> buckets{};  // not cumulative
  };
  using Key = std::tuple<std::string_view, std::string_view, int>;  // resource, operation, status

  // One shard per thread that records, so that the I/O threads never wait for each
  // other: a shard's lock is contended only by a scrape.
  struct Shard {
    std::mutex mutex;
    std::map<Key, Series> series;
  };
  Shard& ShardOfThisThread();

  // Tells this instance from any other, even one at the same address after it: the
  // threads' shard lists are keyed by it.
  const uint64_t id_ = NextId();
  static uint64_t NextId();
  mutable std::mutex shards_mutex_;
  std::vector<std::unique_ptr<Shard>> shards_;
};

}  // namespace orrery::api
