#include "engine/ttl_purger.h"

#include <chrono>

#include "common/log.h"

namespace orrery::engine {
namespace {

constexpr auto kInterval = std::chrono::seconds(1);
constexpr size_t kItemsPerRound = 1000;
// Items read per container per round: a few milliseconds of one core. A container
// of a million items is gone through every 50 s; expired items are invisible to
// reads and queries meanwhile, and the service, too, purges late when busy.
constexpr size_t kScannedPerRound = 20000;

}  // namespace

TtlPurger::TtlPurger(const storage::Store& store, ContainerList containers)
    : store_(store),
      containers_(std::move(containers)),
      task_(kInterval, [this] { PurgeRound(); }) {}

void TtlPurger::PurgeRound() const {
  for (const std::shared_ptr<Container>& container : containers_()) {
    // No delete could be written; the store has logged the full disk.
    if (store_.OutOfSpace()) return;
    if (!container->ttl_enabled()) continue;
    Result<size_t> purged = container->PurgeExpired(kItemsPerRound, kScannedPerRound);
    if (!purged.ok() && purged.status().code() == StatusCode::kInsufficientStorage) return;
    if (!purged.ok()) {
      Log(LogLevel::kWarn, "TTL purge of container " + container->settings().id +
                               " failed: " + purged.status().ToString());
    }
  }
}

}  // namespace orrery::engine
