#include "engine/number_allocator.h"

namespace orrery::engine {

NumberAllocator::NumberAllocator(storage::Store& store, std::string meta_key, uint64_t start,
                                 uint64_t block)
    : store_(store),
      meta_key_(std::move(meta_key)),
      block_size_(block),
      next_(start),
      reserved_end_(start) {}

Result<std::unique_ptr<NumberAllocator>> NumberAllocator::Open(storage::Store& store,
                                                               std::string meta_key,
                                                               uint64_t block_size) {
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored, store.Get(meta_key));
  uint64_t start = 1;
  if (stored.has_value()) {
    start = std::stoull(*stored);
  }
  return std::unique_ptr<NumberAllocator>(
      new NumberAllocator(store, std::move(meta_key), start, block_size));
}

Status NumberAllocator::Reserve(uint64_t needed) {
  std::lock_guard lock(reserve_mutex_);
  uint64_t end = reserved_end_.load();
  if (needed < end) {
    return Status::Ok();
  }
  uint64_t new_end = needed + block_size_;
  storage::WriteBatch batch;
  batch.Put(meta_key_, std::to_string(new_end));
  ORRERY_RETURN_IF_ERROR(store_.WriteSynced(batch));
  reserved_end_.store(new_end);
  return Status::Ok();
}

Result<uint64_t> NumberAllocator::Next() {
  uint64_t n = next_.fetch_add(1);
  if (n >= reserved_end_.load(std::memory_order_acquire)) {
    ORRERY_RETURN_IF_ERROR(Reserve(n));
  }
  return n;
}

}  // namespace orrery::engine
