// Time to split one physical partition of about 256 MB while serving reads (issue 5),
// in process: loads ORRERY_SPLIT_BENCH_MB (default 256) MB of ~1 KB items into a
// one-partition container on disk, then splits it at the middle of its data while two
// threads read random items, and prints the split's duration and the reads served
// during it against the reads served before it.
//   build/bench/orrery_split_bench

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_account.h"

using namespace orrery;
using SteadyClock = std::chrono::steady_clock;

namespace {

std::string Body(int i) {
  return R"({"id":"i)" + std::to_string(i) + R"(","pk":"k)" + std::to_string(i) + R"(","n":)" +
         std::to_string(i) + R"(,"pad":")" + std::string(900, 'x') + R"("})";
}

partition::PartitionKeyValue Key(int i) {
  return {partition::PartitionKeyComponent::String("k" + std::to_string(i))};
}

double Seconds(SteadyClock::duration d) { return std::chrono::duration<double>(d).count(); }

// Reads random items with `threads` threads until `stop`; returns the reads done.
int64_t ReadUntil(engine::Container& c, int items, int threads, const std::atomic<bool>& stop) {
  std::atomic<int64_t> reads{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::mt19937 random(static_cast<unsigned>(t));
      while (!stop.load(std::memory_order_relaxed)) {
        const int i = static_cast<int>(random() % static_cast<unsigned>(items));
        if (!c.ReadItem(Key(i), "i" + std::to_string(i), std::nullopt).ok()) std::abort();
        reads.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  for (auto& t : pool) t.join();
  return reads.load();
}

}  // namespace

int main() {
  const char* mb_env = std::getenv("ORRERY_SPLIT_BENCH_MB");
  const int mb = mb_env ? std::atoi(mb_env) : 256;
  const std::string dir = std::filesystem::temp_directory_path() / "orrery-split-bench";
  std::filesystem::remove_all(dir);
  engine::AccountOptions options;
  options.store.path = dir;
  options.background_ttl_purge = false;
  options.background_splits = false;
  std::optional<bench::BenchAccount> opened = bench::OpenBenchAccount(options);
  if (!opened) return 1;
  std::unique_ptr<engine::Account>& account = opened->account;
  std::shared_ptr<engine::Container> container = opened->container;

  const int items = mb * 1024 * 1024 / 1100;
  const auto load_start = SteadyClock::now();
  for (int i = 0; i < items; ++i) {
    const std::string body = Body(i);
    engine::ItemWriteRequest r;
    r.partition_key = Key(i);
    r.body = body;
    if (!container->WriteItem(r).ok()) return 1;
  }
  std::printf("loaded %d items (%d MB of JSON) in %.1f s\n", items, mb,
              Seconds(SteadyClock::now() - load_start));

  std::atomic<bool> stop{false};
  const auto baseline_start = SteadyClock::now();
  std::thread timer([&] {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    stop = true;
  });
  const int64_t before = ReadUntil(*container, items, 2, stop);
  timer.join();
  const double before_rate =
      static_cast<double>(before) / Seconds(SteadyClock::now() - baseline_start);

  // The split point that halves the data: the middle logical partition's EPK.
  auto sizes = *container->LogicalPartitionSizes();
  const std::string at = sizes[sizes.size() / 2].epk;
  stop = false;
  int64_t during = 0;
  std::thread readers([&] { during = ReadUntil(*container, items, 2, stop); });
  const auto split_start = SteadyClock::now();
  const Status split = account->SplitPartition("db", "c", 0, at);
  const double split_seconds = Seconds(SteadyClock::now() - split_start);
  stop = true;
  readers.join();
  if (!split.ok()) {
    std::printf("split failed: %s\n", split.ToString().c_str());
    return 1;
  }
  std::printf(
      "split of a %d MB partition: %.2f s; reads during it %.0f/s (before: %.0f/s, %.0f%%)\n", mb,
      split_seconds, static_cast<double>(during) / split_seconds, before_rate,
      100.0 * static_cast<double>(during) / split_seconds / before_rate);
  account.reset();
  std::filesystem::remove_all(dir);
  return 0;
}
