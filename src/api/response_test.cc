#include "api/response.h"

#include <gtest/gtest.h>

#include <string_view>

namespace orrery::api {
namespace {

// The service's x-ms-request-charge: two decimals at most, no trailing zeros, as in its
// documented responses ("1", "5.71", "2.86").
TEST(FormatChargeTest, TwoDecimalsAtMostWithoutTrailingZeros) {
  const struct {
    double charge;
    std::string_view text;
  } cases[] = {
      {1.0, "1"},
      {0.0, "0"},
      {400.0, "400"},
      {5.71, "5.71"},
      {2.5, "2.5"},
      {10.126, "10.13"},
      {10.124, "10.12"},
      {2.999, "3"},
      {1234567.89, "1234567.89"},
      {1e20, "100000000000000000000"},
  };
  for (const auto& c : cases) EXPECT_EQ(FormatCharge(c.charge), c.text) << c.charge;
}

}  // namespace
}  // namespace orrery::api
