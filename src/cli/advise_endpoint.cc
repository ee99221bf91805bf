#include "cli/advise_endpoint.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <random>
#include <thread>
#include <unordered_map>

#include "advise/indexing_policy.h"
#include "advise/operation_samples.h"
#include "advise/random.h"
#include "advise/study_measures.h"
#include "advise/traffic_replay.h"
#include "common/encoding.h"
#include "engine/query_routing.h"
#include "json/json.h"
#include "query/query.h"

namespace orrery::cli {
namespace {

using advise::CandidateResult;
using advise::Operation;
using advise::OperationSample;
using advise::SampledOperation;
using advise::StudyOptions;

constexpr int kMaxAttempts = 20;  // a throttled request is sent again after its wait
constexpr size_t kBulkSize = 100;

// The REST calls of one study: its database, and the container of each candidate.
class Endpoint {
 public:
  Endpoint(Connection connection, std::string database)
      : connection_(std::move(connection)), database_(std::move(database)) {}

  std::string DatabaseLink() const { return "dbs/" + database_; }
  std::string ContainerLink(size_t c) const {
    return DatabaseLink() + "/colls/candidate-" + std::to_string(c);
  }
  std::string Path(const std::string& link) const {
    std::string path;
    size_t start = 0;
    while (start <= link.size()) {
      size_t end = link.find('/', start);
      if (end == std::string::npos) end = link.size();
      if (!path.empty()) path += '/';
      path += PercentEncode(link.substr(start, end - start));
      start = end + 1;
    }
    return path;
  }

  // Sends `call` until it is not throttled. Errors: the service's, as BadRequest.
  Result<http::Response> Send(const RestCall& call) {
    for (int attempt = 0;; ++attempt) {
      ORRERY_ASSIGN_OR_RETURN(http::Response response, SendRaw(connection_, call));
      if (response.status != 429 || attempt + 1 >= kMaxAttempts) {
        if (response.status >= 400) {
          return Status::BadRequest("(" + std::to_string(response.status) + ") " +
                                    response.body.substr(0, 400));
        }
        return response;
      }
      const int wait = std::atoi(HeaderOf(response, "x-ms-retry-after-ms").c_str());
      std::this_thread::sleep_for(std::chrono::milliseconds(std::clamp(wait, 5, 5000)));
    }
  }

  Status CreateDatabase() {
    return Send({"POST",
                 "dbs",
                 "",
                 "dbs",
                 json::Write(json::Value::MakeObject({{"id", json::Value::String(database_)}})),
                 {}})
        .status();
  }
  void DropDatabase() {
    (void)SendRaw(connection_, {"DELETE", "dbs", DatabaseLink(), Path(DatabaseLink()), "", {}});
  }

  Status CreateContainer(size_t c, const advise::Candidate& candidate,
                         const std::optional<json::Value>& policy, const StudyOptions& options) {
    json::Value body =
        json::Value::MakeObject({{"id", json::Value::String("candidate-" + std::to_string(c))},
                                 {"partitionKey", candidate.DefinitionJson()}});
    if (policy) body.Set("indexingPolicy", *policy);
    std::vector<http::Header> headers;
    if (options.autoscale) {
      headers.push_back({"x-ms-cosmos-offer-autopilot-settings",
                         "{\"maxThroughput\":" + std::to_string(options.throughput) + "}"});
    } else {
      headers.push_back({"x-ms-offer-throughput", std::to_string(options.throughput)});
    }
    Result<http::Response> created =
        Send({"POST", "colls", DatabaseLink(), Path(DatabaseLink()) + "/colls", json::Write(body),
              headers});
    if (!created.ok()) {
      return Status::BadRequest("Cannot create a container for '" + candidate.label() +
                                "': " + created.status().message());
    }
    return Status::Ok();
  }

