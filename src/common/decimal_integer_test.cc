#include "common/decimal_integer.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace orrery {
namespace {

TEST(DecimalIntegerTest, ParsesPlainIntegers) {
  EXPECT_EQ(ParseDecimalInteger("0"), 0);
  EXPECT_EQ(ParseDecimalInteger("7"), 7);
  EXPECT_EQ(ParseDecimalInteger("-1"), -1);
  EXPECT_EQ(ParseDecimalInteger("1000000"), 1000000);
  EXPECT_EQ(ParseDecimalInteger("007"), 7);
  EXPECT_EQ(ParseDecimalInteger("-0"), 0);
}

TEST(DecimalIntegerTest, ParsesTheEdgesOfInt64) {
  EXPECT_EQ(ParseDecimalInteger("9223372036854775807"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ParseDecimalInteger("-9223372036854775808"), std::numeric_limits<int64_t>::min());
}

TEST(DecimalIntegerTest, RefusesOverflow) {
  EXPECT_EQ(ParseDecimalInteger("9223372036854775808"), std::nullopt);
  EXPECT_EQ(ParseDecimalInteger("-9223372036854775809"), std::nullopt);
  EXPECT_EQ(ParseDecimalInteger("99999999999999999999"), std::nullopt);
  EXPECT_EQ(ParseDecimalInteger("18446744073709551616"), std::nullopt);  // 2^64
  EXPECT_EQ(ParseDecimalInteger(std::string(5000, '9')), std::nullopt);
}

TEST(DecimalIntegerTest, RefusesSignsAndWhitespaceTricks) {
  for (const char* text :
       {"", "-", "+", "+5", "--5", "-+5", "+-5", " 5", "5 ", "\t5", "5\t", "5\r", "5\n", " ", "5 5",
        "\xc2\xa0"
        "5"}) {
    EXPECT_EQ(ParseDecimalInteger(text), std::nullopt) << '"' << text << '"';
  }
}

TEST(DecimalIntegerTest, RefusesTrailingGarbageAndOtherNotations) {
  for (const char* text :
       {"5abc", "abc", "0x10", "1e3", "1.0", "1.", ".5", "1,000", "1_000", "5;", "٣"}) {
    EXPECT_EQ(ParseDecimalInteger(text), std::nullopt) << '"' << text << '"';
  }
  EXPECT_EQ(ParseDecimalInteger(std::string("5\0", 2)), std::nullopt);
}

}  // namespace
}  // namespace orrery
