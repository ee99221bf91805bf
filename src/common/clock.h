#pragma once

// Time comes through a Clock so that TTL, throttling and auth skew are testable
// without sleeping.

#include <chrono>
#include <cstdint>

namespace orrery {

// Thread-safe.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::chrono::system_clock::time_point Now() const = 0;
  int64_t NowSeconds() const {
    return std::chrono::duration_cast<std::chrono::seconds>(Now().time_since_epoch()).count();
  }
  static const Clock& System();
};

// A clock tests move by hand.
class ManualClock : public Clock {
 public:
  explicit ManualClock(std::chrono::system_clock::time_point now) : now_(now) {}
  std::chrono::system_clock::time_point Now() const override { return now_; }
  void Advance(std::chrono::milliseconds d) { now_ += d; }

 private:
  std::chrono::system_clock::time_point now_;
};

}  // namespace orrery
