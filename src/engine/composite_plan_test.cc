// The planner's choice of a composite index (composite_plan.h, index_plan.h), from
// access shapes written out by hand: multi-key ORDER BY in the declared or reversed
// order, equality prefixes with a range or an ORDER BY, and when a composite does not
// help. Also the index-utilization report built from the plan.

#include "engine/composite_plan.h"

#include <gtest/gtest.h>

#include "engine/index_plan.h"
#include "engine/index_utilization.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

using query::AccessShape;
using query::OrderKey;
using query::PathPredicate;

index::IndexingPolicy Policy(std::string_view composites) {
  return *index::IndexingPolicy::Parse(*json::Parse(
      std::string(
          R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"}],"compositeIndexes":)") +
      std::string(composites) + "}"));
}

PathPredicate Equal(std::string name, int value) {
  PathPredicate p;
  p.path = {std::move(name)};
  p.values.push_back(json::Value::Int(value));
  return p;
}
PathPredicate Greater(std::string name, int value) {
  PathPredicate p;
  p.kind = PathPredicate::Kind::kRange;
  p.path = {std::move(name)};
  p.low = json::Value::Int(value);
  return p;
}
AccessShape Ordered(std::vector<OrderKey> keys, std::vector<PathPredicate> predicates = {}) {
  AccessShape shape;
  shape.predicates = std::move(predicates);
  shape.order_by_keys = keys.size();
  shape.order_by = std::move(keys);
  shape.order_by_streams = true;
  return shape;
}

const char* kAB = R"([[{"path":"/a"},{"path":"/b","order":"descending"}],
                      [{"path":"/x"},{"path":"/y"},{"path":"/z"}]])";

TEST(CompositePlanTest, MultiKeyOrderByInTheDeclaredOrReversedOrder) {
  const auto policy = Policy(kAB);
  auto plan = PlanIndexUse(policy, Ordered({{{"a"}, false}, {{"b"}, true}}), true);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, IndexPlan::Kind::kComposite);
  EXPECT_EQ(plan->composite->number, 0u);
  EXPECT_FALSE(plan->composite->reverse);
  EXPECT_EQ(plan->composite->order_components, 2u);

  plan = PlanIndexUse(policy, Ordered({{{"a"}, true}, {{"b"}, false}}), true);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, IndexPlan::Kind::kComposite);
  EXPECT_TRUE(plan->composite->reverse);

  // Mixed: refused with the service's message.
  plan = PlanIndexUse(policy, Ordered({{{"a"}, false}, {{"b"}, false}}), true);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message(),
            "The order by query does not have a corresponding composite index that it can be "
            "served from.");
  // While the index is rebuilt: a scan (still checked against the policy).
  plan = PlanIndexUse(policy, Ordered({{{"a"}, false}, {{"b"}, true}}), false);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, IndexPlan::Kind::kFullScan);
}

TEST(CompositePlanTest, EqualityPrefixThenOrderBy) {
  const auto policy = Policy(kAB);
  // WHERE a = 1 ORDER BY b DESC: composite (a, b DESC) from its second component.
  auto plan = PlanIndexUse(policy, Ordered({{{"b"}, true}}, {Equal("a", 1)}), true);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, IndexPlan::Kind::kComposite);
  ASSERT_EQ(plan->composite->equal_values.size(), 1u);
  EXPECT_EQ(plan->composite->equal_values[0][0].as_int(), 1);
  EXPECT_EQ(plan->composite->order_components, 2u);
  // ORDER BY b ASC: the reversed scan.
  plan = PlanIndexUse(policy, Ordered({{{"b"}, false}}, {Equal("a", 1)}), true);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->composite->reverse);
  // WHERE x = 1 AND y = 2 ORDER BY z: two fixed components.
  plan = PlanIndexUse(policy, Ordered({{{"z"}, false}}, {Equal("y", 2), Equal("x", 1)}), true);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->composite->number, 1u);
  ASSERT_EQ(plan->composite->equal_values.size(), 2u);
  EXPECT_EQ(plan->composite->equal_values[0][0].as_int(), 1);
  EXPECT_EQ(plan->composite->equal_values[1][0].as_int(), 2);
  // WHERE y = 2 ORDER BY z: x is not fixed, so not this composite; the range index.
  plan = PlanIndexUse(policy, Ordered({{{"z"}, false}}, {Equal("y", 2)}), true);
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->composite.has_value());
  EXPECT_EQ(plan->kind, IndexPlan::Kind::kLookup);
  // A single ORDER BY on the first component alone: the range index's job.
  plan = PlanIndexUse(policy, Ordered({{{"a"}, false}}), true);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, IndexPlan::Kind::kOrdered);
}