  // The container's partition key ranges in EPK order.
  Result<std::vector<engine::PhysicalPartition>> Ranges(size_t c) {
    ORRERY_ASSIGN_OR_RETURN(
        http::Response response,
        Send({"GET", "pkranges", ContainerLink(c), Path(ContainerLink(c)) + "/pkranges", "", {}}));
    ORRERY_ASSIGN_OR_RETURN(json::Value body, json::Parse(response.body));
    std::vector<engine::PhysicalPartition> ranges;
    const json::Value* list = body.Find("PartitionKeyRanges");
    if (list == nullptr || !list->is_array()) {
      return Status::BadRequest("the endpoint's partition key ranges are malformed");
    }
    for (const json::Value& r : list->as_array()) {
      engine::PhysicalPartition p;
      const json::Value* id = r.Find("id");
      const json::Value* min = r.Find("minInclusive");
      const json::Value* max = r.Find("maxExclusive");
      if (id == nullptr || min == nullptr || max == nullptr || !id->is_string()) continue;
      p.id = id->as_string();
      p.number = static_cast<uint32_t>(std::strtoul(p.id.c_str(), nullptr, 10));
      p.min_inclusive = min->as_string();
      p.max_exclusive = max->as_string();
      ranges.push_back(std::move(p));
    }
    std::sort(ranges.begin(), ranges.end(),
              [](const auto& a, const auto& b) { return a.min_inclusive < b.min_inclusive; });
    return ranges;
  }

  // Creates `bodies` (with their keys) in bulk; counts what was refused.
  Status Load(size_t c, const std::vector<std::pair<std::string, std::string>>& bodies,
              CandidateResult& result) {
    for (size_t begin = 0; begin < bodies.size(); begin += kBulkSize) {
      const size_t end = std::min(bodies.size(), begin + kBulkSize);
      std::string body = "[";
      for (size_t i = begin; i < end; ++i) {
        if (i > begin) body += ',';
        body += "{\"operationType\":\"Create\",\"partitionKey\":";
        json::AppendQuoted(body, bodies[i].first);
        body += ",\"resourceBody\":" + bodies[i].second + "}";
      }
      body += "]";
      ORRERY_ASSIGN_OR_RETURN(http::Response response,
                              Send({"POST",
                                    "docs",
                                    ContainerLink(c),
                                    Path(ContainerLink(c)) + "/docs",
                                    body,
                                    {{"x-ms-cosmos-is-batch-request", "True"},
                                     {"x-ms-cosmos-batch-atomic", "False"},
                                     {"prefer", "return=minimal"}}}));
      Result<json::Value> results = json::Parse(response.body);
      if (!results.ok() || !results->is_array()) {
        return Status::BadRequest("the endpoint's bulk answer is malformed");
      }
      for (const json::Value& r : results->as_array()) {
        const json::Value* status = r.Find("statusCode");
        const int code =
            status != nullptr && status->is_number() ? static_cast<int>(status->as_double()) : 0;
        if (code == 200 || code == 201) {
          ++result.items_loaded;
        } else if (++result.items_refused == 1) {
          const json::Value* message = r.Find("message");
          result.first_refusal =
              "(" + std::to_string(code) + ") " +
              (message != nullptr && message->is_string() ? message->as_string() : "");
        }
      }
    }
    return Status::Ok();
  }

  // Every page of a query in one partition key range: the charge.
  Result<double> QueryRange(size_t c, const std::string& text,
                            const std::vector<query::Parameter>& parameters,
                            const std::string& range_id) {
    json::Array params;
    for (const query::Parameter& p : parameters) {
      params.push_back(
          json::Value::MakeObject({{"name", json::Value::String(p.name)}, {"value", p.value}}));
    }
    const std::string body = json::Write(
        json::Value::MakeObject({{"query", json::Value::String(text)},
                                 {"parameters", json::Value::MakeArray(std::move(params))}}));
    double charge = 0;
    std::string continuation;
    do {
      RestCall call{"POST",
                    "docs",
                    ContainerLink(c),
                    Path(ContainerLink(c)) + "/docs",
                    body,
                    {{"x-ms-documentdb-isquery", "True"},
                     {"content-type", "application/query+json"},
                     {"x-ms-documentdb-query-enablecrosspartition", "True"},
                     {"x-ms-documentdb-partitionkeyrangeid", range_id},
                     {"x-ms-max-item-count", "100"}}};
      if (!continuation.empty()) call.headers.push_back({"x-ms-continuation", continuation});
      ORRERY_ASSIGN_OR_RETURN(http::Response response, Send(call));
      charge += std::strtod(HeaderOf(response, "x-ms-request-charge").c_str(), nullptr);
      continuation = HeaderOf(response, "x-ms-continuation");
    } while (!continuation.empty());
    return charge;
  }

