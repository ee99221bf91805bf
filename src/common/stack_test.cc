#include "common/stack.h"

#include <gtest/gtest.h>

#include <atomic>

namespace orrery {
namespace {

// Recurses until StackExhausted() says stop; returns how deep it went. The frame
// carries a buffer so that each level costs a known minimum of stack.
// Not inlined, and the frame is used after the call, so that the compiler can turn
// the recursion into neither a loop nor a tail call. Every element is written: clang
// allocates only the elements of a volatile array that are accessed (at -O1 its frames
// came out at 257 bytes).
__attribute__((noinline)) int RecurseUntilExhausted(int depth) {
  volatile int frame[256];
  for (int i = 0; i < 256; ++i) frame[i] = depth;
  if (StackExhausted()) {
    return depth;
  }
  frame[1] = RecurseUntilExhausted(depth + 1);
  return frame[1] + frame[0] * 0;
}

TEST(StackTest, ThreadGetsTheStackItAskedFor) {
  size_t left = 0;
  RunWithStack(size_t{16} << 20, [&] { left = StackBytesLeft(); });
  EXPECT_GT(left, size_t{15} << 20);
  EXPECT_LE(left, size_t{16} << 20);
}

TEST(StackTest, ExhaustionIsReportedBeforeTheStackOverflows) {
  // 2 MB with 1 KB frames: the guard must stop the recursion after at most ~2,000
  // levels and with at least the reserve left, or the thread would crash instead.
  int depth = 0;
  size_t left_at_stop = 0;
  RunWithStack(size_t{2} << 20, [&] {
    depth = RecurseUntilExhausted(0);
    left_at_stop = StackBytesLeft();
  });
  EXPECT_GT(depth, 100);
  EXPECT_LT(depth, 2048);
  EXPECT_GE(left_at_stop, kStackReserveBytes);
}

TEST(StackTest, MainThreadKnowsItsStack) {
  const size_t left = StackBytesLeft();
  EXPECT_GT(left, kStackReserveBytes);
  EXPECT_LT(left, size_t{1} << 40);  // a real bound, not "unknown"
}

TEST(StackTest, ThreadsCanBeMovedAndJoined) {
  std::atomic<int> ran{0};
  Thread a(size_t{1} << 20, [&] { ran++; });
  Thread b = std::move(a);
  EXPECT_FALSE(a.joinable());
  EXPECT_TRUE(b.joinable());
  b.join();
  EXPECT_FALSE(b.joinable());
  EXPECT_EQ(ran.load(), 1);
}

}  // namespace
}  // namespace orrery
