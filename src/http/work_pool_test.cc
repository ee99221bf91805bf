#include "http/work_pool.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace orrery::http {
namespace {

// A one-shot gate a job waits at until the test opens it.
class Gate {
 public:
  void Open() {
    {
      const std::lock_guard lock(mutex_);
      open_ = true;
    }
    changed_.notify_all();
  }
  void Wait() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;
};

TEST(WorkPoolTest, RunsEveryJobSubmitted) {
  std::atomic<int> ran{0};
  {
    WorkPool pool(3, 0);
    EXPECT_EQ(pool.thread_count(), 3u);
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE(pool.Submit([&ran] { ran.fetch_add(1); }));
    }
    while (ran.load() < 100) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(ran.load(), 100);
}

TEST(WorkPoolTest, RunsJobsConcurrentlyUpToItsThreads) {
  WorkPool pool(4, 0);
  Gate gate;
  std::atomic<int> inside{0};
  for (int i = 0; i < 4; ++i) {
    pool.Submit([&] {
      inside.fetch_add(1);
      gate.Wait();
    });
  }
  // All four are inside at once: none waits for another to finish.
  while (inside.load() < 4) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  gate.Open();
}

TEST(WorkPoolTest, StopDropsQueuedJobsAndWaitsForRunningOnes) {
  WorkPool pool(1, 0);
  Gate gate;
  std::atomic<bool> started{false};
  std::atomic<bool> finished{false};
  std::atomic<int> later{0};
  pool.Submit([&] {
    started = true;
    gate.Wait();
    finished = true;
  });
  auto counted = std::make_shared<int>(0);
  for (int i = 0; i < 5; ++i) pool.Submit([&later, counted] { later.fetch_add(1); });
  while (!started.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::thread opener([&gate] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    gate.Open();
  });
  pool.Stop();
  opener.join();
  EXPECT_TRUE(finished.load());
  EXPECT_EQ(later.load(), 0);
  EXPECT_EQ(counted.use_count(), 1);  // the dropped jobs were destroyed
  EXPECT_FALSE(pool.Submit([] {}));
  pool.Stop();  // idempotent
}

TEST(WorkPoolTest, AJobThatThrowsDoesNotEndItsThread) {
  WorkPool pool(1, 0);
  std::atomic<bool> ran{false};
  pool.Submit([] { throw std::runtime_error("boom"); });
  pool.Submit([&ran] { ran = true; });
  while (!ran.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

TEST(WorkPoolTest, LowersThePriorityOfItsThreadsOnly) {
  WorkPool pool(1, 5);
  std::atomic<int> nice{-100};
  pool.Submit([&nice] { nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())); });
  while (nice.load() == -100) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(nice.load(), std::min(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())) + 5, 19));
}

}  // namespace
}  // namespace orrery::http
