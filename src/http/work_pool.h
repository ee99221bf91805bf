#pragma once

// WorkPool: a fixed set of threads that run queued jobs in order of arrival. The
// server runs Handler calls that may take long (scans) or mostly wait (synced
// writes) here instead of on its I/O threads, so that they do not hold up the other
// connections those threads serve (see README.md, "Where a request runs").
// Thread-safe: Submit() and Stop() may be called from any thread.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "common/stack.h"

namespace orrery::http {

class WorkPool {
 public:
  // Starts `threads` (at least one) threads with stacks of kRequestThreadStackBytes:
  // they run Handlers, which need the stack budget of the I/O threads. `nice` (0..19)
  // lowers their scheduling priority relative to the I/O threads, so that CPU-heavy
  // jobs yield the cores to cheap requests instead of taking turns with them.
  WorkPool(int threads, int nice);
  ~WorkPool();  // Stop()
  WorkPool(const WorkPool&) = delete;
  WorkPool& operator=(const WorkPool&) = delete;

  // Queues `job`; false (and `job` destroyed unrun) once Stop() has begun.
  bool Submit(std::function<void()> job);
  // Destroys the jobs still queued without running them, waits for the running ones
  // and joins the threads. Idempotent; a concurrent second call returns once the first
  // is done. REQUIRES: not called from a job.
  void Stop();

  size_t thread_count() const { return threads_.size(); }

 private:
  void Run(int nice);

  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::deque<std::function<void()>> queue_;  // guarded by mutex_
  bool stopping_ = false;                    // guarded by mutex_
  std::mutex stop_mutex_;                    // serializes Stop() calls
  std::vector<Thread> threads_;              // emptied by Stop(), under stop_mutex_
};

}  // namespace orrery::http
