#include "storage/writes_in_flight.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace orrery::storage {
namespace {

using std::chrono::milliseconds;

TEST(WritesInFlightTest, NothingInFlightWaitsForNothing) {
  WritesInFlight writes;
  EXPECT_TRUE(writes.WaitForEarlier(writes.Issued(), milliseconds(0)));
  writes.End(writes.Begin());
  EXPECT_TRUE(writes.WaitForEarlier(writes.Issued(), milliseconds(0)));
}

TEST(WritesInFlightTest, WaitsOnlyForWritesThatBeganBefore) {
  WritesInFlight writes;
  const uint64_t early = writes.Begin();
  const uint64_t issued = writes.Issued();
  const uint64_t late = writes.Begin();                          // began after `issued` was read
  EXPECT_FALSE(writes.WaitForEarlier(issued, milliseconds(5)));  // `early` is in flight
  writes.End(early);
  EXPECT_TRUE(writes.WaitForEarlier(issued, milliseconds(0)));  // `late` does not count
  EXPECT_FALSE(writes.WaitForEarlier(writes.Issued(), milliseconds(1)));
  writes.End(late);
  EXPECT_TRUE(writes.WaitForEarlier(writes.Issued(), milliseconds(0)));
}

TEST(WritesInFlightTest, AWaitEndsWhenTheWriteEnds) {
  WritesInFlight writes;
  const uint64_t ticket = writes.Begin();
  std::thread writer([&] {
    std::this_thread::sleep_for(milliseconds(20));
    writes.End(ticket);
  });
  EXPECT_TRUE(writes.WaitForEarlier(writes.Issued(), milliseconds(10000)));
  writer.join();
}

}  // namespace
}  // namespace orrery::storage
