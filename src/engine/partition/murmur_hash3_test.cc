#include "engine/partition/murmur_hash3.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace orrery::partition {
namespace {

// The reference implementation's output bytes LE64(h1) ++ LE64(h2), as lowercase hex,
// which is how published MurmurHash3_x64_128 vectors are written.
std::string ToReferenceHex(const Hash128& h) {
  std::string out;
  for (const uint64_t word : {h.h1, h.h2}) {
    for (int i = 0; i < 8; ++i) {
      char buf[3];
      std::snprintf(buf, sizeof(buf), "%02x", static_cast<unsigned>((word >> (8 * i)) & 0xFF));
      out += buf;
    }
  }
  return out;
}

TEST(MurmurHash3Test, X86_32MatchesKnownVectors) {
  EXPECT_EQ(MurmurHash3X86_32("", 0), 0u);
  EXPECT_EQ(MurmurHash3X86_32("", 1), 0x514E28B7u);
  EXPECT_EQ(MurmurHash3X86_32("", 0xFFFFFFFFu), 0x81F16F39u);
  EXPECT_EQ(MurmurHash3X86_32(std::string(4, '\0'), 0), 0x2362F9DEu);
  EXPECT_EQ(MurmurHash3X86_32("a", 0x9747B28Cu), 0x7FA09EA6u);
  EXPECT_EQ(MurmurHash3X86_32("abc", 0x9747B28Cu), 0xC84A62DDu);
  EXPECT_EQ(MurmurHash3X86_32("aaaa", 0x9747B28Cu), 0x5A97808Au);
  EXPECT_EQ(MurmurHash3X86_32("Hello, world!", 0x9747B28Cu), 0x24884CBAu);
  EXPECT_EQ(MurmurHash3X86_32("The quick brown fox jumps over the lazy dog", 0x9747B28Cu),
            0x2FA826CDu);
}

TEST(MurmurHash3Test, X64_128MatchesKnownVectors) {
  EXPECT_EQ(ToReferenceHex(MurmurHash3X64_128("")), "00000000000000000000000000000000");
  EXPECT_EQ(ToReferenceHex(MurmurHash3X64_128("a")), "897859f6655555855a890e51483ab5e6");
  EXPECT_EQ(ToReferenceHex(MurmurHash3X64_128("abc")), "6778ad3f3f3f96b4522dca264174a23b");
  EXPECT_EQ(ToReferenceHex(MurmurHash3X64_128("The quick brown fox jumps over the lazy dog")),
            "6c1b07bc7bbc4be347939ac4a93c437a");
  EXPECT_EQ(ToReferenceHex(MurmurHash3X64_128("hello", 42)), "086faf60c9b3b8c47abcefb075b83423");
}

TEST(MurmurHash3Test, X64_128HandlesBlockAndTailBoundaries) {
  // 16 bytes: one full block, no tail; 17 bytes: one block and a 1-byte tail.
  EXPECT_EQ(ToReferenceHex(MurmurHash3X64_128("0123456789abcdef")),
            "a7d14acf946de04bda08a7635c5bc387");
  EXPECT_EQ(ToReferenceHex(MurmurHash3X64_128("0123456789abcdefX")),
            "f7d670b5acd2ebcd274b10829711728f");
}

TEST(MurmurHash3Test, ReadsHighBytesAsUnsigned) {
  // Bytes >= 0x80 must not sign-extend into the block words.
  const std::string high = "\xff\xff\xff\xff";
  EXPECT_EQ(MurmurHash3X86_32(high, 0), 0x76293B50u);
  const std::string mixed(
      "\x80\x81\xfe\xff\x01\x02\x03\xf0\x90\xaa\xbb\xcc\xdd\xee\xff\x7f\x80\xc3", 18);
  EXPECT_EQ(ToReferenceHex(MurmurHash3X64_128(mixed)), "282a0c5b50160a65db9614c7be79ab11");
}

}  // namespace
}  // namespace orrery::partition
