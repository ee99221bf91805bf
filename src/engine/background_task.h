#pragma once

// Runs a piece of work on its own thread every `period` until destroyed; the
// destructor wakes the thread, waits for the round in progress and joins it.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace orrery::engine {

class BackgroundTask {
 public:
  BackgroundTask(std::chrono::milliseconds period, std::function<void()> work);
  BackgroundTask(const BackgroundTask&) = delete;
  BackgroundTask& operator=(const BackgroundTask&) = delete;
  ~BackgroundTask();

 private:
  void Run();

  const std::chrono::milliseconds period_;
  const std::function<void()> work_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace orrery::engine
