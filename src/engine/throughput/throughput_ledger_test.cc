#include "engine/throughput/throughput_ledger.h"

#include <gtest/gtest.h>

namespace orrery::throughput {
namespace {

const auto t0 = ThroughputLedger::TimePoint();

// Runs requests of `ru` against one partition until the first 429; returns how many ran.
int AdmittedUntilThrottled(ThroughputLedger& ledger, uint32_t partition, double ru) {
  int admitted = 0;
  while (!ledger.Admit(partition, t0)) {
    ledger.Charge(partition, ru, t0);
    ++admitted;
  }
  return admitted;
}

TEST(ThroughputLedgerTest, EachPartitionGetsItsShareAndTheOthersStayUnused) {
  ThroughputLedger ledger;
  ledger.Provision({0, 1, 2, 3}, 4000, t0);
  ledger.SetEnforced(true);
  EXPECT_EQ(AdmittedUntilThrottled(ledger, 2, 10), 100);  // 1,000 RU/s of 4,000
  EXPECT_FALSE(ledger.Admit(0, t0).has_value());
  std::vector<PartitionUsage> usage = ledger.Usage();
  ASSERT_EQ(usage.size(), 4u);
  EXPECT_DOUBLE_EQ(usage[2].charged, 1000);
  EXPECT_EQ(usage[2].throttled, 1);
  EXPECT_DOUBLE_EQ(usage[2].ru_per_second, 1000);
  EXPECT_EQ(usage[1].throttled, 0);
  EXPECT_DOUBLE_EQ(usage[1].charged, 0);
}

// Runs requests of `ru` of one class until the first 429; returns how many ran and the
// 429's substatus.
std::pair<int, int> AdmittedUntilThrottled(ThroughputLedger& ledger, uint32_t partition, double ru,
                                           const RequestClass& request) {
  int admitted = 0;
  for (;;) {
    std::optional<ThroughputLedger::Throttle> throttle = ledger.Admit(partition, t0, request);
    if (throttle) return {admitted, throttle->substatus};
    ledger.Charge(partition, ru, t0, request);
    ++admitted;
  }
}

// throughput-buckets.md: a bucket's requests spend at most its percentage of the
// partition's RU/s, then get 429 with substatus 3212; requests of no bucket, or of a
// bucket not configured, draw on the whole budget.
TEST(ThroughputLedgerTest, ABucketSpendsItsShareThenGets3212) {
  ThroughputLedger ledger;
  ledger.Provision({0, 1}, 2000, t0);  // 1,000 RU/s a partition
  ledger.SetBuckets({{1, 10}, {2, 50}}, t0);
  ledger.SetEnforced(true);
  EXPECT_EQ(AdmittedUntilThrottled(ledger, 0, 10, RequestClass{.bucket = 1}),
            std::make_pair(10, kThroughputBucketExceeded));  // 100 RU/s of 1,000
  // The partition's own budget has 900 RU left: bucket 2 (500) then no bucket.
  EXPECT_EQ(AdmittedUntilThrottled(ledger, 0, 10, RequestClass{.bucket = 2}),
            std::make_pair(50, kThroughputBucketExceeded));
  EXPECT_EQ(AdmittedUntilThrottled(ledger, 0, 10, RequestClass{.bucket = 3}),
            std::make_pair(40, 3200));
  // Another partition's buckets are its own.
  EXPECT_EQ(AdmittedUntilThrottled(ledger, 1, 10, RequestClass{.bucket = 1}).first, 10);
  // A second later the bucket has its share again.
  EXPECT_FALSE(ledger.Admit(1, t0 + std::chrono::seconds(1), RequestClass{.bucket = 1}));
}

// priority-based-execution.md: over budget, low-priority requests are throttled before
// high-priority ones; alone, each may use the whole rate.
TEST(ThroughputLedgerTest, LowPriorityRequestsAreThrottledFirst) {
  ThroughputLedger ledger;
  ledger.Provision({0}, 1000, t0);
  ledger.SetEnforced(true);
  const RequestClass low{.priority = PriorityLevel::kLow};
  const RequestClass high{.priority = PriorityLevel::kHigh};
  // Low until the reserve (half a second's RU) is reached; high goes on down to zero.
  EXPECT_EQ(AdmittedUntilThrottled(ledger, 0, 10, low), std::make_pair(50, 3200));
  EXPECT_EQ(AdmittedUntilThrottled(ledger, 0, 10, high), std::make_pair(50, 3200));
  // Alone, low priority gets the whole rate (a smaller burst only): once the budget has
  // refilled past the reserve, 1,000 RU/s of 10 RU requests is 100 a second.
  int low_admitted = 0;
  for (int ms = 1; ms <= 3000; ++ms) {
    const auto now = t0 + std::chrono::milliseconds(ms);
    if (!ledger.Admit(0, now, low)) {
      ledger.Charge(0, 10, now, low);
      if (ms > 1000) ++low_admitted;
    }
  }
  EXPECT_GE(low_admitted, 198);
  EXPECT_LE(low_admitted, 201);
}

TEST(ThroughputLedgerTest, UnenforcedAdmitsEverythingButStillCounts) {
  ThroughputLedger ledger;
  ledger.Provision({0}, 400, t0);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_FALSE(ledger.Admit(0, t0).has_value());
    ledger.Charge(0, 5, t0);
  }
  EXPECT_DOUBLE_EQ(ledger.Usage()[0].charged, 5000);
  EXPECT_TRUE(ledger.TakeSpare(0, 1e9, t0));
  // Switched on, it starts from a full bucket: unenforced charges left no debt.
  ledger.SetEnforced(true);
  EXPECT_FALSE(ledger.Admit(0, t0).has_value());
}

TEST(ThroughputLedgerTest, ScopedRequestsAreRefusedWhileAnyPartitionIsInDebt) {
  ThroughputLedger ledger;
  ledger.Provision({0, 1}, 200, t0);  // 100 RU/s each
  ledger.SetEnforced(true);
  ASSERT_FALSE(ledger.AdmitAll({0, 1}, t0).has_value());
  ledger.ChargeAll({0, 1}, 300, t0);  // 150 each: 50 RU of debt each, half a second
  std::optional<int64_t> wait = ledger.AdmitAll({0, 1}, t0);
  ASSERT_TRUE(wait.has_value());
  EXPECT_NEAR(static_cast<double>(*wait), 500, 5);
  EXPECT_FALSE(ledger.AdmitAll({0, 1}, t0 + std::chrono::milliseconds(510)).has_value());
  EXPECT_DOUBLE_EQ(ledger.Usage()[1].charged, 150);
}

TEST(ThroughputLedgerTest, SharedBudgetsAreDrawnByEveryContainer) {
  auto budget = std::make_shared<PartitionBudget>(1000, t0);
  ThroughputLedger a;
  ThroughputLedger b;
  a.ProvisionShared({0, 1}, {budget});
  b.ProvisionShared({0}, {budget});
  a.SetEnforced(true);
  b.SetEnforced(true);
  EXPECT_EQ(AdmittedUntilThrottled(a, 1, 10), 100);
  // Container b's partition shares the spent budget.
  EXPECT_TRUE(b.Admit(0, t0).has_value());
  EXPECT_DOUBLE_EQ(b.Usage()[0].charged, 0);
}

TEST(ThroughputLedgerTest, ANewRateTakesEffectAtOnce) {
  ThroughputLedger ledger;
  ledger.Provision({0, 1}, 800, t0);
  ledger.SetEnforced(true);
  ledger.SetRate(2000, t0);
  // The bucket refills to the new rate: 1,000 RU/s per partition after a second.
  const auto later = t0 + std::chrono::seconds(1);
  int admitted = 0;
  while (!ledger.Admit(0, later)) {
    ledger.Charge(0, 10, later);
    ++admitted;
  }
  EXPECT_EQ(admitted, 100);
  EXPECT_DOUBLE_EQ(ledger.Usage()[0].ru_per_second, 1000);
}

}  // namespace
}  // namespace orrery::throughput
