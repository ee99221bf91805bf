#include "engine/ttl_purger.h"

#include <chrono>

#include "common/log.h"

namespace orrery::engine {
namespace {

constexpr auto kInterval = std::chrono::seconds(1);
constexpr size_t kItemsPerRound = 1000;

}  // namespace

TtlPurger::TtlPurger(ContainerList containers)
    : containers_(std::move(containers)), thread_([this] { Run(); }) {}

TtlPurger::~TtlPurger() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void TtlPurger::Run() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, kInterval, [this] { return stopping_; })) {
    lock.unlock();
    for (const std::shared_ptr<Container>& container : containers_()) {
      if (!container->ttl_enabled()) continue;
      Result<size_t> purged = container->PurgeExpired(kItemsPerRound);
      if (!purged.ok()) {
        Log(LogLevel::kWarn, "TTL purge of container " + container->settings().id +
                                 " failed: " + purged.status().ToString());
      }
    }
    lock.lock();
  }
}

}  // namespace orrery::engine
