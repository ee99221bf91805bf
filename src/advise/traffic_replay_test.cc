// The workload replay (traffic_replay.h) against the token buckets it drives: an even
// load within the budget is never throttled; a partition offered twice its share is
// throttled about half the time, and the others not at all.

#include "advise/traffic_replay.h"

#include <gtest/gtest.h>

namespace orrery::advise {
namespace {

SampledOperation OnPartitions(double share, std::vector<std::pair<uint32_t, double>> runs) {
  SampledOperation op;
  op.measure.share = share;
  for (const auto& run : runs) {
    OperationSample sample;
    sample.request_units = run.second;
    sample.partitions = {run};
    op.samples.push_back(sample);
  }
  return op;
}

TEST(TrafficReplayTest, AnEvenLoadWithinTheBudgetIsNotThrottled) {
  // Two partitions of 500 RU/s each; 10 RU requests spread evenly at 80 requests/s.
  std::vector<SampledOperation> ops = {OnPartitions(1.0, {{0, 10}, {1, 10}})};
  EXPECT_DOUBLE_EQ(DefaultRequestsPerSecond(ops, 1000), 80);
  ReplayResult r = ReplayTraffic(ops, {0, 1}, 1000, 80, 3);
  ASSERT_GT(r.requests, 1000);
  EXPECT_EQ(r.throttled, 0);
}

TEST(TrafficReplayTest, AHotPartitionIsThrottledAtItsShare) {
  // Every request to partition 0: 100 requests/s of 10 RU against its 500 RU/s, twice
  // what it serves; about half are refused (the bucket's first second aside).
  std::vector<SampledOperation> ops = {OnPartitions(1.0, {{0, 10}})};
  ReplayResult r = ReplayTraffic(ops, {0, 1}, 1000, 100, 3);
  const double fraction = static_cast<double>(r.throttled) / static_cast<double>(r.requests);
  EXPECT_GT(fraction, 0.40);
  EXPECT_LT(fraction, 0.55);
  EXPECT_EQ(r.partitions[0].throttled, r.throttled);
  EXPECT_EQ(r.partitions.count(1), 0u);
  // What was admitted is what the budget allows over the time played (plus its first
  // second's burst).
  EXPECT_LE(r.partitions[0].request_units, 500 * (r.seconds + 1) + 10);
}

}  // namespace
}  // namespace orrery::advise
