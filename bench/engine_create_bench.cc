// What a create costs the engine and RocksDB alone, without HTTP (issue 16, point 8): opens
// an account on disk in a fresh directory, creates a container with the default indexing
// policy and 10,000 items, then has ORRERY_ENGINE_BENCH_THREADS threads (default 2)
// create 1 KB items shaped as bench/lua/create.lua's (unique id and partition key, n, a
// run of x as payload) for ORRERY_ENGINE_BENCH_SECONDS (default 8), and prints creates/s
// and the process's CPU (user + system, every thread: RocksDB's flushes and compactions
// included) per create. The server's figure for the same create over HTTP comes from
// bench/create_cpu_breakdown.sh; the difference is what the request around the write
// costs.
//   build/bench/orrery_engine_create_bench

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "bench_account.h"

using namespace orrery;
using SteadyClock = std::chrono::steady_clock;

namespace {

int EnvInt(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value ? std::atoi(value) : fallback;
}

double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// A 1,024-byte item like bench/lua/create.lua's: the id is also the partition key.
std::string Body(const std::string& id) {
  const std::string head = R"({"id":")" + id + R"(","pk":")" + id + R"(","n":0,"payload":")";
  const size_t pad = 1024 > head.size() + 2 ? 1024 - head.size() - 2 : 0;
  return head + std::string(pad, 'x') + R"("})";
}

Status Create(engine::Container& container, const std::string& id) {
  const std::string body = Body(id);
  engine::ItemWriteRequest request;
  request.partition_key = {partition::PartitionKeyComponent::String(id)};
  request.body = body;
  return container.WriteItem(request).status();
}

}  // namespace

int main() {
  const int threads = EnvInt("ORRERY_ENGINE_BENCH_THREADS", 2);
  const int seconds = EnvInt("ORRERY_ENGINE_BENCH_SECONDS", 8);
  const std::string dir = std::filesystem::temp_directory_path() / "orrery-engine-create-bench";
  std::filesystem::remove_all(dir);
  engine::AccountOptions options;
  options.store.path = dir;
  std::optional<bench::BenchAccount> opened = bench::OpenBenchAccount(options);
  if (!opened) return 1;
  std::unique_ptr<engine::Account>& account = opened->account;
  std::shared_ptr<engine::Container> container = opened->container;
  for (int i = 0; i < 10000; ++i) {
    if (!Create(*container, "preload-" + std::to_string(i)).ok()) return 1;
  }

  std::atomic<bool> stop{false};
  std::atomic<int64_t> created{0};
  const double cpu_start = CpuSeconds();
  const auto start = SteadyClock::now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      char id[64];
      for (int64_t n = 0; !stop.load(std::memory_order_relaxed); ++n) {
        std::snprintf(id, sizeof id, "m-%d-%09lld", t, static_cast<long long>(n));
        if (!Create(*container, id).ok()) std::abort();
        created.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::seconds(seconds));
  stop = true;
  for (std::thread& t : pool) t.join();
  const double wall = std::chrono::duration<double>(SteadyClock::now() - start).count();
  const double cpu = CpuSeconds() - cpu_start;
  const double count = static_cast<double>(created.load());
  std::printf("threads %d: %.0f creates/s, %.1f us of CPU per create (%.0f creates in %.1f s)\n",
              threads, count / wall, cpu * 1e6 / count, count, wall);
  account.reset();
  std::filesystem::remove_all(dir);
  return 0;
}