  // A point read, create or upsert: the charge.
  Result<double> PointOperation(size_t c, Operation::Kind kind, const std::string& key_header,
                                const std::string& id, const std::string& body) {
    RestCall call;
    call.headers.push_back({"x-ms-documentdb-partitionkey", key_header});
    if (kind == Operation::Kind::kRead) {
      const std::string link = ContainerLink(c) + "/docs/" + id;
      call = RestCall{"GET", "docs", link, Path(link), "", call.headers};
    } else {
      call = RestCall{"POST", "docs",      ContainerLink(c), Path(ContainerLink(c)) + "/docs",
                      body,   call.headers};
      if (kind == Operation::Kind::kUpsert) {
        call.headers.push_back({"x-ms-documentdb-is-upsert", "True"});
      }
    }
    ORRERY_ASSIGN_OR_RETURN(http::Response response, Send(call));
    return std::strtod(HeaderOf(response, "x-ms-request-charge").c_str(), nullptr);
  }

  // One item as the endpoint stores it (with its system properties).
  Result<size_t> StoredSize(size_t c, const std::string& key_header, const std::string& id) {
    const std::string link = ContainerLink(c) + "/docs/" + id;
    ORRERY_ASSIGN_OR_RETURN(
        http::Response response,
        Send(
            {"GET", "docs", link, Path(link), "", {{"x-ms-documentdb-partitionkey", key_header}}}));
    return response.body.size();
  }

