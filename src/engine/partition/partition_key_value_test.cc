#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "engine/partition/partition_key.h"
#include "json/json.h"

namespace orrery::partition {
namespace {

// The key extracted from `item` (JSON text), printed as a header, or "<status>".
std::string Extract(const std::string& item, const PartitionKeyDefinition& definition) {
  Result<json::Value> parsed = json::Parse(item);
  EXPECT_TRUE(parsed.ok()) << item;
  Result<PartitionKeyValue> key = ExtractFromItem(*parsed, definition);
  return key.ok() ? ToHeaderJson(*key) : key.status().ToString();
}

PartitionKeyDefinition Paths(std::vector<std::string> paths) {
  const bool multi = paths.size() > 1;
  return {.paths = std::move(paths),
          .kind = multi ? PartitionKind::kMultiHash : PartitionKind::kHash,
          .version = 2};
}

TEST(PartitionKeyComponentTest, ComparesByKindAndValue) {
  EXPECT_EQ(PartitionKeyComponent::Number(0.0), PartitionKeyComponent::Number(-0.0));
  EXPECT_EQ(PartitionKeyComponent::Number(1), PartitionKeyComponent::Number(1.0));
  EXPECT_EQ(PartitionKeyComponent::String("a"), PartitionKeyComponent::String("a"));
  EXPECT_EQ(PartitionKeyComponent::None(), PartitionKeyComponent::None());
  EXPECT_FALSE(PartitionKeyComponent::String("1") == PartitionKeyComponent::Number(1));
  EXPECT_FALSE(PartitionKeyComponent::Null() == PartitionKeyComponent::None());
  EXPECT_FALSE(PartitionKeyComponent::Bool(true) == PartitionKeyComponent::Bool(false));
  EXPECT_FALSE(PartitionKeyComponent::String("a") == PartitionKeyComponent::String("b"));
}

TEST(ExtractFromItemTest, WalksNestedPaths) {
  EXPECT_EQ(Extract(R"({"id":"1","pk":"a"})", Paths({"/pk"})), R"(["a"])");
  EXPECT_EQ(Extract(R"({"address":{"zip":98052}})", Paths({"/address/zip"})), "[98052]");
  EXPECT_EQ(Extract(R"({"a b":true})", Paths({"/\"a b\""})), "[true]");
  EXPECT_EQ(Extract(R"({"t":"x","u":null,"s":false})", Paths({"/t", "/u", "/s"})),
            R"(["x",null,false])");
}

TEST(ExtractFromItemTest, MissingMembersAreNone) {
  EXPECT_EQ(Extract(R"({"id":"1"})", Paths({"/pk"})), "[{}]");
  EXPECT_EQ(Extract(R"({"address":"flat"})", Paths({"/address/zip"})), "[{}]");
  EXPECT_EQ(Extract(R"({"address":{}})", Paths({"/address/zip"})), "[{}]");
  EXPECT_EQ(Extract(R"({"t":"x"})", Paths({"/t", "/u"})), R"(["x",{}])");
}

TEST(ExtractFromItemTest, EmptyObjectIsNone) {
  EXPECT_EQ(Extract(R"({"pk":{}})", Paths({"/pk"})), "[{}]");
}

TEST(ExtractFromItemTest, RejectsArraysAndNonEmptyObjects) {
  Result<json::Value> item = json::Parse(R"({"pk":[1,2]})");
  ASSERT_TRUE(item.ok());
  Result<PartitionKeyValue> key = ExtractFromItem(*item, Paths({"/pk"}));
  ASSERT_FALSE(key.ok());
  EXPECT_EQ(key.status().code(), StatusCode::kBadRequest);
  EXPECT_EQ(key.status().substatus(), 1001);
  EXPECT_EQ(key.status().message(),
            "Unsupported PartitionKey value component '[1,2]'. Numeric, string, bool, null, "
            "Undefined are the only supported types.");
  EXPECT_NE(Extract(R"({"pk":{"a":1}})", Paths({"/pk"})), "[{}]");
}

TEST(ExtractFromItemTest, NegativeZeroBecomesZero) {
  Result<json::Value> item = json::Parse(R"({"pk":-0.0})");
  ASSERT_TRUE(item.ok());
  Result<PartitionKeyValue> key = ExtractFromItem(*item, Paths({"/pk"}));
  ASSERT_TRUE(key.ok());
  EXPECT_FALSE(std::signbit(key->front().number));
}

TEST(ExtractFromItemTest, SystemKeyItemsWithoutValueHaveEmptyKey) {
  PartitionKeyDefinition legacy{.paths = {"/_partitionKey"}, .system_key = true};
  EXPECT_EQ(Extract(R"({"id":"1"})", legacy), "[]");
  EXPECT_EQ(Extract(R"({"_partitionKey":null})", legacy), "[]");
  EXPECT_EQ(Extract(R"({"_partitionKey":"p"})", legacy), R"(["p"])");
}

TEST(ValidateKeyValueTest, LimitsV2KeysTo2048Bytes) {
  const PartitionKeyDefinition v2 = Paths({"/pk"});
  EXPECT_TRUE(ValidateKeyValue(v2, {PartitionKeyComponent::String(std::string(2048, 'a'))}).ok());
  const Status too_long =
      ValidateKeyValue(v2, {PartitionKeyComponent::String(std::string(2049, 'a'))});
  EXPECT_EQ(too_long.code(), StatusCode::kBadRequest);
  EXPECT_NE(too_long.message().find("2048 bytes"), std::string::npos) << too_long.message();
}

TEST(ValidateKeyValueTest, CountsAllLevelsOfAHierarchicalKey) {
  const PartitionKeyDefinition multi = Paths({"/a", "/b"});
  EXPECT_FALSE(ValidateKeyValue(multi, {PartitionKeyComponent::String(std::string(1500, 'a')),
                                        PartitionKeyComponent::String(std::string(1500, 'b'))})
                   .ok());
}

// Every way a key reaches the engine applies the limit: the item's own value and the
// x-ms-documentdb-partitionkey header.
TEST(ValidateKeyValueTest, ItemsAndHeadersOverTheLimitAreRefused) {
  const PartitionKeyDefinition v2 = Paths({"/pk"});
  const std::string ok(2048, 'k');
  const std::string long_key(2049, 'k');
  EXPECT_TRUE(ExtractFromItem(*json::Parse(R"({"pk":")" + ok + R"("})"), v2).ok());
  const Result<PartitionKeyValue> item =
      ExtractFromItem(*json::Parse(R"({"pk":")" + long_key + R"("})"), v2);
  ASSERT_FALSE(item.ok());
  EXPECT_EQ(item.status().code(), StatusCode::kBadRequest);
  EXPECT_TRUE(ParseHeader(R"([")" + ok + R"("])", v2, false).ok());
  const Result<PartitionKeyValue> header = ParseHeader(R"([")" + long_key + R"("])", v2, false);
  ASSERT_FALSE(header.ok());
  EXPECT_NE(header.status().message().find("2048 bytes"), std::string::npos);
}

TEST(ValidateKeyValueTest, AcceptsLongV1Keys) {
  const PartitionKeyDefinition v1{.paths = {"/pk"}};
  EXPECT_TRUE(ValidateKeyValue(v1, {PartitionKeyComponent::String(std::string(10000, 'a'))}).ok());
}

}  // namespace
}  // namespace orrery::partition
