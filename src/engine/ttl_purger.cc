#include "engine/ttl_purger.h"

#include <chrono>

#include "common/log.h"

namespace orrery::engine {
namespace {

constexpr auto kInterval = std::chrono::seconds(1);
// Expired items deleted per container per round, at most: the purge reads only the
// expiry index's due entries (expiry_index.h), so a round costs what expires, not what
// the container holds. Expired items are invisible to reads and queries until then, and
// the service, too, purges late when busy.
constexpr size_t kItemsPerRound = 1000;

}  // namespace

TtlPurger::TtlPurger(const storage::Store& store, ContainerList containers)
    : store_(store),
      containers_(std::move(containers)),
      task_(kInterval, [this] { PurgeRound(); }) {}

void TtlPurger::PurgeRound() const {
  for (const std::shared_ptr<Container>& container : containers_()) {
    // No delete could be written; the store has logged the full disk.
    if (store_.OutOfSpace()) return;
    if (container->partition_deletes_running()) {
      Result<Container::PurgeCount> deleted = container->PurgeDeletedPartitions(kItemsPerRound);
      if (!deleted.ok() && deleted.status().code() == StatusCode::kInsufficientStorage) return;
      if (!deleted.ok()) {
        Log(LogLevel::kWarn, "Partition-key delete in container " + container->settings().id +
                                 " failed: " + deleted.status().ToString());
      }
    }
    if (!container->ttl_enabled()) continue;
    Result<Container::PurgeCount> purged = container->PurgeExpired(kItemsPerRound);
    if (!purged.ok() && purged.status().code() == StatusCode::kInsufficientStorage) return;
    if (!purged.ok()) {
      Log(LogLevel::kWarn, "TTL purge of container " + container->settings().id +
                               " failed: " + purged.status().ToString());
    }
  }
}

}  // namespace orrery::engine
