#include "advise/study.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "advise/indexing_policy.h"
#include "advise/load_order.h"
#include "advise/operation_samples.h"
#include "advise/study_measures.h"
#include "advise/traffic_replay.h"
#include "engine/account.h"
#include "engine/partition_statistics.h"
#include "engine/split_point.h"
#include "json/json.h"

namespace orrery::advise {
namespace {

constexpr const char* kDatabase = "advise";

std::string ContainerId(size_t index) { return "candidate-" + std::to_string(index); }

uint64_t SplitThreshold(const StudyOptions& options) {
  return static_cast<uint64_t>(
      std::max(1.0, kPhysicalPartitionSplitBytes / std::max(options.scale, 1e-9)));
}

Result<std::unique_ptr<engine::Account>> OpenAccount(const StudyOptions& options) {
  engine::AccountOptions account;
  account.store.in_memory = true;
  account.store.scratch = true;
  account.background_ttl_purge = false;
  account.background_splits = false;
  // Sizes are projected at scale instead: the sample must load whole.
  account.logical_partition_max_bytes = std::numeric_limits<uint64_t>::max() / 2;
  account.partition_split_bytes = SplitThreshold(options);
  return engine::Account::Open(account);
}

Status CreateContainers(engine::Account& account, const StudyOptions& options,
                        const std::optional<json::Value>& policy) {
  ORRERY_RETURN_IF_ERROR(
      account.CreateDatabase(json::Value::MakeObject({{"id", json::Value::String(kDatabase)}}), {})
          .status());
  engine::ThroughputRequest throughput;
  if (options.autoscale) {
    throughput.autoscale_max = options.throughput;
  } else {
    throughput.manual = options.throughput;
  }
  for (size_t i = 0; i < options.candidates.size(); ++i) {
    json::Value body =
        json::Value::MakeObject({{"id", json::Value::String(ContainerId(i))},
                                 {"partitionKey", options.candidates[i].DefinitionJson()}});
    if (policy) body.Set("indexingPolicy", *policy);
    Result<json::Value> created = account.CreateContainer(kDatabase, std::move(body), throughput);
    if (!created.ok()) {
      return Status::BadRequest("Cannot create a container for '" + options.candidates[i].label() +
                                "': " + created.status().message());
    }
  }
  return Status::Ok();
}

// An item as one candidate's container stores it: its partition key, and its JSON: the
// item's own text, unless a synthetic key adds its property.
struct CandidateItem {
  Result<partition::PartitionKeyValue> key = Status::Ok();
  const std::string* plain_body = nullptr;
  std::string synthetic_body;
  std::string_view body() const { return plain_body != nullptr ? *plain_body : synthetic_body; }
};

CandidateItem ItemFor(const Candidate& candidate, const json::Value& item,
                      const std::string& plain_body) {
  CandidateItem out;
  if (!candidate.synthetic()) {
    out.key = partition::ExtractFromItem(item, candidate.definition());
    out.plain_body = &plain_body;
    return out;
  }
  json::Value prepared = item;
  candidate.Prepare(prepared);
  out.key = partition::ExtractFromItem(prepared, candidate.definition());
  out.synthetic_body = json::Write(prepared);
  return out;
}

// The items of a study as sizing kept them for loading: each item's JSON, and for each
// candidate the order to load them in.
struct LoadPlan {
  std::vector<std::string> bodies;  // by item number
  std::vector<LoadOrder> orders;    // by candidate
};

// Loads every item into every candidate's container, one candidate after the other, each
// in its load order (load_order.h). An item a container refuses (a duplicate id in its
// logical partition) is counted.
void LoadItems(const LoadPlan& plan, const StudyOptions& options,
               const std::vector<std::shared_ptr<engine::Container>>& containers,
               std::vector<CandidateResult>& results) {
  std::atomic<uint64_t> done{0};
  std::mutex mutex;
  const uint64_t total = plan.bodies.size() * containers.size();
  const int threads = std::max(1, options.threads);
  for (size_t c = 0; c < containers.size(); ++c) {
    const LoadOrder& order = plan.orders[c];
    auto load = [&](int thread) {
      const auto [begin, end] = order.Stretch(thread, threads);
      for (size_t k = begin; k < end; ++k) {
        const std::string& body = plan.bodies[order.items[k]];
        Result<json::Value> item = json::Parse(body);
        Status written = item.status();
        if (item.ok()) {
          const CandidateItem stored = ItemFor(options.candidates[c], *item, body);
          written = stored.key.status();
          if (stored.key.ok()) {
            engine::ItemWriteRequest request;
            request.partition_key = *stored.key;
            request.body = stored.body();
            request.known_absent = !order.checked[k];
            written = containers[c]->WriteItem(request).status();
          }
        }
        {
          const std::lock_guard lock(mutex);
          if (written.ok()) {
            ++results[c].items_loaded;
          } else if (++results[c].items_refused == 1) {
            results[c].first_refusal = written.message();
          }
        }
        const uint64_t n = done.fetch_add(1) + 1;
        if (thread == 0 && options.progress && (n % 4096 == 0 || n == total)) {
          options.progress("loading", n, total);
        }
      }
    };
    std::vector<std::thread> workers;
    for (int t = 1; t < threads; ++t) workers.emplace_back(load, t);
    load(0);
    for (std::thread& worker : workers) worker.join();
  }
  if (options.progress) options.progress("loading", done.load(), total);
}

// Splits until no partition holds more than the scaled 50 GB (each round halves every
// partition past it).
Status SplitAtScale(engine::Account& account,
                    const std::vector<std::shared_ptr<engine::Container>>& containers) {
  for (int round = 0; round < 64; ++round) {
    size_t before = 0;
    for (const auto& c : containers) {
      ORRERY_ASSIGN_OR_RETURN(auto current, account.GetContainer(kDatabase, c->settings().id));
      before += current->settings().partitions.partitions().size();
    }
    ORRERY_RETURN_IF_ERROR(account.SplitWhereNeeded());
    size_t after = 0;
    for (const auto& c : containers) {
      ORRERY_ASSIGN_OR_RETURN(auto current, account.GetContainer(kDatabase, c->settings().id));
      after += current->settings().partitions.partitions().size();
    }
    if (after == before) return Status::Ok();
  }
  return Status::Ok();
}

// What the engine adds to each stored item (system properties): measured on one item
// in a container of its own, so that sizes estimated before loading match.
Result<int64_t> StoredOverhead(engine::Account& account, const json::Value& item) {
  const std::string probe = "probe";
  ORRERY_RETURN_IF_ERROR(
      account
          .CreateContainer(
              kDatabase,
              json::Value::MakeObject(
                  {{"id", json::Value::String(probe)},
                   {"partitionKey",
                    json::Value::MakeObject(
                        {{"paths", json::Value::MakeArray({json::Value::String("/id")})},
                         {"kind", json::Value::String("Hash")},
                         {"version", json::Value::Int(2)}})}}),
              {})
          .status());
  ORRERY_ASSIGN_OR_RETURN(auto container, account.GetContainer(kDatabase, probe));
  const std::string body = json::Write(item);
  engine::ItemWriteRequest request;
  request.partition_key = {*partition::ComponentFromJson(*item.Find("id"))};
  request.body = body;
  ORRERY_RETURN_IF_ERROR(container->WriteItem(request).status());
  ORRERY_ASSIGN_OR_RETURN(auto sizes, container->LogicalPartitionSizes());
  const int64_t stored = sizes.empty() ? static_cast<int64_t>(body.size()) : sizes.front().bytes;
  ORRERY_RETURN_IF_ERROR(account.DeleteContainer(kDatabase, probe));
  return std::max<int64_t>(0, stored - static_cast<int64_t>(body.size()));
}

using SizeList = std::vector<engine::Container::LogicalPartitionSize>;

// Each candidate's logical partition sizes, estimated from the items before loading
// (their JSON plus the stored overhead), in EPK order; `plan` gets the items' JSON and
// each candidate's load order (an item whose key the candidate refuses comes first, to
// be refused when loading).
Result<std::vector<SizeList>> EstimateSizesAndPlanLoad(const ItemSource& items,
                                                       const StudyOptions& options,
                                                       int64_t overhead, LoadPlan& plan) {
  const int threads = std::max(1, options.threads);
  const size_t n = options.candidates.size();
  if (items.count() > std::numeric_limits<uint32_t>::max()) {
    return Status::BadRequest("A study holds at most 4,294,967,295 items.");
  }
  plan.bodies.assign(items.count(), std::string());
  std::vector<std::vector<std::unordered_map<std::string, int64_t>>> partial(
      static_cast<size_t>(threads), std::vector<std::unordered_map<std::string, int64_t>>(n));
  std::vector<std::vector<LoadOrderBuilder>> orders(static_cast<size_t>(threads),
                                                    std::vector<LoadOrderBuilder>(n));
  std::vector<Status> failures(static_cast<size_t>(threads), Status::Ok());
  auto estimate = [&](int thread) {
    for (uint64_t i = static_cast<uint64_t>(thread); i < items.count();
         i += static_cast<uint64_t>(threads)) {
      Result<json::Value> item = items.Item(i);
      if (!item.ok()) {
        failures[static_cast<size_t>(thread)] = item.status();
        return;
      }
      std::string& plain_body = plan.bodies[i];
      plain_body = json::Write(*item);
      const std::string_view id = item->Find("id")->as_string();
      for (size_t c = 0; c < n; ++c) {
        LoadOrderBuilder& order = orders[static_cast<size_t>(thread)][c];
        const CandidateItem stored = ItemFor(options.candidates[c], *item, plain_body);
        if (!stored.key.ok()) {  // refused when loading, and counted there
          order.Add("", id, static_cast<uint32_t>(i));
          continue;
        }
        const std::string epk =
            partition::EffectivePartitionKey(options.candidates[c].definition(), *stored.key);
        order.Add(epk, id, static_cast<uint32_t>(i));
        partial[static_cast<size_t>(thread)][c][epk] +=
            static_cast<int64_t>(stored.body().size()) + overhead;
      }
      // Thread 0 takes every `threads`-th item: its count times `threads` is the pace.
      if (thread == 0 && options.progress && i % 4096 == 0) {
        options.progress("generating and sizing", i, items.count());
      }
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < threads; ++t) workers.emplace_back(estimate, t);
  estimate(0);
  for (std::thread& worker : workers) worker.join();
  if (options.progress) options.progress("generating and sizing", items.count(), items.count());
  for (const Status& failure : failures) ORRERY_RETURN_IF_ERROR(failure);
  plan.orders.assign(n, {});
  for (size_t c = 0; c < n; ++c) {
    LoadOrderBuilder all = std::move(orders[0][c]);
    for (size_t t = 1; t < orders.size(); ++t) all.Merge(std::move(orders[t][c]));
    plan.orders[c] = std::move(all).Build();
  }
  std::vector<SizeList> sizes(n);
  for (size_t c = 0; c < n; ++c) {
    std::unordered_map<std::string, int64_t> merged = std::move(partial[0][c]);
    for (size_t t = 1; t < partial.size(); ++t) {
      for (auto& [epk, bytes] : partial[t][c]) merged[epk] += bytes;
    }
    for (auto& [epk, bytes] : merged) {
      engine::Container::LogicalPartitionSize size;
      size.epk = epk;
      size.bytes = bytes;
      size.items = 1;
      sizes[c].push_back(std::move(size));
    }
    std::sort(sizes[c].begin(), sizes[c].end(),
              [](const auto& a, const auto& b) { return a.epk < b.epk; });
  }
  return sizes;
}

// Splits an empty container where its data will need it, by the engine's rule (the
// fullest partition past the threshold first, where it halves its data): the same
// partitions as splitting after loading, without moving the loaded items.
Status SplitAhead(engine::Account& account, const std::string& container_id, const SizeList& sizes,
                  uint64_t threshold) {
  for (int round = 0; round < 4096; ++round) {
    ORRERY_ASSIGN_OR_RETURN(auto container, account.GetContainer(kDatabase, container_id));
    const auto by_bytes =
        engine::PartitionsByBytes(container->settings().partitions.partitions(), sizes);
    bool split = false;
    for (const auto& [bytes, partition] : by_bytes) {
      if (static_cast<uint64_t>(bytes) <= threshold) break;
      const std::string at = engine::SplitPoint(*partition, sizes);
      if (at.empty()) continue;
      ORRERY_RETURN_IF_ERROR(
          account.SplitPartition(kDatabase, container_id, partition->number, at));
      split = true;
      break;
    }
    if (!split) return Status::Ok();
  }
  return Status::Ok();
}

Result<LogicalPartitionMeasure> MeasureLogical(const engine::Container& container,
                                               const StudyOptions& options) {
  ORRERY_ASSIGN_OR_RETURN(std::vector<engine::Container::LogicalPartitionSize> sizes,
                          container.LogicalPartitionSizes());
  return MeasureLogicalSizes(sizes, options);
}

Result<std::vector<PhysicalPartitionMeasure>> MeasurePhysical(const engine::Container& container,
                                                              const StudyOptions& options) {
  ORRERY_ASSIGN_OR_RETURN(engine::ContainerStatistics statistics,
                          engine::StatisticsOf(container, 0));
  std::vector<PhysicalPartitionMeasure> measures;
  for (const engine::PhysicalPartitionStatistics& p : statistics.partitions) {
    PhysicalPartitionMeasure m;
    m.id = p.partition.id;
    m.min_epk = p.partition.min_inclusive;
    m.max_epk = p.partition.max_exclusive;
    m.items = p.items;
    m.bytes = p.bytes;
    m.storage_share = statistics.bytes > 0
                          ? static_cast<double>(p.bytes) / static_cast<double>(statistics.bytes)
                          : 0;
    m.projected_bytes = static_cast<double>(p.bytes) * options.scale;
    measures.push_back(std::move(m));
  }
  return measures;
}

}  // namespace

Result<StudyResult> RunStudy(const ItemSource& items, const StudyOptions& options) {
  if (options.candidates.empty()) return Status::BadRequest("No candidate partition keys given.");
  if (!(options.scale > 0)) return Status::BadRequest("--scale must be above 0.");
  ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<engine::Account> account, OpenAccount(options));
  const std::optional<json::Value> policy =
      options.indexing_policy ? options.indexing_policy : WorkloadIndexingPolicy(options.workload);
  ORRERY_RETURN_IF_ERROR(CreateContainers(*account, options, policy));
  std::vector<std::shared_ptr<engine::Container>> containers;
  std::vector<CandidateResult> results;
  for (size_t i = 0; i < options.candidates.size(); ++i) {
    ORRERY_ASSIGN_OR_RETURN(auto container, account->GetContainer(kDatabase, ContainerId(i)));
    results.emplace_back();
    results.back().candidate = options.candidates[i];
    results.back().initial_partitions =
        static_cast<int>(container->settings().partitions.partitions().size());
    containers.push_back(std::move(container));
  }
  LoadPlan plan;
  plan.orders.resize(containers.size());
  if (items.count() > 0) {
    ORRERY_ASSIGN_OR_RETURN(json::Value first, items.Item(0));
    ORRERY_ASSIGN_OR_RETURN(const int64_t overhead, StoredOverhead(*account, first));
    ORRERY_ASSIGN_OR_RETURN(std::vector<SizeList> sizes,
                            EstimateSizesAndPlanLoad(items, options, overhead, plan));
    for (size_t c = 0; c < containers.size(); ++c) {
      ORRERY_RETURN_IF_ERROR(
          SplitAhead(*account, ContainerId(c), sizes[c], SplitThreshold(options)));
      ORRERY_ASSIGN_OR_RETURN(containers[c], account->GetContainer(kDatabase, ContainerId(c)));
    }
  }
  // The background splitter's first round, as a server runs it: it also tells each
  // (empty) container its size, so that writes need not read their logical partition's
  // size to know it stays below the limit.
  ORRERY_RETURN_IF_ERROR(account->SplitWhereNeeded());
  LoadItems(plan, options, containers, results);
  plan = LoadPlan();
  if (options.progress) options.progress("splitting at scale", 0, 1);
  ORRERY_RETURN_IF_ERROR(SplitAtScale(*account, containers));