 private:
  Connection connection_;
  std::string database_;
};

Result<OperationSample> RunQuerySample(Endpoint& endpoint, size_t c, const Operation& op,
                                       const advise::Candidate& candidate,
                                       const std::vector<engine::PhysicalPartition>& ranges,
                                       const json::Value& item,
                                       engine::QueryRouting::Kind& routing) {
  ORRERY_ASSIGN_OR_RETURN(std::vector<query::Parameter> parameters,
                          advise::DrawParameters(op, item));
  ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<query::CompiledQuery> compiled,
                          query::Compile(op.query, parameters));
  const advise::QueryRoute route = advise::RouteForCandidate(candidate, compiled->access_shape());
  routing = route.kind;
  OperationSample sample;
  for (const engine::PhysicalPartition& range : ranges) {
    if (!advise::ScopeIn(route.scope, range)) continue;
    ORRERY_ASSIGN_OR_RETURN(double charge, endpoint.QueryRange(c, op.query, parameters, range.id));
    sample.partitions.emplace_back(range.number, charge);
    sample.request_units += charge;
  }
  return sample;
}

Result<OperationSample> RunPointSample(Endpoint& endpoint, size_t c, const Operation& op,
                                       const advise::Candidate& candidate,
                                       const engine::PartitionMap& ranges,
                                       const json::Value& item) {
  ORRERY_ASSIGN_OR_RETURN(partition::PartitionKeyValue key,
                          partition::ExtractFromItem(item, candidate.definition()));
  const std::string epk = partition::EffectivePartitionKey(candidate.definition(), key);
  const json::Value* id = item.Find("id");
  ORRERY_ASSIGN_OR_RETURN(
      double charge,
      endpoint.PointOperation(c, op.kind, partition::ToHeaderJson(key),
                              id != nullptr && id->is_string() ? id->as_string() : "",
                              json::Write(item)));
  OperationSample sample;
  sample.request_units = charge;
  sample.partitions.emplace_back(ranges.Owner(epk).number, charge);
  return sample;
}

Result<SampledOperation> SampleOverRest(Endpoint& endpoint, size_t c, const Operation& op,
                                        size_t op_index, const advise::Candidate& candidate,
                                        const std::vector<engine::PhysicalPartition>& ranges,
                                        const advise::ItemSource& items,
                                        const StudyOptions& options) {
  const engine::PartitionMap map(ranges);
  return advise::SampleRuns(
      op, op_index, items, options,
      [&](json::Value item, int run,
          engine::QueryRouting::Kind& routing) -> Result<OperationSample> {
        if (op.kind == Operation::Kind::kCreate) {
          item.Set("id", json::Value::String("advise-" + std::to_string(op_index) + "-" +
                                             std::to_string(run)));
        }
        candidate.Prepare(item);
        if (op.kind == Operation::Kind::kQuery) {
          return RunQuerySample(endpoint, c, op, candidate, ranges, item, routing);
        }
        return RunPointSample(endpoint, c, op, candidate, map, item);
      });
}

// Loads one candidate's container and measures its partitions and sizes.
Status LoadAndMeasure(Endpoint& endpoint, size_t c, const advise::ItemSource& items,
                      const StudyOptions& options, CandidateResult& result,
                      std::vector<engine::PhysicalPartition>& ranges) {
  const advise::Candidate& candidate = options.candidates[c];
  std::vector<std::pair<std::string, std::string>> bodies;
  std::unordered_map<std::string, std::pair<int64_t, int64_t>> sizes;  // epk -> items, bytes
  std::unordered_map<std::string, std::string> key_of;
  for (uint64_t i = 0; i < items.count(); ++i) {
    ORRERY_ASSIGN_OR_RETURN(json::Value item, items.Item(i));
    candidate.Prepare(item);
    Result<partition::PartitionKeyValue> key =
        partition::ExtractFromItem(item, candidate.definition());
    if (!key.ok()) {
      if (++result.items_refused == 1) result.first_refusal = key.status().message();
      continue;
    }
    const std::string epk = partition::EffectivePartitionKey(candidate.definition(), *key);
    bodies.emplace_back(partition::ToHeaderJson(*key), json::Write(item));
    auto& size = sizes[epk];
    size.first += 1;
    size.second += static_cast<int64_t>(bodies.back().second.size());
    if (key_of.find(epk) == key_of.end()) key_of[epk] = bodies.back().first;
    if (options.progress && (i % 1000 == 0))
      options.progress("loading " + candidate.label(), i, items.count());
    if (bodies.size() >= 10 * kBulkSize) {
      ORRERY_RETURN_IF_ERROR(endpoint.Load(c, bodies, result));
      bodies.clear();
    }
  }
  ORRERY_RETURN_IF_ERROR(endpoint.Load(c, bodies, result));
  if (options.progress)
    options.progress("loading " + candidate.label(), items.count(), items.count());
  // What the endpoint adds to each item: measured on the first one loaded.
  int64_t overhead = 0;
  if (result.items_loaded > 0) {
    ORRERY_ASSIGN_OR_RETURN(json::Value first, items.Item(0));
    candidate.Prepare(first);
    ORRERY_ASSIGN_OR_RETURN(partition::PartitionKeyValue key,
                            partition::ExtractFromItem(first, candidate.definition()));
    ORRERY_ASSIGN_OR_RETURN(size_t stored, endpoint.StoredSize(c, partition::ToHeaderJson(key),
                                                               first.Find("id")->as_string()));
    overhead = std::max<int64_t>(
        0, static_cast<int64_t>(stored) - static_cast<int64_t>(json::Write(first).size()));
  }
  std::vector<engine::Container::LogicalPartitionSize> list;
  for (const auto& [epk, size] : sizes) {
    list.push_back({epk, size.first, size.second + size.first * overhead, key_of[epk]});
  }
  std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.epk < b.epk; });
  result.logical = advise::MeasureLogicalSizes(list, options);
  ORRERY_ASSIGN_OR_RETURN(ranges, endpoint.Ranges(c));
  if (ranges.empty()) return Status::BadRequest("the endpoint lists no partition key ranges");
  result.initial_partitions = static_cast<int>(ranges.size());
  int64_t total = 0;
  for (const auto& s : list) total += s.bytes;
  for (const engine::PhysicalPartition& range : ranges) {
    advise::PhysicalPartitionMeasure m;
    m.id = range.id;
    m.min_epk = range.min_inclusive;
    m.max_epk = range.max_exclusive;
    for (const auto& s : list) {
      if (!range.Contains(s.epk)) continue;
      m.items += s.items;
      m.bytes += s.bytes;
    }
    m.storage_share = total > 0 ? static_cast<double>(m.bytes) / static_cast<double>(total) : 0;
    m.projected_bytes = static_cast<double>(m.bytes) * options.scale;
    result.physical.push_back(std::move(m));
  }
  return Status::Ok();
}