TEST(CompositePlanTest, EqualityThenRangeFiltersThroughTheComposite) {
  const auto policy = Policy(kAB);
  AccessShape shape;
  shape.predicates = {Greater("b", 5), Equal("a", 1)};
  auto plan = PlanIndexUse(policy, shape, true);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, IndexPlan::Kind::kLookup);
  ASSERT_TRUE(plan->composite.has_value());
  EXPECT_EQ(plan->composite->order_components, 0u);
  ASSERT_NE(plan->composite->range, nullptr);
  EXPECT_EQ(plan->composite->range->path, query::DocumentPath{"b"});
  // One equality alone: a single-path seek is as narrow.
  shape.predicates = {Equal("a", 1)};
  plan = PlanIndexUse(policy, shape, true);
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->composite.has_value());
  EXPECT_EQ(plan->kind, IndexPlan::Kind::kLookup);
  // An IN list fixes its component to each of its values: one range per value.
  PathPredicate in = Equal("a", 1);
  in.values.push_back(json::Value::Int(3));
  shape.predicates = {Greater("b", 5), in};
  plan = PlanIndexUse(policy, shape, true);
  ASSERT_TRUE(plan.ok());
  ASSERT_TRUE(plan->composite.has_value());
  ASSERT_EQ(plan->composite->equal_values.size(), 1u);
  EXPECT_EQ(plan->composite->equal_values[0].size(), 2u);
  ASSERT_NE(plan->composite->range, nullptr);
  // STARTSWITH on the next component is a range of strings.
  PathPredicate starts;
  starts.kind = PathPredicate::Kind::kPrefix;
  starts.path = {"b"};
  starts.prefix = "x";
  shape.predicates = {starts, Equal("a", 1)};
  plan = PlanIndexUse(policy, shape, true);
  ASSERT_TRUE(plan.ok());
  ASSERT_TRUE(plan->composite.has_value());
  ASSERT_NE(plan->composite->range, nullptr);
  EXPECT_EQ(plan->composite->range->kind, PathPredicate::Kind::kPrefix);
  // A range before the equality's component: not a composite prefix.
  shape.predicates = {Greater("a", 1), Equal("b", 1)};
  plan = PlanIndexUse(policy, shape, true);
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->composite.has_value());
}

TEST(CompositePlanTest, UtilizationNamesUsedAndPotentialIndexes) {
  const auto policy = Policy(kAB);
  AccessShape shape;
  shape.predicates = {Equal("a", 1), Greater("b", 5)};
  auto plan = PlanIndexUse(policy, shape, true);
  ASSERT_TRUE(plan.ok());
  IndexUtilization used = DescribeIndexUse(policy, shape, *plan);
  EXPECT_EQ(used.utilized_composite,
            (std::vector<std::vector<std::string>>{{"/a ASC", "/b DESC"}}));
  EXPECT_TRUE(used.utilized_single.empty());
  EXPECT_TRUE(used.potential_composite.empty());

  const auto none = Policy("[]");
  plan = PlanIndexUse(none, shape, true);
  ASSERT_TRUE(plan.ok());
  IndexUtilization missing = DescribeIndexUse(none, shape, *plan);
  EXPECT_EQ(missing.utilized_single, (std::vector<std::string>{"/a/?", "/b/?"}));
  EXPECT_EQ(missing.potential_composite,
            (std::vector<std::vector<std::string>>{{"/a ASC", "/b ASC"}}));
}

}  // namespace
}  // namespace orrery::engine

namespace orrery::engine {
namespace {

// In one logical partition the partition key's equality matches every item: the
// planner looks the other predicate up instead, or walks the partition, and does not
// count the key's equality as a seek that beats streaming the ORDER BY path.
TEST(IndexPlanTest, AnEqualityTheScopePinsIsLookedUpLast) {
  const index::IndexingPolicy policy = Policy("[]");
  AccessShape shape;
  shape.predicates = {Equal("tenant", 1), Equal("device", 2)};
  auto plan = PlanIndexUse(policy, shape, true);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->predicate->path, query::DocumentPath{"tenant"}) << "the first equality";
  plan = PlanIndexUse(policy, shape, true, {{"tenant"}});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kind, IndexPlan::Kind::kLookup);
  EXPECT_EQ(plan->predicate->path, query::DocumentPath{"device"});
  AccessShape key_only;
  key_only.predicates = {Equal("tenant", 1)};
  plan = PlanIndexUse(policy, key_only, true, {{"tenant"}});
  EXPECT_EQ(plan->kind, IndexPlan::Kind::kFullScan);

  AccessShape ordered = Ordered({{{"at"}, false}}, {Equal("tenant", 1)});
  ordered.order_by_streams = true;
  plan = PlanIndexUse(policy, ordered, true);
  EXPECT_EQ(plan->kind, IndexPlan::Kind::kLookup) << "an equality seek beats the ordered scan";
  plan = PlanIndexUse(policy, ordered, true, {{"tenant"}});
  EXPECT_EQ(plan->kind, IndexPlan::Kind::kOrdered) << "not the pinned key's equality";
}

}  // namespace
}  // namespace orrery::engine
