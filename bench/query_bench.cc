// Query execution in-process (engine::Account over the in-memory RocksDB environment),
// for the three figures of the query issue:
//   - a filter on a non-indexed path, full scan: items scanned per second (one thread);
//   - an indexed equality query that returns 10 items: time per query;
//   - cross-partition ORDER BY c.ts DESC TOP 10 over 8 partitions: time per query and
//     items loaded (streams from the index: ~10 per partition, not the container).
//
//   build/bench/orrery_query_bench                         # 1,000,000 items of ~1 KB
//   ORRERY_BENCH_ITEMS=100000 build/bench/orrery_query_bench
//
// Loading takes most of the run (about a minute for a million items); every figure is
// measured on the same loaded container.

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "engine/account.h"
#include "json/json.h"
#include "query/query.h"

namespace orrery {
namespace {

// `x` is excluded from the index, `k` has items / 10 distinct values (10 items each),
// `ts` is unique, and `payload` pads the item to about 1 KB. `x` is the last member, so
// the scan reads through the whole item to find it.
constexpr const char* kContainer = R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2},
  "indexingPolicy":{"indexingMode":"consistent","includedPaths":[{"path":"/*"}],
  "excludedPaths":[{"path":"/x/?"},{"path":"/payload/?"},{"path":"/\"_etag\"/?"}]}})";

size_t ItemCount() {
  const char* env = std::getenv("ORRERY_BENCH_ITEMS");
  return env ? static_cast<size_t>(std::strtoull(env, nullptr, 10)) : 1000000;
}

struct Fixture {
  std::unique_ptr<engine::Account> account;
  std::shared_ptr<engine::Container> container;
  size_t items = 0;
};

Fixture& Loaded() {
  static Fixture* fixture = [] {
    auto* f = new Fixture;
    engine::AccountOptions options;
    options.store.in_memory = true;
    options.initial_partitions = 8;
    f->account = std::move(engine::Account::Open(options)).value();
    (void)f->account->CreateDatabase(*json::Parse(R"({"id":"db"})"), {});
    auto created = f->account->CreateContainer("db", *json::Parse(kContainer), {});
    if (!created.ok()) std::abort();
    f->container = *f->account->GetContainer("db", "c");
    f->items = ItemCount();
    const std::string payload(880, 'p');
    std::string body;
    for (size_t i = 0; i < f->items; ++i) {
      const std::string pk = "pk" + std::to_string(i % 5000);
      body = R"({"id":"item)" + std::to_string(i) + R"(","pk":")" + pk + R"(","ts":)" +
             std::to_string(1700000000 + i) + R"(,"k":)" + std::to_string(i % (f->items / 10)) +
             R"(,"name":"name)" + std::to_string(i % 977) + R"(","active":)" +
             (i % 3 == 0 ? "true" : "false") + R"(,"payload":")" + payload + R"(","x":)" +
             std::to_string(i) + "}";
      engine::ItemWriteRequest request;
      request.kind = engine::WriteKind::kCreate;
      request.partition_key = {partition::PartitionKeyComponent::String(pk)};
      request.body = body;
      if (!f->container->WriteItem(request).ok()) std::abort();
    }
    // Measured in the steady state that background compaction reaches on an idle
    // server, not in the middle of the load's flushes and compactions.
    if (!f->account->CompactStorage().ok()) std::abort();
    std::cerr << "loaded " << f->items << " items of about " << body.size() << " bytes\n";
    return f;
  }();
  return *fixture;
}

std::unique_ptr<query::CompiledQuery> Compile(const std::string& text) {
  auto query = query::Compile(text, {});
  if (!query.ok()) std::abort();
  return std::move(*query);
}

engine::FeedPage RunOnce(const engine::Container& container, const query::CompiledQuery& query) {
  auto page = container.Query(query, container.FullScope(), 1000, "");
  if (!page.ok()) std::abort();
  return std::move(*page);
}

void BM_FilterOnNonIndexedPath(benchmark::State& state) {
  Fixture& f = Loaded();
  auto query = Compile("SELECT VALUE c.id FROM c WHERE c.x = -1");  // matches nothing
  size_t scanned = 0;
  for (auto _ : state) {
    engine::FeedPage page = RunOnce(*f.container, *query);
    if (page.loaded_count != f.items) state.SkipWithError("did not scan every item");
    scanned += page.loaded_count;
  }
  state.counters["items_per_s"] =
      benchmark::Counter(static_cast<double>(scanned), benchmark::Counter::kIsRate);
}

// Runs `text` repeatedly; it must return 10 rows. Reports the items it loaded.
void MeasureTenRowQuery(benchmark::State& state, const std::string& text) {
  Fixture& f = Loaded();
  auto query = Compile(text);
  engine::FeedPage page;
  for (auto _ : state) page = RunOnce(*f.container, *query);
  if (page.documents.size() != 10) state.SkipWithError("expected 10 results");
  state.counters["items_loaded"] = static_cast<double>(page.loaded_count);
}

void BM_IndexedEqualityTenResults(benchmark::State& state) {
  MeasureTenRowQuery(state, "SELECT * FROM c WHERE c.k = " + std::to_string(Loaded().items / 20));
}

void BM_CrossPartitionOrderByTop10(benchmark::State& state) {
  MeasureTenRowQuery(state, "SELECT TOP 10 * FROM c ORDER BY c.ts DESC");
  state.counters["partitions"] =
      static_cast<double>(Loaded().container->settings().partitions.partitions().size());
}

BENCHMARK(BM_FilterOnNonIndexedPath)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_IndexedEqualityTenResults)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CrossPartitionOrderByTop10)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace orrery

BENCHMARK_MAIN();
