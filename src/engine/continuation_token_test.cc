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

// A page that ended among one item's rows (a JOIN's): in an ORDER BY stream at a
// position, in creation order at an item, with how many rows of it were returned.
TEST(ContinuationTokenTest, InPositionAndInItemTokensRoundTrip) {
  const std::string position(
      "\x40red\x00"
      "0A\x00id",
      9);
  Result<DecodedToken> ordered = DecodeToken(EncodeInPositionToken(position, 2, 11));
  ASSERT_TRUE(ordered.ok()) << ordered.status().ToString();
  EXPECT_EQ(ordered->kind, DecodedToken::Kind::kOrdered);
  EXPECT_EQ(ordered->number, 11);
  EXPECT_EQ(ordered->position, position);
  EXPECT_EQ(ordered->in_group, 2u);
  EXPECT_EQ(DecodeToken(EncodeOrderedToken(position, 11))->in_group, 0u);

  const std::vector<CreationPosition> positions{{"", "7F", 40}, {"7F", "FF", 0}};
  Result<DecodedToken> created = DecodeToken(EncodeCreationToken(positions, 9, 3, 41));
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(created->kind, DecodedToken::Kind::kCreation);
  EXPECT_EQ(created->number, 9);
  EXPECT_EQ(created->in_item_rows, 3u);
  EXPECT_EQ(created->in_item, 41u);
  ASSERT_EQ(created->positions.size(), 2u);
  EXPECT_EQ(created->positions[0].max, "7F");
  EXPECT_EQ(created->positions[0].number, 40u);
  Result<DecodedToken> whole = DecodeToken(EncodeCreationToken(positions, 9));
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->in_item_rows, 0u);
}

}  // namespace
}  // namespace orrery::engine
