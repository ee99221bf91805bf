#include "engine/continuation_token.h"

#include <gtest/gtest.h>

#include "common/encoding.h"

namespace orrery::engine {
namespace {

TEST(ContinuationTokenTest, GroupTokensRoundTrip) {
  Result<DecodedToken> after = DecodeToken(EncodeGroupToken("\x40team\x00\x01", 42));
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->kind, DecodedToken::Kind::kGroup);
  EXPECT_EQ(after->number, 42);
  EXPECT_EQ(after->position, "\x40team");  // the literal stops at its first NUL
  EXPECT_EQ(after->in_group, 0u);

  const std::string value("\x40t\x00\x01", 4);
  Result<DecodedToken> inside = DecodeToken(EncodeInGroupToken(value, 3, 17));
  ASSERT_TRUE(inside.ok()) << inside.status().ToString();
  EXPECT_EQ(inside->kind, DecodedToken::Kind::kGroup);
  EXPECT_EQ(inside->number, 17);
  EXPECT_EQ(inside->position, value);
  EXPECT_EQ(inside->in_group, 3u);
}

TEST(ContinuationTokenTest, AlteredInGroupTokensAreRefused) {
  std::string raw = *Base64Decode(EncodeInGroupToken("\x40t", 3, 17));
  raw[1] = raw[1] == '1' ? '2' : '1';
  Result<DecodedToken> altered = DecodeToken(Base64Encode(raw));
  ASSERT_FALSE(altered.ok());
  EXPECT_NE(altered.status().message().find(kInvalidContinuation), std::string::npos);
  // Nothing returned inside a group is no such token.
  EXPECT_FALSE(DecodeToken(EncodeInGroupToken("\x40t", 0, 17)).ok());
}

}  // namespace
}  // namespace orrery::engine
