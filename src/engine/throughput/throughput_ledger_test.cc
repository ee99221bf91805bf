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
