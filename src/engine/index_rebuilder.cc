#include "engine/index_rebuilder.h"

#include "common/log.h"

namespace orrery::engine {

IndexRebuilder::~IndexRebuilder() {
  std::lock_guard lock(mutex_);
  for (Job& job : jobs_) job.container->StopIndexRebuild();
  for (Job& job : jobs_) job.thread.join();
}

void IndexRebuilder::Start(std::shared_ptr<Container> container) {
  const uint64_t generation = container->BeginIndexRebuild();
  std::lock_guard lock(mutex_);
  ReapFinished();
  auto done = std::make_shared<std::atomic<bool>>(false);
  std::thread thread([container, generation, done] {
    Status status = container->RebuildIndex(generation);
    if (!status.ok()) {
      Log(LogLevel::kError, "index rebuild of container " + container->settings().id +
                                " failed: " + status.ToString());
    }
    *done = true;
  });
  jobs_.push_back(Job{std::move(container), std::move(done), std::move(thread)});
}

void IndexRebuilder::ReapFinished() {
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    if (*it->done) {
      it->thread.join();
      it = jobs_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace orrery::engine
