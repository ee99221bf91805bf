#pragma once

// The writes a store is applying at the moment, so that a read that needs every write
// it can see whole (Store::ReadView) waits for those that began before it. Each write
// holds a ticket from before it reaches RocksDB until RocksDB has applied it; tickets
// rise in the order writes begin.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

namespace orrery::storage {

class WritesInFlight {
 public:
  // A write begins: its ticket, to hand back to End.
  uint64_t Begin();
  void End(uint64_t ticket);
  // The tickets handed out so far: every write that began before this call holds a
  // smaller one.
  uint64_t Issued() const;
  // Waits until no write with a ticket below `issued` is in flight, for at most `limit`.
  // True when none is.
  bool WaitForEarlier(uint64_t issued, std::chrono::milliseconds limit);

 private:
  bool AnyEarlier(uint64_t issued) const;  // REQUIRES: mutex_ held

  mutable std::mutex mutex_;
  std::condition_variable ended_;
  uint64_t next_ = 0;
  std::vector<uint64_t> in_flight_;  // a few at most: one per writing thread
  int waiting_ = 0;
};

}  // namespace orrery::storage
