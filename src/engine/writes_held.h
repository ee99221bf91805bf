#pragma once

// Running something while no write to a container is in flight: a split's commit, the
// first count of a path (container_presence.cc).

#include <atomic>
#include <mutex>
#include <shared_mutex>

#include "engine/container.h"

namespace orrery::engine {

// Runs `fn` with no write in flight: every write holds split_mutex shared, and new ones
// wait while split_commit_waiting is set (Container::EnterWrite). Never call it while
// holding split_mutex.
template <typename Fn>
auto WithWritesHeld(ContainerWriteState& state, Fn&& fn) {
  state.split_commit_waiting = true;
  std::unique_lock exclusive(state.split_mutex);
  struct ClearWaiting {
    std::atomic<bool>& waiting;
    ~ClearWaiting() { waiting = false; }
  } clear{state.split_commit_waiting};
  return fn();
}

}  // namespace orrery::engine