std::string RandomSuffix() {
  std::random_device device;
  char text[17];
  std::snprintf(text, sizeof text, "%08x%08x", device(), device());
  return text;
}

Result<advise::StudyResult> Study(Endpoint& endpoint, const advise::ItemSource& items,
                                  const StudyOptions& options) {
  const std::optional<json::Value> policy = options.indexing_policy
                                                ? options.indexing_policy
                                                : advise::WorkloadIndexingPolicy(options.workload);
  ORRERY_RETURN_IF_ERROR(endpoint.CreateDatabase());
  std::vector<CandidateResult> results;
  std::vector<std::vector<SampledOperation>> sampled(options.candidates.size());
  std::vector<std::vector<engine::PhysicalPartition>> ranges(options.candidates.size());
  for (size_t c = 0; c < options.candidates.size(); ++c) {
    results.emplace_back();
    results.back().candidate = options.candidates[c];
    ORRERY_RETURN_IF_ERROR(endpoint.CreateContainer(c, options.candidates[c], policy, options));
    ORRERY_RETURN_IF_ERROR(LoadAndMeasure(endpoint, c, items, options, results[c], ranges[c]));
    for (size_t o = 0; o < options.workload.operations.size(); ++o) {
      if (options.progress) {
        options.progress("measuring " + options.candidates[c].label(), o,
                         options.workload.operations.size());
      }
      ORRERY_ASSIGN_OR_RETURN(SampledOperation op,
                              SampleOverRest(endpoint, c, options.workload.operations[o], o,
                                             options.candidates[c], ranges[c], items, options));
      sampled[c].push_back(std::move(op));
    }
    advise::SummarizeOperations(sampled[c], results[c]);
  }
  advise::StudyResult study;
  study.items = items.count();
  study.scale = options.scale;
  study.throughput = options.throughput;
  study.autoscale = options.autoscale;
  study.indexing_policy = policy;
  study.partitions_at_scale = false;
  const double rate = advise::OfferedLoad(options.workload, sampled, results,
                                          static_cast<double>(options.throughput));
  study.requests_per_second = rate;
  for (size_t c = 0; c < results.size(); ++c) {
    std::vector<uint32_t> numbers;
    std::map<std::string, uint32_t> by_id;
    for (const auto& r : ranges[c]) {
      numbers.push_back(r.number);
      by_id[r.id] = r.number;
    }
    const advise::ReplayResult replay = advise::ReplayTraffic(
        sampled[c], numbers, static_cast<double>(options.throughput), rate, options.seed);
    study.seconds_played = replay.seconds;
    advise::AddReplay(replay, by_id, static_cast<double>(options.throughput), results[c]);
  }
  study.ranking = std::move(results);
  advise::RankCandidates(study);
  return study;
}

}  // namespace

Result<advise::StudyResult> RunEndpointStudy(const Connection& connection,
                                             const advise::ItemSource& items,
                                             const StudyOptions& options) {
  if (options.candidates.empty()) return Status::BadRequest("No candidate partition keys given.");
  Endpoint endpoint(connection, "orrery-advise-" + RandomSuffix());
  Result<advise::StudyResult> study = Study(endpoint, items, options);
  endpoint.DropDatabase();
  return study;
}

}  // namespace orrery::cli
