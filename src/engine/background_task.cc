#include "engine/background_task.h"

namespace orrery::engine {

BackgroundTask::BackgroundTask(std::chrono::milliseconds period, std::function<void()> work)
    : period_(period), work_(std::move(work)), thread_([this] { Run(); }) {}

BackgroundTask::~BackgroundTask() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void BackgroundTask::Run() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, period_, [this] { return stopping_; })) {
    lock.unlock();
    work_();
    lock.lock();
  }
}

}  // namespace orrery::engine
