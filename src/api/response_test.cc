#include "api/response.h"

#include <gtest/gtest.h>

namespace orrery::api {
namespace {

// The service's x-ms-request-charge: two decimals at most, no trailing zeros, as in its
// documented responses ("1", "5.71", "2.86").
TEST(FormatChargeTest, WholeChargesHaveNoDecimals) {
  EXPECT_EQ(FormatCharge(1.0), "1");
  EXPECT_EQ(FormatCharge(0.0), "0");
  EXPECT_EQ(FormatCharge(400.0), "400");
}

TEST(FormatChargeTest, KeepsTwoDecimalsAtMostWithoutTrailingZeros) {
  EXPECT_EQ(FormatCharge(5.71), "5.71");
  EXPECT_EQ(FormatCharge(2.5), "2.5");
  EXPECT_EQ(FormatCharge(10.126), "10.13");
  EXPECT_EQ(FormatCharge(10.124), "10.12");
  EXPECT_EQ(FormatCharge(2.999), "3");
}

TEST(FormatChargeTest, LargeChargesAreWrittenInFull) {
  EXPECT_EQ(FormatCharge(1234567.89), "1234567.89");
  EXPECT_EQ(FormatCharge(1e20), "100000000000000000000");
}

}  // namespace
}  // namespace orrery::api
