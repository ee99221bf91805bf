// The service's floor for a throughput replace (ru-model.md b.3).

#include <gtest/gtest.h>

#include "engine/account.h"

namespace orrery::engine {
namespace {

constexpr uint64_t kGb = 1024ull * 1024 * 1024;

TEST(MinimumThroughputTest, ManualIsTheLargestOfItsThreeRules) {
  EXPECT_EQ(MinimumThroughput(false, 400, 0), 400);
  EXPECT_EQ(MinimumThroughput(false, 100000, 0), 1000);      // 1/100 of the highest
  EXPECT_EQ(MinimumThroughput(false, 45000, 0), 500);        // rounded up to 100
  EXPECT_EQ(MinimumThroughput(false, 400, 750 * kGb), 800);  // 1 RU/s per GB, in steps of 100
  EXPECT_EQ(MinimumThroughput(false, 400, 401 * kGb + 1), 500);
}

TEST(MinimumThroughputTest, AutoscaleUsesATenthAndTenPerGb) {
  EXPECT_EQ(MinimumThroughput(true, 4000, 0), 1000);
  EXPECT_EQ(MinimumThroughput(true, 50000, 0), 5000);
  EXPECT_EQ(MinimumThroughput(true, 50001, 0), 6000);  // rounded up to 1,000
  EXPECT_EQ(MinimumThroughput(true, 1000, 250 * kGb), 3000);
}

}  // namespace
}  // namespace orrery::engine
