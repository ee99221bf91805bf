#include "advise/format.h"

#include <gtest/gtest.h>

namespace orrery::advise {
namespace {

TEST(FormatTest, BytesPercentsAndNumbers) {
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(1536), "1.5 KB");
  EXPECT_EQ(FormatBytes(20.0 * 1024 * 1024 * 1024), "20.0 GB");
  EXPECT_EQ(FormatPercent(0.384), "38%");
  EXPECT_EQ(FormatPercent(0.0042), "0.4%");
  EXPECT_EQ(FormatPercent(0), "0%");
  EXPECT_EQ(FormatNumber(2.314), "2.31");
  EXPECT_EQ(FormatNumber(12.34), "12.3");
  EXPECT_EQ(FormatNumber(1234.7), "1,235");
  EXPECT_EQ(FormatNumber(1234567), "1,234,567");
  EXPECT_EQ(FormatCount(19825), "19,825");
  EXPECT_EQ(FormatCount(7), "7");
}

}  // namespace
}  // namespace orrery::advise
