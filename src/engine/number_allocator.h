#pragma once

// Hands out increasing numbers (item rids, LSNs) that never repeat across restarts.
// Numbers are reserved in blocks: the end of the current block is written (synced)
// to the store before any number of it is used, and a restart resumes after it, so a
// crash skips at most one block. Thread-safe.

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "common/status.h"
#include "storage/store.h"

namespace orrery::engine {

class NumberAllocator {
 public:
  // Loads the persisted high-water mark stored under meta_key.
  static Result<std::unique_ptr<NumberAllocator>> Open(storage::Store& store, std::string meta_key,
                                                       uint64_t block_size = 1 << 16);
  Result<uint64_t> Next();
  // The last number handed out (0 if none yet this run).
  uint64_t last() const { return next_.load(std::memory_order_relaxed) - 1; }

 private:
  NumberAllocator(storage::Store& store, std::string meta_key, uint64_t start, uint64_t block);
  Status Reserve(uint64_t needed);

  storage::Store& store_;
  const std::string meta_key_;
  const uint64_t block_size_;
  std::atomic<uint64_t> next_;
  std::atomic<uint64_t> reserved_end_;
  std::mutex reserve_mutex_;
};

}  // namespace orrery::engine
