#include "engine/throughput/partition_budget.h"

#include <gtest/gtest.h>

#include <vector>

namespace orrery::throughput {
namespace {

using std::chrono::milliseconds;

TEST(PartitionBudgetTest, AdmitsUpToItsRateThenThrottlesUntilRefilled) {
  const auto t0 = PartitionBudget::TimePoint();
  PartitionBudget budget(1000, t0);
  // One second's worth goes through at once.
  int admitted = 0;
  while (!budget.Admit(t0)) {
    budget.Charge(10, t0);
    ++admitted;
  }
  EXPECT_EQ(admitted, 100);
  std::optional<int64_t> wait = budget.Admit(t0);
  ASSERT_TRUE(wait.has_value());
  EXPECT_GE(*wait, 1);
  // After the wait it admits again, at the refill rate: 10 RU per 10 ms.
  EXPECT_FALSE(budget.Admit(t0 + milliseconds(*wait)).has_value());
}

TEST(PartitionBudgetTest, DebtIsWaitedOut) {
  const auto t0 = PartitionBudget::TimePoint();
  PartitionBudget budget(100, t0);
  ASSERT_FALSE(budget.Admit(t0).has_value());
  budget.Charge(300, t0);  // a large request: 200 RU of debt
  std::optional<int64_t> wait = budget.Admit(t0);
  ASSERT_TRUE(wait.has_value());
  EXPECT_NEAR(static_cast<double>(*wait), 2000, 5);
  EXPECT_TRUE(budget.Admit(t0 + milliseconds(1990)).has_value());
  EXPECT_FALSE(budget.Admit(t0 + milliseconds(2010)).has_value());
}

// Requests throttled together are told to come back one after another, each an average
// request's refill after the one before, not all at the moment the debt is paid.
TEST(PartitionBudgetTest, RequestsThrottledTogetherComeBackOneAfterAnother) {
  const auto t0 = PartitionBudget::TimePoint();
  PartitionBudget budget(100, t0);  // 0.1 RU per ms
  while (!budget.Admit(t0)) budget.Charge(5, t0);
  std::vector<int64_t> waits;
  for (int i = 0; i < 4; ++i) waits.push_back(*budget.Admit(t0));
  // An average request (5 RU) refills in 50 ms; they are spaced a quarter more apart.
  for (size_t i = 1; i < waits.size(); ++i) {
    EXPECT_NEAR(static_cast<double>(waits[i] - waits[i - 1]), 62.5, 2) << i;
  }
  // Each comes back at its time and finds the budget out of debt once more.
  int admitted = 0;
  for (const int64_t wait : waits) {
    const auto at = t0 + milliseconds(wait);
    if (!budget.Admit(at)) {
      budget.Charge(5, at);
      ++admitted;
    }
  }
  EXPECT_EQ(admitted, 4);
  // However many wait, none is told to wait over 5 s.
  for (int i = 0; i < 1000; ++i) EXPECT_LE(budget.Admit(t0 + milliseconds(400)).value_or(0), 5000);
}

TEST(PartitionBudgetTest, ConcurrentAdmissionsReserveTheirCost) {
  const auto t0 = PartitionBudget::TimePoint();
  PartitionBudget budget(100, t0);
  // Twenty requests arrive together, none charged yet: the reservations stop them at
  // the budget instead of letting all through.
  int admitted = 0;
  for (int i = 0; i < 40; ++i) admitted += budget.Admit(t0) ? 0 : 1;
  EXPECT_EQ(admitted, 20);
}

TEST(PartitionBudgetTest, AnIdleBucketHoldsOneSecond) {
  const auto t0 = PartitionBudget::TimePoint();
  PartitionBudget budget(50, t0);
  const auto later = t0 + std::chrono::seconds(60);
  int admitted = 0;
  while (!budget.Admit(later)) {
    budget.Charge(5, later);
    ++admitted;
  }
  EXPECT_EQ(admitted, 10);
}

TEST(PartitionBudgetTest, OneLargeChargeDoesNotInflateTheReservations) {
  const auto t0 = PartitionBudget::TimePoint();
  PartitionBudget budget(1000, t0);
  ASSERT_FALSE(budget.Admit(t0).has_value());
  budget.Charge(700, t0);  // one 1.5 MB write: 300 RU left
  // The next requests still reserve about their own size (5 RU, not ~140): about 40
  // are admitted on what is left, not 2.
  int admitted = 0;
  for (int i = 0; i < 100; ++i) admitted += budget.Admit(t0) ? 0 : 1;
  EXPECT_GE(admitted, 25);
}

TEST(PartitionBudgetTest, CheckAndSpendReserveNothing) {
  const auto t0 = PartitionBudget::TimePoint();
  PartitionBudget budget(100, t0);
  for (int i = 0; i < 40; ++i) EXPECT_FALSE(budget.Check(t0).has_value());
  budget.Spend(150, t0);  // 50 RU of debt: half a second
  std::optional<int64_t> wait = budget.Check(t0);
  ASSERT_TRUE(wait.has_value());
  EXPECT_NEAR(static_cast<double>(*wait), 500, 5);
  EXPECT_FALSE(budget.Check(t0 + milliseconds(510)).has_value());
}

TEST(PartitionBudgetTest, SpareWorkTakesOnlyWhatIsLeft) {
  const auto t0 = PartitionBudget::TimePoint();
  PartitionBudget budget(100, t0);
  EXPECT_TRUE(budget.TakeSpare(30, t0));
  EXPECT_FALSE(budget.TakeSpare(71, t0));  // never into debt
  EXPECT_TRUE(budget.TakeSpare(70, t0));
  EXPECT_FALSE(budget.TakeSpare(1, t0));
  EXPECT_TRUE(budget.Check(t0).has_value());
  // A second later the bucket is full again; more than it holds takes all of it.
  EXPECT_TRUE(budget.TakeSpare(1000, t0 + std::chrono::seconds(1)));
  EXPECT_FALSE(budget.TakeSpare(1, t0 + std::chrono::seconds(1)));
}

}  // namespace
}  // namespace orrery::throughput
