#include "engine/throughput/cost_model.h"

#include <gtest/gtest.h>

namespace orrery::throughput {
namespace {

// Reference charges from shared/docs/ru-model.md a.2, within 10%.
void ExpectNear(double actual, double expected) {
  EXPECT_NEAR(actual, expected, expected * 0.10) << "expected about " << expected;
}

TEST(CostModelTest, PointReadsScaleFromOneToTenRu) {
  ExpectNear(PointReadCharge(1024), 1.0);         // row 1
  ExpectNear(PointReadCharge(100 * 1024), 10.0);  // row 2
  EXPECT_EQ(PointReadCharge(200), 1.0);           // small items still cost 1 RU
}

TEST(CostModelTest, WritesMatchThePublishedAnchors) {
  ExpectNear(CreateCharge(1024, false), 5.0);                             // row 4
  ExpectNear(CreateCharge(100 * 1024, false), 50.0);                      // row 5
  ExpectNear(CreateCharge(1024), 5.71);                                   // row 9 create
  ExpectNear(ReplaceCharge(1024), 10.67);                                 // row 9 update
  ExpectNear(DeleteCharge(1024), 5.71);                                   // row 9 delete
  ExpectNear(ReplaceCharge(1024, false), 2 * CreateCharge(1024, false));  // row 7
}

TEST(CostModelTest, QueriesMatchThePublishedAnchors) {
  // row 13: a trivial single-partition query over a 1 KB item, at least 2.3 RU.
  const double trivial =
      QueryCharge(QueryWork{.loaded_bytes = 1024, .index_terms = 1, .output_bytes = 1024});
  EXPECT_GE(trivial, 2.3);
  ExpectNear(trivial, 2.35 + 0.5);  // row 14 (2.35) plus the loaded item
  // row 16: 2,000 items loaded, 1,125,600 bytes, 604.42 RU.
  ExpectNear(QueryCharge(QueryWork{.loaded_bytes = 1125600}), 604.42);
  // row 15: each further physical partition contacted adds about 2.5 RU.
  ExpectNear(QueryCharge(QueryWork{.partitions = 8}) - QueryCharge(QueryWork{}), 7 * 2.5);
  // An index seek that loads 10 of a million items costs what the 10 cost, not the
  // million: the index terms it reads are cheap.
  EXPECT_LT(QueryCharge(
                QueryWork{.loaded_bytes = 10 * 1024, .index_terms = 10, .output_bytes = 10 * 1024}),
            10.0);
}

TEST(CostModelTest, ChargesAreRoundedToHundredths) {
  double c = CreateCharge(1500);
  EXPECT_DOUBLE_EQ(c, RoundCharge(c));
}

}  // namespace
}  // namespace orrery::throughput
