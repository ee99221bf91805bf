#pragma once

// Stops scripts that run past their time limit: one thread for the process, which
// calls each armed context's interrupt when its deadline passes. SpiderMonkey then
// runs the context's interrupt callback on the script's own thread, which ends the
// script (js_thread.cc).

#include <atomic>
#include <chrono>
#include <cstdint>

struct JSContext;

namespace orrery::script {

class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;
  // Until the guard ends, `context` is interrupted at `deadline` and `*expired` set.
  class Guard {
   public:
    Guard(JSContext* context, Clock::time_point deadline, std::atomic<bool>* expired);
    ~Guard();
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    uint64_t ticket_;
  };
};

}  // namespace orrery::script
