// EPK hashing against the vectors produced by @azure/cosmos 4.10.1's own hashing code
// (tests/testdata/epk-vectors.json).

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/partition/partition_key.h"
#include "json/json.h"

namespace orrery::partition {
namespace {

struct EpkCase {
  std::string description;  // the case as JSON, for failure messages
  PartitionKeyDefinition definition;
  PartitionKeyValue key;
  std::string epk;
  bool prefix = false;
  std::string range_min;
  std::string range_max;
};

// Vector keys are taken raw: unlike ComponentFromJson, -0.0 keeps its sign, because the
// vectors record what the SDK computes for a JS -0 value.
PartitionKeyComponent RawComponent(const json::Value& v) {
  switch (v.type()) {
    case json::Type::kNull:
      return PartitionKeyComponent::Null();
    case json::Type::kBool:
      return PartitionKeyComponent::Bool(v.as_bool());
    case json::Type::kNumber:
      return PartitionKeyComponent::Number(v.as_double());
    case json::Type::kString:
      return PartitionKeyComponent::String(v.as_string());
    default:
      return PartitionKeyComponent::None();  // {} in the file
  }
}

std::vector<EpkCase> LoadCases() {
  std::ifstream in(ORRERY_SOURCE_DIR "/tests/testdata/epk-vectors.json", std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open epk-vectors.json";
  std::stringstream text;
  text << in.rdbuf();
  Result<json::Value> file = json::Parse(text.str());
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  std::vector<EpkCase> cases;
  if (!file.ok()) {
    return cases;
  }
  for (const json::Value& c : file->Find("cases")->as_array()) {
    EpkCase epk_case;
    epk_case.description = json::Write(c);
    const bool multi_hash = c.Find("kind")->as_string() == "MultiHash";
    epk_case.definition.kind = multi_hash ? PartitionKind::kMultiHash : PartitionKind::kHash;
    epk_case.definition.version = static_cast<int>(c.Find("version")->as_int());
    epk_case.definition.version_given = true;
    const int64_t levels = multi_hash ? c.Find("levels")->as_int() : 1;
    for (int64_t i = 0; i < levels; ++i) {
      epk_case.definition.paths.push_back("/level" + std::to_string(i));
    }
    for (const json::Value& k : c.Find("key")->as_array()) {
      epk_case.key.push_back(RawComponent(k));
    }
    epk_case.epk = c.Find("epk")->as_string();
    if (const json::Value* prefix = c.Find("prefix"); prefix != nullptr && prefix->as_bool()) {
      epk_case.prefix = true;
      epk_case.range_min = c.Find("epkRangeMin")->as_string();
      epk_case.range_max = c.Find("epkRangeMax")->as_string();
    }
    cases.push_back(std::move(epk_case));
  }
  return cases;
}

// Runs every case matching `filter`; returns how many ran.
template <typename Filter>
int ExpectEpks(Filter filter) {
  int ran = 0;
  for (const EpkCase& c : LoadCases()) {
    if (!filter(c)) {
      continue;
    }
    ++ran;
    EXPECT_EQ(EffectivePartitionKey(c.definition, c.key), c.epk) << c.description;
  }
  return ran;
}

bool IsV1(const EpkCase& c) {
  return c.definition.kind == PartitionKind::kHash && c.definition.version == 1;
}
bool IsV2(const EpkCase& c) {
  return c.definition.kind == PartitionKind::kHash && c.definition.version == 2;
}

TEST(EpkHashTest, LoadsAllSdkVectors) {
  const std::vector<EpkCase> cases = LoadCases();
  EXPECT_EQ(cases.size(), 122u);
  int negative_zero = 0;
  for (const EpkCase& c : cases) {
    for (const PartitionKeyComponent& k : c.key) {
      if (k.kind == PartitionKeyComponent::Kind::kNumber && k.number == 0 &&
          std::signbit(k.number)) {
        ++negative_zero;
      }
    }
  }
  EXPECT_EQ(negative_zero, 3) << "the JSON parser must keep the sign of -0.0";
}

TEST(EpkHashTest, MatchesSdkVectorsForV1) { EXPECT_EQ(ExpectEpks(IsV1), 51); }

TEST(EpkHashTest, MatchesSdkVectorsForV2) { EXPECT_EQ(ExpectEpks(IsV2), 51); }

TEST(EpkHashTest, MatchesSdkVectorsForMultiHash) {
  EXPECT_EQ(ExpectEpks([](const EpkCase& c) { return c.definition.is_hierarchical(); }), 20);
}

TEST(EpkHashTest, MatchesSdkVectorsForPrefixRanges) {
  int ran = 0;
  for (const EpkCase& c : LoadCases()) {
    if (!c.prefix) {
      continue;
    }
    ++ran;
    const EpkRange range = PrefixEpkRange(c.definition, c.key);
    EXPECT_EQ(range.min_inclusive, c.range_min) << c.description;
    EXPECT_EQ(range.max_exclusive, c.range_max) << c.description;
  }
  EXPECT_EQ(ran, 3);
}

TEST(EpkHashTest, HeaderZeroHashesAsPositiveZero) {
  // The SDK prints -0 as 0 in the header, so a parsed "-0" must hash like 0, while a
  // raw -0.0 component keeps the SDK's distinct -0 EPK.
  PartitionKeyDefinition v2{.paths = {"/pk"}, .version = 2, .version_given = true};
  const PartitionKeyValue positive = {PartitionKeyComponent::Number(0.0)};
  const PartitionKeyValue negative = {PartitionKeyComponent::Number(-0.0)};
  EXPECT_EQ(EffectivePartitionKey(v2, positive), "155B95BEDAC4B1E9EC1CDC9BB0DDDE58");
  EXPECT_EQ(EffectivePartitionKey(v2, negative), "3D018BB1DF3DB27235766E81FD10406E");

  Result<PartitionKeyValue> parsed = ParseHeader("[-0]", v2, false);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_FALSE(std::signbit(parsed->front().number));
  EXPECT_EQ(EffectivePartitionKey(v2, *parsed), "155B95BEDAC4B1E9EC1CDC9BB0DDDE58");
}

TEST(EpkHashTest, V1HashesOnlyTheFirstComponent) {
  PartitionKeyDefinition v1{.paths = {"/pk"}};
  EXPECT_EQ(EffectivePartitionKey(
                v1, {PartitionKeyComponent::String(""), PartitionKeyComponent::String("ignored")}),
            "05C1CF33970FF80800");
}

TEST(EpkHashTest, V1TruncatesAtHundredUtf16Units) {
  // Expected values computed with the SDK's hashV1PartitionKey: 60 emoji are 120 UTF-16
  // units, cut to 50 emoji (200 UTF-8 bytes, all written, then the 00 terminator).
  PartitionKeyDefinition v1{.paths = {"/pk"}};
  std::string emoji;
  std::string encoded;
  for (int i = 0; i < 60; ++i) {
    emoji += "\xF0\x9F\x98\x80";
    if (i < 50) {
      encoded += "F1A09981";
    }
  }
  EXPECT_EQ(EffectivePartitionKey(v1, {PartitionKeyComponent::String(emoji)}),
            "05C1DDEBD72DF008" + encoded + "00");
  // 99 'x' then an emoji: the cut leaves a lone high surrogate, written as U+FFFD
  // (EF BF BD, encoded F0 C0 BE).
  std::string xs;
  for (int i = 0; i < 99; ++i) {
    xs += "79";
  }
  EXPECT_EQ(EffectivePartitionKey(
                v1, {PartitionKeyComponent::String(std::string(99, 'x') + "\xF0\x9F\x98\x80")}),
            "05C1E919E5FF6E08" + xs + "F0C0BE00");
}

TEST(EpkHashTest, TheEmptyKeyIsTheLeastEpk) {
  // Legacy non-partitioned containers use the key [] for items without a value under
  // their system path: PartitionKeyInternal.Empty, whose EPK the Java SDK
  // (PartitionKeyInternalHelper: MinimumInclusiveEffectivePartitionKey) and the Python
  // SDK (_Empty: the range from "") take to be "".
  PartitionKeyDefinition v1{.paths = {"/_partitionKey"}, .system_key = true};
  PartitionKeyDefinition v2{.paths = {"/_partitionKey"}, .version = 2, .system_key = true};
  EXPECT_EQ(EffectivePartitionKey(v1, {}), "");
  EXPECT_EQ(EffectivePartitionKey(v2, {}), "");
}

TEST(EpkHashTest, V2EpksStayBelowTheTopTwoBits) {
  PartitionKeyDefinition v2{.paths = {"/pk"}, .version = 2, .version_given = true};
  for (int i = 0; i < 200; ++i) {
    const std::string epk =
        EffectivePartitionKey(v2, {PartitionKeyComponent::String("key-" + std::to_string(i))});
    ASSERT_EQ(epk.size(), 32u);
    EXPECT_LE(epk[0], '3') << epk;
  }
}

}  // namespace
}  // namespace orrery::partition
