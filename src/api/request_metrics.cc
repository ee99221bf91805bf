#include "api/request_metrics.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <string_view>
#include <vector>

#include "api/headers.h"
#include "engine/partition_statistics.h"

namespace orrery::api {
namespace {

// The resource types a path may name, as label values; any other is "other".
constexpr std::array<std::string_view, 11> kResourceTypes = {
    "dbs",         "colls",  "docs",     "pkranges", "offers",   "users",
    "permissions", "sprocs", "triggers", "udfs",     "conflicts"};

std::string_view ResourceLabel(std::string_view segment) {
  for (std::string_view type : kResourceTypes) {
    if (segment == type) return type;
  }
  return "other";
}

bool HeaderIsTrue(const http::Request& request, std::string_view name) {
  const std::string* v = request.FindHeader(name);
  return v != nullptr && (*v == "true" || *v == "True" || *v == "TRUE");
}

// A label value as the text format writes it: backslash, double quote and newline
// escaped.
std::string Escaped(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

// The shortest text that reads back as the same double (0.0005, not 0.00050000000000000001).
std::string Number(double value) {
  char buffer[400];
  std::to_chars_result written =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  if (written.ec != std::errc()) written = std::to_chars(buffer, buffer + sizeof buffer, value);
  return written.ec == std::errc() ? std::string(buffer, written.ptr) : std::string("NaN");
}

void Describe(std::string& out, std::string_view name, std::string_view type,
              std::string_view help) {
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

void Sample(std::string& out, std::string_view name, const std::string& labels, double value) {
  out += name;
  if (!labels.empty()) out += "{" + labels + "}";
  out += ' ';
  out += Number(value);
  out += '\n';
}

std::string Labels(std::initializer_list<std::pair<std::string_view, std::string_view>> pairs) {
  std::string out;
  for (const auto& [name, value] : pairs) {
    if (!out.empty()) out += ',';
    out += name;
    out += "=\"";
    out += Escaped(value);
    out += '"';
  }
  return out;
}

}  // namespace

RequestMetrics::Operation RequestMetrics::Classify(const http::Request& request) {
  // The path's segments: how many, the first, and the last two.
  std::string_view path = std::string_view(request.target).substr(0, request.target.find('?'));
  size_t count = 0;
  std::string_view first, before_last, last;
  while (!path.empty()) {
    const size_t start = path.find_first_not_of('/');
    if (start == std::string_view::npos) break;
    path.remove_prefix(start);
    const size_t end = std::min(path.find('/'), path.size());
    if (count == 0) first = path.substr(0, end);
    before_last = last;
    last = path.substr(0, end);
    ++count;
    path.remove_prefix(end);
  }
  Operation op;
  if (count == 0) {
    op.resource = "account";
  } else if (first == "_orrery") {
    op.resource = "admin";
  } else if (first == "offers") {
    op.resource = "offers";
  } else {
    // A feed's path ends in its type, one resource's in its name after its type.
    op.resource = ResourceLabel(count % 2 == 1 ? last : before_last);
  }
  const bool feed = count % 2 == 1;
  const std::string& m = request.method;
  if (m == "GET" || m == "HEAD") {
    op.name = feed ? "ReadFeed" : "Read";
  } else if (m == "POST") {
    if (HeaderIsTrue(request, headers::kIsQuery) || [&] {
          const std::string* type = request.FindHeader("content-type");
          return type != nullptr && type->find("query+json") != std::string::npos;
        }()) {
      op.name = "Query";
    } else if (HeaderIsTrue(request, "x-ms-cosmos-is-batch-request")) {
      op.name = "Batch";
    } else if (HeaderIsTrue(request, headers::kIsUpsert)) {
      op.name = "Upsert";
    } else {
      op.name = "Create";
    }
  } else if (m == "PUT") {
    op.name = "Replace";
  } else if (m == "PATCH") {
    op.name = "Patch";
  } else if (m == "DELETE") {
    op.name = "Delete";
  } else {
    op.name = "Other";
  }
  return op;
}

void RequestMetrics::Record(const Operation& operation, int status, double charge, double seconds) {
  const size_t bucket = static_cast<size_t>(
      std::lower_bound(kBuckets.begin(), kBuckets.end(), seconds) - kBuckets.begin());
  Shard& shard = ShardOfThisThread();
  const std::lock_guard lock(shard.mutex);
  Series& s = shard.series[Key{operation.resource, operation.name, status}];
  ++s.requests;
  s.charge += charge;
  s.seconds += seconds;
  if (bucket < kBuckets.size()) ++s.buckets[bucket];
}

uint64_t RequestMetrics::NextId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1);
}

RequestMetrics::Shard& RequestMetrics::ShardOfThisThread() {
  // This thread's shard of each RequestMetrics it recorded into (one in a server; the
  // entries of instances gone are never matched again).
  thread_local std::vector<std::pair<uint64_t, Shard*>> mine;
  for (const auto& [id, shard] : mine) {
    if (id == id_) return *shard;
  }
  const std::lock_guard lock(shards_mutex_);
  shards_.push_back(std::make_unique<Shard>());
  mine.emplace_back(id_, shards_.back().get());
  return *shards_.back();
}

std::string RequestMetrics::Render(const engine::Account& account) const {
  std::map<Key, Series> series;
  {
    const std::lock_guard lock(shards_mutex_);
    for (const std::unique_ptr<Shard>& shard : shards_) {
      const std::lock_guard shard_lock(shard->mutex);
      for (const auto& [key, s] : shard->series) {
        Series& total = series[key];
        total.requests += s.requests;
        total.charge += s.charge;
        total.seconds += s.seconds;
        for (size_t i = 0; i < s.buckets.size(); ++i) total.buckets[i] += s.buckets[i];
      }
    }
  }
  // Charge, 429s and latency by resource and operation, whatever the status.
  std::map<std::pair<std::string_view, std::string_view>, Series> by_operation;
  std::map<std::pair<std::string_view, std::string_view>, uint64_t> throttled;
  for (const auto& [key, s] : series) {
    Series& total = by_operation[{std::get<0>(key), std::get<1>(key)}];
    total.requests += s.requests;
    total.charge += s.charge;
    total.seconds += s.seconds;
    for (size_t i = 0; i < s.buckets.size(); ++i) total.buckets[i] += s.buckets[i];
    if (std::get<2>(key) == 429) throttled[{std::get<0>(key), std::get<1>(key)}] += s.requests;
  }

  std::string out;
  Describe(out, "orrery_requests_total", "counter",
           "Requests served, by resource type, operation and status code.");
  for (const auto& [key, s] : series) {
    Sample(out, "orrery_requests_total",
           Labels({{"resource", std::get<0>(key)},
                   {"operation", std::get<1>(key)},
                   {"status", std::to_string(std::get<2>(key))}}),
           static_cast<double>(s.requests));
  }
  Describe(out, "orrery_request_charge_total", "counter",
           "Request units charged, by resource type and operation.");
  for (const auto& [key, s] : by_operation) {
    Sample(out, "orrery_request_charge_total",
           Labels({{"resource", key.first}, {"operation", key.second}}), s.charge);
  }
  Describe(out, "orrery_throttled_requests_total", "counter",
           "Requests answered 429 (request rate too large), by resource type and operation.");
  for (const auto& [key, s] : by_operation) {
    const auto it = throttled.find(key);
    Sample(out, "orrery_throttled_requests_total",
           Labels({{"resource", key.first}, {"operation", key.second}}),
           it == throttled.end() ? 0.0 : static_cast<double>(it->second));
  }
  Describe(out, "orrery_request_duration_seconds", "histogram",
           "Time from a request's arrival at the service to its response, by resource type "
           "and operation.");
  for (const auto& [key, s] : by_operation) {
    uint64_t cumulative = 0;
    for (size_t i = 0; i < kBuckets.size(); ++i) {
      cumulative += s.buckets[i];
      Sample(
          out, "orrery_request_duration_seconds_bucket",
          Labels({{"resource", key.first}, {"operation", key.second}, {"le", Number(kBuckets[i])}}),
          static_cast<double>(cumulative));
    }
    const std::string labels = Labels({{"resource", key.first}, {"operation", key.second}});
    Sample(out, "orrery_request_duration_seconds_bucket", labels + ",le=\"+Inf\"",
           static_cast<double>(s.requests));
    Sample(out, "orrery_request_duration_seconds_sum", labels, s.seconds);
    Sample(out, "orrery_request_duration_seconds_count", labels, static_cast<double>(s.requests));
  }

  // What each container holds now.
  struct Gauges {
    std::string labels;
    engine::ContainerStatistics statistics;
    uint64_t splits = 0;
    uint64_t purged = 0;
  };
  std::vector<Gauges> containers;
  for (const std::shared_ptr<engine::Container>& c : account.AllContainers()) {
    Result<engine::ContainerStatistics> statistics = engine::StatisticsOf(*c, 0);
    if (!statistics.ok()) continue;
    containers.push_back(
        Gauges{Labels({{"database", c->settings().database_id}, {"container", c->settings().id}}),
               std::move(*statistics), c->write_state()->splits.load(),
               c->write_state()->ttl_purged_items.load()});
  }
  const auto per_container = [&](std::string_view name, std::string_view type,
                                 std::string_view help, auto value) {
    Describe(out, name, type, help);
    for (const Gauges& g : containers) Sample(out, name, g.labels, value(g));
  };
  const auto per_partition = [&](std::string_view name, std::string_view type,
                                 std::string_view help, auto value) {
    Describe(out, name, type, help);
    for (const Gauges& g : containers) {
      for (const engine::PhysicalPartitionStatistics& p : g.statistics.partitions) {
        Sample(out, name, g.labels + "," + Labels({{"partition", p.partition.id}}), value(p));
      }
    }
  };
  using PartitionStats = engine::PhysicalPartitionStatistics;
  per_container("orrery_container_items", "gauge", "Items a container holds.",
                [](const Gauges& g) { return static_cast<double>(g.statistics.items); });
  per_container("orrery_container_bytes", "gauge", "Bytes of the items a container holds.",
                [](const Gauges& g) { return static_cast<double>(g.statistics.bytes); });
  per_container(
      "orrery_container_logical_partitions", "gauge", "Logical partitions a container holds.",
      [](const Gauges& g) { return static_cast<double>(g.statistics.logical_partitions); });
  per_container(
      "orrery_container_physical_partitions", "gauge", "Physical partitions of a container.",
      [](const Gauges& g) { return static_cast<double>(g.statistics.partitions.size()); });
  per_container("orrery_container_splits_total", "counter",
                "Physical partitions of a container split since the server started.",
                [](const Gauges& g) { return static_cast<double>(g.splits); });
  per_container("orrery_container_ttl_purged_items_total", "counter",
                "Expired items the TTL purge deleted since the server started.",
                [](const Gauges& g) { return static_cast<double>(g.purged); });
  per_partition("orrery_partition_items", "gauge", "Items a physical partition holds.",
                [](const PartitionStats& p) { return static_cast<double>(p.items); });
  per_partition("orrery_partition_bytes", "gauge", "Bytes of the items a physical partition holds.",
                [](const PartitionStats& p) { return static_cast<double>(p.bytes); });
  per_partition("orrery_partition_logical_partitions", "gauge",
                "Logical partitions a physical partition holds.",
                [](const PartitionStats& p) { return static_cast<double>(p.logical_partitions); });
  per_partition("orrery_partition_request_charge_total", "counter",
                "Request units a physical partition's requests consumed.",
                [](const PartitionStats& p) { return p.request_charge; });
  per_partition("orrery_partition_throttled_requests_total", "counter",
                "Requests a physical partition answered 429.",
                [](const PartitionStats& p) { return static_cast<double>(p.throttled_requests); });
  return out;
}

}  // namespace orrery::api