  std::vector<std::vector<SampledOperation>> sampled(containers.size());
  for (size_t c = 0; c < containers.size(); ++c) {
    ORRERY_ASSIGN_OR_RETURN(containers[c], account->GetContainer(kDatabase, ContainerId(c)));
    CandidateResult& result = results[c];
    result.splits = static_cast<int>(containers[c]->settings().partitions.partitions().size()) -
                    result.initial_partitions;
    ORRERY_ASSIGN_OR_RETURN(result.logical, MeasureLogical(*containers[c], options));
    ORRERY_ASSIGN_OR_RETURN(result.physical, MeasurePhysical(*containers[c], options));
    for (size_t o = 0; o < options.workload.operations.size(); ++o) {
      if (options.progress) {
        options.progress("measuring " + result.candidate.label(), o,
                         options.workload.operations.size());
      }
      ORRERY_ASSIGN_OR_RETURN(SampledOperation op,
                              SampleOperation(options.workload.operations[o], o, result.candidate,
                                              *containers[c], items, options));
      sampled[c].push_back(std::move(op));
    }
    SummarizeOperations(sampled[c], result);
  }

  StudyResult study;
  study.items = items.count();
  study.indexing_policy = policy;
  study.scale = options.scale;
  study.throughput = options.throughput;
  study.autoscale = options.autoscale;
  const double rate =
      OfferedLoad(options.workload, sampled, results, static_cast<double>(options.throughput));
  study.requests_per_second = rate;
  for (size_t c = 0; c < containers.size(); ++c) {
    if (options.progress) options.progress("playing the workload", c, containers.size());
    const ReplayResult replay =
        ReplayTraffic(sampled[c], containers[c]->PartitionNumbers(),
                      static_cast<double>(options.throughput), rate, options.seed);
    study.seconds_played = replay.seconds;
    std::map<std::string, uint32_t> numbers;
    for (const auto& p : containers[c]->settings().partitions.partitions())
      numbers[p.id] = p.number;
    AddReplay(replay, numbers, static_cast<double>(options.throughput), results[c]);
  }
  study.ranking = std::move(results);
  RankCandidates(study);
  return study;
}

}  // namespace orrery::advise
