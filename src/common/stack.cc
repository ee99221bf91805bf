#include "common/stack.h"

#include <pthread.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace orrery {
namespace {

// The lowest usable address of the calling thread's stack (stacks grow down on every
// platform we build for), or 0 when it cannot be known.
uintptr_t FindStackLimit() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) {
    return 0;
  }
  void* base = nullptr;
  size_t size = 0;
  uintptr_t low = 0;
  if (pthread_attr_getstack(&attr, &base, &size) == 0) {
    size_t guard = 0;
    pthread_attr_getguardsize(&attr, &guard);
    // `base` is the lowest address of the mapping; the guard page lies inside it on
    // glibc, so the usable stack starts above it.
    low = reinterpret_cast<uintptr_t>(base) + guard;
  }
  pthread_attr_destroy(&attr);
  return low;
}

// Found once per thread. A constant-initialized thread_local, read on every level of
// query evaluation: no initialization guard on the hot path.
thread_local uintptr_t stack_limit = 0;
thread_local bool stack_limit_known = false;

uintptr_t StackLimit() {
  if (!stack_limit_known) {
    stack_limit = FindStackLimit();
    stack_limit_known = true;
  }
  return stack_limit;
}

void* RunBody(void* arg) {
  std::unique_ptr<std::function<void()>> body(static_cast<std::function<void()>*>(arg));
  (*body)();
  return nullptr;
}

}  // namespace

size_t StackBytesLeft() {
  // The frame address, not a local's: under AddressSanitizer locals may live on a
  // heap-allocated fake stack.
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  const uintptr_t limit = StackLimit();
  if (limit == 0 || here <= limit) {
    return limit == 0 ? SIZE_MAX : 0;
  }
  return here - limit;
}

Thread::Thread(size_t stack_bytes, std::function<void()> body) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  auto* heap_body = new std::function<void()>(std::move(body));
  pthread_t handle;
  const int error = pthread_create(&handle, &attr, RunBody, heap_body);
  pthread_attr_destroy(&attr);
  if (error != 0) {
    delete heap_body;
    std::fprintf(stderr, "cannot start a thread: %s\n", std::strerror(error));
    std::abort();
  }
  handle_ = static_cast<unsigned long>(handle);
  started_ = true;
}

Thread::~Thread() {
  if (started_) {
    std::fprintf(stderr, "a Thread was destroyed without being joined\n");
    std::abort();
  }
}

Thread::Thread(Thread&& other) noexcept
    : handle_(std::exchange(other.handle_, 0)), started_(std::exchange(other.started_, false)) {}

Thread& Thread::operator=(Thread&& other) noexcept {
  if (this != &other) {
    if (started_) {
      std::abort();  // as std::thread: assigning over a running thread is a bug
    }
    handle_ = std::exchange(other.handle_, 0);
    started_ = std::exchange(other.started_, false);
  }
  return *this;
}

void Thread::join() {
  if (!started_) {
    return;
  }
  pthread_join(static_cast<pthread_t>(handle_), nullptr);
  started_ = false;
}

void RunWithStack(size_t stack_bytes, const std::function<void()>& body) {
  Thread thread(stack_bytes, body);
  thread.join();
}

}  // namespace orrery
