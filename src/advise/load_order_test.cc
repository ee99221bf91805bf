// The load order of `orrery advise` (load_order.h): items grouped by EPK, items that may
// clash with another of their logical partition left for the engine to check, and the
// threads' stretches covering the order once.

#include "advise/load_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace orrery::advise {
namespace {

// A 32-digit level of an EPK whose first digits are `lead` (uppercase hex).
std::string Level(const std::string& lead) { return lead + std::string(32 - lead.size(), '0'); }

TEST(LoadOrderTest, ItemsFollowTheirEpkThenTheirNumber) {
  LoadOrderBuilder builder;
  builder.Add(Level("C0"), "a", 0);
  builder.Add(Level("10"), "b", 1);
  builder.Add(Level("C0"), "c", 2);
  builder.Add(Level("7F"), "d", 3);
  builder.Add(Level("10"), "e", 4);
  const LoadOrder order = std::move(builder).Build();
  EXPECT_EQ(order.items, (std::vector<uint32_t>{1, 4, 3, 0, 2}));
  EXPECT_EQ(order.checked, std::vector<bool>(5, false));
}

TEST(LoadOrderTest, AHierarchicalKeyOrdersByItsSecondLevelWithinTheFirst) {
  LoadOrderBuilder builder;
  builder.Add(Level("A0") + Level("F0"), "x", 0);
  builder.Add(Level("A0") + Level("01"), "y", 1);
  builder.Add(Level("05") + Level("FF"), "z", 2);
  const LoadOrder order = std::move(builder).Build();
  EXPECT_EQ(order.items, (std::vector<uint32_t>{2, 1, 0}));
}

TEST(LoadOrderTest, TheSameIdTwiceInALogicalPartitionIsCheckedButNotInTwo) {
  LoadOrderBuilder first, second;  // two threads' builders
  first.Add(Level("AB"), "same", 0);
  second.Add(Level("AB"), "other", 1);
  first.Add(Level("AB"), "same", 2);
  second.Add(Level("CD"), "same", 3);  // another logical partition: no clash
  first.Add("", "same", 4);            // refused by the candidate: loaded first
  first.Merge(std::move(second));
  const LoadOrder order = std::move(first).Build();
  ASSERT_EQ(order.items, (std::vector<uint32_t>{4, 0, 1, 2, 3}));
  EXPECT_EQ(order.checked, (std::vector<bool>{false, true, false, true, false}));
}

TEST(LoadOrderTest, StretchesCoverTheOrderOnceInOrder) {
  LoadOrderBuilder builder;
  for (uint32_t i = 0; i < 1001; ++i) builder.Add(Level("1"), "id-" + std::to_string(i), i);
  const LoadOrder order = std::move(builder).Build();
  for (int threads : {1, 2, 3, 7}) {
    size_t next = 0;
    for (int t = 0; t < threads; ++t) {
      const auto [begin, end] = order.Stretch(t, threads);
      EXPECT_EQ(begin, next);
      EXPECT_LE(begin, end);
      next = end;
    }
    EXPECT_EQ(next, order.items.size()) << threads << " threads";
  }
}

}  // namespace
}  // namespace orrery::advise
