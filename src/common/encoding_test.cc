#include "common/encoding.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "common/crypto.h"

namespace orrery {
namespace {

TEST(EncodingTest, Base64RoundTrips) {
  for (std::string s :
       std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\x00\xff\x10", 3)}) {
    auto decoded = Base64Decode(Base64Encode(s));
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(*decoded, s);
  }
  EXPECT_EQ(Base64Encode(std::string("\x01\x00\x00\x00", 4)), std::string("AQAAAA=="));
  EXPECT_FALSE(Base64Decode("abc").has_value());
  EXPECT_FALSE(Base64Decode("ab!=").has_value());
}

TEST(EncodingTest, PercentDecodeKeepsPlus) {
  EXPECT_EQ(*PercentDecode("a%20b+c%C3%BC"), "a b+c\xC3\xBC");
  EXPECT_FALSE(PercentDecode("%2").has_value());
  EXPECT_FALSE(PercentDecode("%zz").has_value());
}

TEST(EncodingTest, PercentDecodeEscapesAnywhere) {
  EXPECT_EQ(*PercentDecode(""), "");
  EXPECT_EQ(*PercentDecode("plain"), "plain");
  EXPECT_EQ(*PercentDecode("%41%42"), "AB");
  EXPECT_EQ(*PercentDecode("type%3dmaster%26ver%3D1.0"), "type=master&ver=1.0");
  EXPECT_EQ(*PercentDecode("ab%41"), "abA");
  EXPECT_FALSE(PercentDecode("%").has_value());
  EXPECT_FALSE(PercentDecode("ab%4").has_value());
  EXPECT_FALSE(PercentDecode("ok%41then%g1").has_value());
}

TEST(CryptoTest, HmacSha256MatchesRfc4231Case2) {
  std::string mac = HmacSha256("Jefe", "what do ya want for nothing?");
  EXPECT_EQ(Base64Encode(mac), "W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=");
}

TEST(CryptoTest, PrecomputedKeyMatchesOneShotHmac) {
  for (std::string key : {std::string("Jefe"), std::string(64, 'k'), std::string(131, '\xaa')}) {
    HmacSha256Key precomputed(key);
    for (std::string message : {"", "what do ya want for nothing?", "get\ndocs\n\n"}) {
      EXPECT_EQ(precomputed.Sign(message), HmacSha256(key, message));
    }
  }
}

TEST(CryptoTest, GuidShape) {
  std::string g = RandomGuid();
  ASSERT_EQ(g.size(), 36u);
  // RFC 4122 version 4: 8-4-4-4-12 hex digits, version 4, variant 10xx.
  for (size_t i = 0; i < g.size(); ++i) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      EXPECT_EQ(g[i], '-') << g;
    } else {
      EXPECT_NE(std::string_view("0123456789abcdef").find(g[i]), std::string_view::npos) << g;
    }
  }
  EXPECT_EQ(g[14], '4') << g;
  EXPECT_NE(std::string_view("89ab").find(g[19]), std::string_view::npos) << g;
  EXPECT_NE(RandomGuid(), g);
}

}  // namespace
TEST(EncodingTest, PercentEncodeKeepsOnlyUnreservedBytes) {
  EXPECT_EQ(PercentEncode("type=master&ver=1.0&sig=a+b/c=="),
            "type%3Dmaster%26ver%3D1.0%26sig%3Da%2Bb%2Fc%3D%3D");
  EXPECT_EQ(PercentEncode("A-z_0.9~"), "A-z_0.9~");
  EXPECT_EQ(PercentDecode(PercentEncode("\xc3\xa9 /?#")), "\xc3\xa9 /?#");
}

TEST(EncodingTest, QuotesForMessagesShortAndPrintable) {
  EXPECT_EQ(QuotedForMessage("abc"), "'abc'");
  EXPECT_EQ(QuotedForMessage(""), "''");
  EXPECT_EQ(QuotedForMessage("h\xc3\xa9\t\x7f\x01x"), "'h?????x'");
  EXPECT_EQ(QuotedForMessage(std::string(101, 'a')), "'" + std::string(100, 'a') + "...'");
  EXPECT_EQ(QuotedForMessage("abcdef", 3), "'abc...'");
}

}  // namespace orrery
