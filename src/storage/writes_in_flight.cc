#include "storage/writes_in_flight.h"

#include <algorithm>

namespace orrery::storage {

uint64_t WritesInFlight::Begin() {
  std::lock_guard lock(mutex_);
  const uint64_t ticket = next_++;
  in_flight_.push_back(ticket);
  return ticket;
}

void WritesInFlight::End(uint64_t ticket) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    auto it = std::find(in_flight_.begin(), in_flight_.end(), ticket);
    if (it != in_flight_.end()) {
      *it = in_flight_.back();
      in_flight_.pop_back();
    }
    wake = waiting_ > 0;
  }
  // Only reads that wait pay for a wake-up; a write alone does not.
  if (wake) ended_.notify_all();
}

uint64_t WritesInFlight::Issued() const {
  std::lock_guard lock(mutex_);
  return next_;
}

bool WritesInFlight::AnyEarlier(uint64_t issued) const {
  return std::any_of(in_flight_.begin(), in_flight_.end(),
                     [issued](uint64_t ticket) { return ticket < issued; });
}

bool WritesInFlight::WaitForEarlier(uint64_t issued, std::chrono::milliseconds limit) {
  std::unique_lock lock(mutex_);
  if (!AnyEarlier(issued)) return true;
  ++waiting_;
  const bool done = ended_.wait_for(lock, limit, [&] { return !AnyEarlier(issued); });
  --waiting_;
  return done;
}

}  // namespace orrery::storage
