#pragma once

// Runs range-index rebuilds (after an indexing-policy change, or on start when a
// rebuild was cut short) on background threads, one per container being rebuilt, and
// stops and joins them all when destroyed, before the store they write to goes away.

#include <list>
#include <memory>
#include <mutex>
#include <thread>

#include "engine/container.h"

namespace orrery::engine {

class IndexRebuilder {
 public:
  IndexRebuilder() = default;
  IndexRebuilder(const IndexRebuilder&) = delete;
  IndexRebuilder& operator=(const IndexRebuilder&) = delete;
  ~IndexRebuilder();

  // Marks the container's index as being rebuilt and rebuilds it in the background.
  void Start(std::shared_ptr<Container> container);

 private:
  struct Job {
    std::shared_ptr<Container> container;
    std::shared_ptr<std::atomic<bool>> done;
    std::thread thread;
  };
  // Joins the jobs that have finished.
  void ReapFinished();

  std::mutex mutex_;
  std::list<Job> jobs_;
};

}  // namespace orrery::engine
