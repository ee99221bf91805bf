#include "engine/throughput/cost_model.h"

#include <gtest/gtest.h>

namespace orrery::throughput {
namespace {

// Reference charges from shared/docs/ru-model.md a.2, within 10%.
void ExpectNear(double actual, double expected) {
  EXPECT_NEAR(actual, expected, expected * 0.10) << "expected about " << expected;
}

TEST(CostModelTest, PointReadsScaleFromOneToTenRu) {
  ExpectNear(PointReadCharge(1024), 1.0);        // row 1
  ExpectNear(PointReadCharge(100 * 1024), 10.0);  // row 2
  EXPECT_EQ(PointReadCharge(200), 1.0);           // small items still cost 1 RU
}

TEST(CostModelTest, WritesMatchThePublishedAnchors) {
  ExpectNear(CreateCharge(1024, false), 5.0);         // row 4
  ExpectNear(CreateCharge(100 * 1024, false), 50.0);  // row 5
  ExpectNear(CreateCharge(1024), 5.71);               // row 9 create
  ExpectNear(ReplaceCharge(1024), 10.67);             // row 9 update
  ExpectNear(DeleteCharge(1024), 5.71);               // row 9 delete
  ExpectNear(ReplaceCharge(1024, false), 2 * CreateCharge(1024, false));  // row 7
}

TEST(CostModelTest, ChargesAreRoundedToHundredths) {
  double c = CreateCharge(1500);
  EXPECT_DOUBLE_EQ(c, RoundCharge(c));
}

}  // namespace
}  // namespace orrery::throughput
