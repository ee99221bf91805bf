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
  ExpectNear(CreateCharge(1024, 0), 5.0);         // row 4 (indexing off)
  ExpectNear(CreateCharge(100 * 1024, 0), 50.0);  // row 5
  ExpectNear(CreateCharge(1024, 0), 5.5);         // row 6: ~5.5
  // row 9: a 1 KB item of ~10 properties has ~14 index terms with its system properties.
  ExpectNear(CreateCharge(1024, 14), 5.71);
  ExpectNear(ReplaceCharge(1024, 14), 10.67);
  ExpectNear(DeleteCharge(1024, 14), 5.71);
  ExpectNear(ReplaceCharge(1024, 0), 2 * CreateCharge(1024, 0));  // row 7
  // Writes cost more the more they index.
  EXPECT_GT(CreateCharge(1024, 100), CreateCharge(1024, 14));
  // row 12: writes are about 5x reads.
  ExpectNear(CreateCharge(1024, 14) / PointReadCharge(1024), 5.71);
}

TEST(CostModelTest, QueriesMatchThePublishedAnchors) {
  // row 13: a trivial single-partition query over a 1 KB item, at least 2.3 RU.
  const double trivial = QueryCharge(
      QueryWork{.loaded_items = 1, .loaded_bytes = 1024, .index_terms = 1, .output_bytes = 1024});
  EXPECT_GE(trivial, 2.3);
  ExpectNear(trivial, 2.35 + 0.3);  // row 14 (2.35) plus the loaded item
  // row 16: 2,000 items loaded, 1,125,600 bytes, 604.42 RU.
  ExpectNear(QueryCharge(QueryWork{.loaded_items = 2000, .loaded_bytes = 1125600}), 604.42);
  // row 15: each further physical partition contacted adds about 2.5 RU.
  ExpectNear(QueryCharge(QueryWork{.partitions = 8}) - QueryCharge(QueryWork{}), 7 * 2.5);
  // An index seek that loads 10 of a million items costs what the 10 cost, not the
  // million: the index terms it reads are cheap.
  EXPECT_LT(QueryCharge(QueryWork{.loaded_items = 10,
                                  .loaded_bytes = 10 * 1024,
                                  .index_terms = 10,
                                  .output_bytes = 10 * 1024}),
            10.0);
}

TEST(CostModelTest, StrongReadsCostTwiceAndWritesDoNotChange) {
  // row 3: Strong and Bounded staleness read two replicas.
  ExpectNear(ReadChargeAt(PointReadCharge(1024), Consistency::kStrong), 2.0);
  const double query = QueryCharge(QueryWork{.loaded_items = 2000, .loaded_bytes = 1125600});
  ExpectNear(ReadChargeAt(query, Consistency::kBoundedStaleness), 2 * 604.42);
  for (Consistency relaxed :
       {Consistency::kSession, Consistency::kConsistentPrefix, Consistency::kEventual}) {
    EXPECT_EQ(ReadChargeAt(PointReadCharge(1024), relaxed), 1.0);
  }
}

TEST(CostModelTest, ChangeFeedReadsMatchTheReportedCharges) {
  // row 20: about 1 RU for a read that returns nothing, about 2 RU for a first call
  // that returns a few small items, and a page with items like a query loading them.
  ExpectNear(ChangeFeedCharge(0, 0), 1.0);
  ExpectNear(ChangeFeedCharge(3, 3 * 400), 2.0);
  const QueryWork page{.loaded_items = 2000, .loaded_bytes = 1125600};
  ExpectNear(ChangeFeedCharge(page.loaded_items, page.loaded_bytes), QueryCharge(page));
}

TEST(CostModelTest, AProjectionOfALargeItemCostsLessThanReadingIt) {
  // row 19: a 300 KB item, of which a query returns a few fields.
  const double read = PointReadCharge(300 * 1024);
  const double query = QueryCharge(QueryWork{
      .loaded_items = 1, .loaded_bytes = 300 * 1024, .index_terms = 1, .output_bytes = 50});
  EXPECT_LT(query, read);
}

TEST(CostModelTest, ChargesAreRoundedToHundredths) {
  double c = CreateCharge(1500, 17);
  EXPECT_DOUBLE_EQ(c, RoundCharge(c));
}

}  // namespace
}  // namespace orrery::throughput
