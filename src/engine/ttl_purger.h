#pragma once

// Deletes expired items (container_ttl.cc) and the items of partition-key deletes
// (container_partition_delete.cc) in the background: once a second, a bounded number
// per container, so the purge never holds up requests for long. It finds them in
// the expiry index (expiry_index.h), so a round costs what expires. Rests while
// the disk is full (the expired items stay invisible). Stops and joins its thread when
// destroyed.

#include <functional>
#include <memory>
#include <vector>

#include "engine/background_task.h"
#include "engine/container.h"
#include "storage/store.h"

namespace orrery::engine {

class TtlPurger {
 public:
  using ContainerList = std::function<std::vector<std::shared_ptr<Container>>()>;
  TtlPurger(const storage::Store& store, ContainerList containers);

 private:
  void PurgeRound() const;

  const storage::Store& store_;
  ContainerList containers_;
  BackgroundTask task_;  // last: it runs PurgeRound until destroyed
};

}  // namespace orrery::engine
