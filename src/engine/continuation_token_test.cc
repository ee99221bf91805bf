#include "engine/continuation_token.h"

#include <gtest/gtest.h>

#include "common/encoding.h"

namespace orrery::engine {
namespace {

// Decodes `token` and checks what it says.
void ExpectDecodes(const std::string& token, DecodedToken::Kind kind, int64_t number,
                   const std::string& position, size_t in_group) {
  Result<DecodedToken> decoded = DecodeToken(token);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->kind, kind);
  EXPECT_EQ(decoded->number, number);
  EXPECT_EQ(decoded->position, position);
  EXPECT_EQ(decoded->in_group, in_group);
}

TEST(ContinuationTokenTest, GroupTokensRoundTrip) {
  // The literal stops at its first NUL.
  ExpectDecodes(EncodeGroupToken("\x40team\x00\x01", 42), DecodedToken::Kind::kGroup, 42,
                "\x40team", 0);
  const std::string value("\x40t\x00\x01", 4);
  ExpectDecodes(EncodeInGroupToken(value, 3, 17), DecodedToken::Kind::kGroup, 17, value, 3);
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
  ExpectDecodes(EncodeInPositionToken(position, 2, 11), DecodedToken::Kind::kOrdered, 11, position,
                2);
  ExpectDecodes(EncodeOrderedToken(position, 11), DecodedToken::Kind::kOrdered, 11, position, 0);

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

  // Key order among an item's rows; the key suffix may hold colons (ids may).
  const std::string suffix = std::string("0A") + '\0' + "id:with:colons";
  Result<DecodedToken> keyed = DecodeToken(EncodeKeyTokenInItem(suffix, 12, 5, 77));
  ASSERT_TRUE(keyed.ok()) << keyed.status().ToString();
  EXPECT_EQ(keyed->kind, DecodedToken::Kind::kKey);
  EXPECT_EQ(keyed->number, 12);
  EXPECT_EQ(keyed->in_item_rows, 5u);
  EXPECT_EQ(keyed->in_item, 77u);
  EXPECT_EQ(keyed->key_suffix, suffix);
  Result<DecodedToken> plain = DecodeToken(EncodeKeyToken(suffix, 12));
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->in_item_rows, 0u);
  EXPECT_EQ(plain->key_suffix, suffix);
}

TEST(ContinuationTokenTest, OffsetTokensCarryTheirCursorId) {
  Result<DecodedToken> kept = DecodeToken(EncodeOffsetToken(120, 0x8000000000000001ull));
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  EXPECT_EQ(kept->kind, DecodedToken::Kind::kOffset);
  EXPECT_EQ(kept->number, 120);
  EXPECT_EQ(kept->cursor, 0x8000000000000001ull);
  Result<DecodedToken> none = DecodeToken(EncodeOffsetToken(7));
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->number, 7);
  EXPECT_EQ(none->cursor, 0u);
}

}  // namespace
}  // namespace orrery::engine
