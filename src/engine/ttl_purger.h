#pragma once

// Deletes expired items in the background (container_ttl.cc): once a second, a bounded
// number per container, so the purge never holds up requests for long. Stops and joins
// its thread when destroyed.

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/container.h"

namespace orrery::engine {

class TtlPurger {
 public:
  using ContainerList = std::function<std::vector<std::shared_ptr<Container>>()>;
  explicit TtlPurger(ContainerList containers);
  TtlPurger(const TtlPurger&) = delete;
  TtlPurger& operator=(const TtlPurger&) = delete;
  ~TtlPurger();

 private:
  void Run();

  ContainerList containers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace orrery::engine
