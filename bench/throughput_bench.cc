// What charging and enforcing throughput adds to one point operation, in process: the
// ledger's Admit and Charge for one physical partition, unenforced (counting only, as
// every request does) and enforced, on one thread and on two contending threads.
// Compare with the server CPU a point read takes (bench/point_ops.sh reports it).
//   build/bench/orrery_throughput_bench

#include <benchmark/benchmark.h>

#include "engine/throughput/throughput_ledger.h"

namespace {

orrery::throughput::ThroughputLedger& Ledger(bool enforced) {
  static orrery::throughput::ThroughputLedger ledgers[2];
  static bool ready = [] {
    std::vector<uint32_t> partitions;
    for (uint32_t i = 0; i < 20; ++i) partitions.push_back(i);
    for (auto& ledger : ledgers) {
      // Far more than the loop uses: nothing is throttled, only the bookkeeping runs.
      ledger.Provision(partitions, 1e12, std::chrono::steady_clock::now());
    }
    ledgers[1].SetEnforced(true);
    return true;
  }();
  (void)ready;
  return ledgers[enforced ? 1 : 0];
}

void BM_PointOperationBookkeeping(benchmark::State& state) {
  auto& ledger = Ledger(state.range(0) != 0);
  uint32_t partition = static_cast<uint32_t>(state.thread_index()) % 20;
  for (auto _ : state) {
    const auto now = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(ledger.Admit(partition, now));
    ledger.Charge(partition, 1.0, now);
    partition = (partition + 7) % 20;
  }
}
BENCHMARK(BM_PointOperationBookkeeping)
    ->ArgName("enforced")
    ->Arg(0)
    ->Arg(1)
    ->Threads(1)
    ->Threads(2);

}  // namespace

BENCHMARK_MAIN();
