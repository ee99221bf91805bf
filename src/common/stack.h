#pragma once

// Stack budgets. Input can drive recursion (a query's nested expressions, a JSON
// document's nesting), so every recursive walker is bounded twice:
//  1. by a fixed, documented limit on the input (query/limits.h, json::ParseOptions),
//     chosen so that the deepest admitted input needs a fraction of the stack of the
//     threads that run requests (kRequestThreadStackBytes);
//  2. by StackExhausted(), checked at each level, which turns an overflow that the
//     limits did not foresee (a larger frame under a sanitizer, a thread with a
//     smaller stack) into an error instead of a crash.

#include <cstddef>
#include <functional>
#include <memory>

namespace orrery {

// The stack of every thread that runs requests (HTTP I/O threads). Generous: only the
// pages a request touches are ever mapped, and a query at the nesting limit needs a
// few MB in a sanitizer build.
inline constexpr size_t kRequestThreadStackBytes = size_t{64} << 20;

// What a walker leaves untouched when it refuses to go deeper: room for the leaf work
// of the frame that checks (a built-in function, a regex, an allocation, logging).
inline constexpr size_t kStackReserveBytes = size_t{256} << 10;

// Bytes of stack left below the caller's frame on this thread.
size_t StackBytesLeft();

// Whether fewer than kStackReserveBytes are left: a recursive walker must stop and
// report an error.
inline bool StackExhausted() { return StackBytesLeft() < kStackReserveBytes; }

// A joinable thread with a stack of a chosen size (std::thread cannot set one; its
// default comes from `ulimit -s`, which differs from machine to machine).
class Thread {
 public:
  Thread() = default;
  // Starts `body` on a new thread with a stack of `stack_bytes`. Aborts when the
  // thread cannot be created, as std::thread throws.
  Thread(size_t stack_bytes, std::function<void()> body);
  ~Thread();  // REQUIRES: joined, or never started
  Thread(Thread&& other) noexcept;
  Thread& operator=(Thread&& other) noexcept;
  Thread(const Thread&) = delete;
  Thread& operator=(const Thread&) = delete;

  bool joinable() const { return started_; }
  void join();

 private:
  unsigned long handle_ = 0;  // pthread_t
  bool started_ = false;
};

// Runs `body` on a new thread with a stack of `stack_bytes` and waits for it: how tests
// and fuzzers run a query on a stack like the server's.
void RunWithStack(size_t stack_bytes, const std::function<void()>& body);

}  // namespace orrery
