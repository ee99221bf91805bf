#include "http/work_pool.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

#include "common/log.h"

namespace orrery::http {

namespace {

// Linux schedules threads, not processes: PRIO_PROCESS with a thread id renices that
// thread alone. Best effort: a container without CAP_SYS_NICE may only raise it,
// which is all this does.
void LowerThisThreadPriority(int nice) {
  if (nice <= 0) return;
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  if (setpriority(PRIO_PROCESS, tid, std::min(nice, 19)) != 0) {
    Log(LogLevel::kWarn, "cannot lower the priority of a worker thread");
  }
}

}  // namespace

WorkPool::WorkPool(int threads, int nice) {
  const int count = std::max(1, threads);
  threads_.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    threads_.emplace_back(kRequestThreadStackBytes, [this, nice] { Run(nice); });
  }
}

WorkPool::~WorkPool() { Stop(); }

bool WorkPool::Submit(std::function<void()> job) {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) return false;
    queue_.push_back(std::move(job));
  }
  work_ready_.notify_one();
  return true;
}

void WorkPool::Stop() {
  const std::lock_guard stop_lock(stop_mutex_);
  std::deque<std::function<void()>> dropped;
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    dropped.swap(queue_);
  }
  work_ready_.notify_all();
  // Outside the lock: a job's captures (a session) may do anything when destroyed.
  dropped.clear();
  for (Thread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
  threads_.clear();
}

void WorkPool::Run(int nice) {
  LowerThisThreadPriority(nice);
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    // Jobs catch their own errors (the session turns a Handler's exception into a 500);
    // one that escapes must not end the thread and shrink the pool for good.
    try {
      job();
    } catch (const std::exception& e) {
      Log(LogLevel::kError, std::string("unexpected exception on a worker thread: ") + e.what());
    } catch (...) {
      Log(LogLevel::kError, "unexpected exception on a worker thread");
    }
  }
}

}  // namespace orrery::http
