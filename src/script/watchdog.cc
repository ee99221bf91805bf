#include "script/watchdog.h"

#include <jsapi.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

namespace orrery::script {
namespace {

struct Armed {
  JSContext* context;
  Watchdog::Clock::time_point deadline;
  std::atomic<bool>* expired;
};

// Never destroyed: guards may end during static destruction on other threads.
class WatchdogThread {
 public:
  static WatchdogThread& Get() {
    static WatchdogThread* instance = new WatchdogThread();
    return *instance;
  }

  uint64_t Arm(const Armed& armed) {
    std::lock_guard lock(mutex_);
    const uint64_t ticket = ++last_ticket_;
    armed_.emplace(ticket, armed);
    changed_.notify_one();
    return ticket;
  }

  // After Disarm returns, the context is not interrupted for this ticket.
  void Disarm(uint64_t ticket) {
    std::lock_guard lock(mutex_);
    armed_.erase(ticket);
  }

 private:
  WatchdogThread() : thread_([this] { Watch(); }) { thread_.detach(); }

  void Watch() {
    std::unique_lock lock(mutex_);
    for (;;) {
      Watchdog::Clock::time_point next = Watchdog::Clock::time_point::max();
      const auto now = Watchdog::Clock::now();
      for (auto it = armed_.begin(); it != armed_.end();) {
        if (it->second.deadline <= now) {
          it->second.expired->store(true);
          JS_RequestInterruptCallback(it->second.context);
          it = armed_.erase(it);
        } else {
          next = std::min(next, it->second.deadline);
          ++it;
        }
      }
      if (next == Watchdog::Clock::time_point::max()) {
        changed_.wait(lock);
      } else {
        changed_.wait_until(lock, next);
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<uint64_t, Armed> armed_;
  uint64_t last_ticket_ = 0;
  std::thread thread_;
};

}  // namespace

Watchdog::Guard::Guard(JSContext* context, Clock::time_point deadline, std::atomic<bool>* expired)
    : ticket_(WatchdogThread::Get().Arm({context, deadline, expired})) {}

Watchdog::Guard::~Guard() { WatchdogThread::Get().Disarm(ticket_); }

}  // namespace orrery::script
