#pragma once

// Memory for one request head's fields. Beast's basic_fields allocates every header
// line (and the method and target) separately: eight or ten allocations and frees per
// request. A session hands its parser an allocator over a buffer it owns and rewinds
// the buffer between requests, so a typical head costs none. A head that does not fit
// takes the rest from the heap. Internal to src/http/.

#include <cstddef>
#include <cstdint>
#include <new>

#include "http/beast.h"

namespace orrery::http {

class RequestArena {
 public:
  RequestArena() = default;
  RequestArena(const RequestArena&) = delete;
  RequestArena& operator=(const RequestArena&) = delete;

  void* Allocate(size_t bytes) {
    const size_t aligned = (bytes + kAlign - 1) & ~(kAlign - 1);
    if (aligned <= kBytes - used_) {
      void* p = buffer_ + used_;
      used_ += aligned;
      return p;
    }
    return ::operator new(bytes);
  }

  void Deallocate(void* p) {
    if (!Owns(p)) ::operator delete(p);
    // Memory in the buffer comes back all at once, at Rewind().
  }

  // Only once nothing allocated from the buffer is in use (the parser is gone).
  void Rewind() { used_ = 0; }

 private:
  static constexpr size_t kAlign = alignof(std::max_align_t);
  // A Cosmos SDK request head is 0.5-1.5 KB; Beast adds a few dozen bytes per field.
  static constexpr size_t kBytes = size_t{4} * 1024;

  bool Owns(const void* p) const {
    const auto* b = static_cast<const unsigned char*>(p);
    return b >= buffer_ && b < buffer_ + kBytes;
  }

  alignas(kAlign) unsigned char buffer_[kBytes];
  size_t used_ = 0;
};

template <typename T>
class ArenaAllocator {
 public:
  using value_type = T;

  explicit ArenaAllocator(RequestArena& arena) noexcept : arena_(&arena) {}
  template <typename U>
  ArenaAllocator(const ArenaAllocator<U>& other) noexcept : arena_(other.arena()) {}

  T* allocate(size_t n) { return static_cast<T*>(arena_->Allocate(n * sizeof(T))); }
  void deallocate(T* p, size_t /*n*/) noexcept { arena_->Deallocate(p); }

  RequestArena* arena() const noexcept { return arena_; }

  template <typename U>
  bool operator==(const ArenaAllocator<U>& other) const noexcept {
    return arena_ == other.arena();
  }

 private:
  RequestArena* arena_;
};

using ArenaFields = bhttp::basic_fields<ArenaAllocator<char>>;
using ArenaRequestParser = bhttp::request_parser<bhttp::string_body, ArenaAllocator<char>>;

}  // namespace orrery::http
