#include <gtest/gtest.h>

#include <string>

#include "engine/partition/partition_key.h"
#include "json/json.h"

namespace orrery::partition {
namespace {

Result<PartitionKeyDefinition> ParseText(const std::string& text) {
  Result<json::Value> value = json::Parse(text);
  EXPECT_TRUE(value.ok()) << text;
  return ParseDefinition(*value);
}

// The error message, or "OK".
std::string ErrorOf(const std::string& text) {
  Result<PartitionKeyDefinition> d = ParseText(text);
  return d.ok() ? "OK" : d.status().message();
}

std::string RoundTrip(const std::string& text) {
  Result<PartitionKeyDefinition> d = ParseText(text);
  return d.ok() ? json::Write(DefinitionToJson(*d)) : d.status().message();
}

TEST(PartitionKeyDefinitionTest, DefaultsKindToHashAndVersionToOne) {
  Result<PartitionKeyDefinition> d = ParseText(R"({"paths":["/pk"]})");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->kind, PartitionKind::kHash);
  EXPECT_EQ(d->version, 1);
  EXPECT_FALSE(d->version_given);
  EXPECT_EQ(RoundTrip(R"({"paths":["/pk"]})"), R"({"paths":["/pk"],"kind":"Hash"})");
}

TEST(PartitionKeyDefinitionTest, EchoesAGivenVersion) {
  EXPECT_EQ(RoundTrip(R"({"paths":["/pk"],"version":2})"),
            R"({"paths":["/pk"],"kind":"Hash","version":2})");
  EXPECT_EQ(RoundTrip(R"({"paths":["/pk"],"kind":"Hash","version":1})"),
            R"({"paths":["/pk"],"kind":"Hash","version":1})");
}

TEST(PartitionKeyDefinitionTest, MultiHashDefaultsToVersionTwo) {
  Result<PartitionKeyDefinition> d = ParseText(R"({"paths":["/t","/u","/s"],"kind":"MultiHash"})");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_TRUE(d->is_hierarchical());
  EXPECT_EQ(d->version, 2);
  EXPECT_EQ(json::Write(DefinitionToJson(*d)),
            R"({"paths":["/t","/u","/s"],"kind":"MultiHash","version":2})");
}

TEST(PartitionKeyDefinitionTest, EchoesSystemKey) {
  EXPECT_EQ(RoundTrip(R"({"paths":["/_partitionKey"],"systemKey":true})"),
            R"({"paths":["/_partitionKey"],"kind":"Hash","systemKey":true})");
  EXPECT_EQ(RoundTrip(R"({"paths":["/_partitionKey"],"systemKey":false})"),
            R"({"paths":["/_partitionKey"],"kind":"Hash"})");
}

TEST(PartitionKeyDefinitionTest, AcceptsKindCaseInsensitively) {
  EXPECT_EQ(RoundTrip(R"({"paths":["/a","/b"],"kind":"multihash","version":2})"),
            R"({"paths":["/a","/b"],"kind":"MultiHash","version":2})");
}

TEST(PartitionKeyDefinitionTest, RejectsMissingDefinitionLikeTheService) {
  Result<PartitionKeyDefinition> missing = ParseDefinition(json::Value());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kBadRequest);
  EXPECT_EQ(missing.status().message(),
            "A Partition key definition is not specified in the request.");
  EXPECT_EQ(ErrorOf("null"), "A Partition key definition is not specified in the request.");
}

TEST(PartitionKeyDefinitionTest, RejectsUnknownKinds) {
  EXPECT_EQ(ErrorOf(R"({"paths":["/pk"],"kind":"Range"})"),
            "The 'kind' value 'Range' specified in the partition key definition is invalid. "
            "Please choose 'Hash' or 'MultiHash' partition type.");
  EXPECT_NE(ErrorOf(R"({"paths":["/pk"],"kind":7})"), "OK");
}

TEST(PartitionKeyDefinitionTest, RejectsVersionsOtherThanOneAndTwo) {
  EXPECT_EQ(ErrorOf(R"({"paths":["/pk"],"version":3})"),
            "The 'version' value '3' specified in the partition key definition is invalid. "
            "Please choose 1 or 2.");
  EXPECT_NE(ErrorOf(R"({"paths":["/pk"],"version":"2"})"), "OK");
  EXPECT_NE(ErrorOf(R"({"paths":["/pk"],"version":"V3"})"), "OK");
  EXPECT_NE(ErrorOf(R"({"paths":["/pk"],"version":"v2"})"), "OK");
}

// The Java SDK writes its enum's names (PartitionKeyDefinition.setVersion(V2) sends
// "version":"V2"); they mean the numbers, and the container answers with the number.
TEST(PartitionKeyDefinitionTest, AcceptsTheJavaSdksVersionNames) {
  EXPECT_EQ(ErrorOf(R"({"paths":["/pk"],"version":"V2"})"), "OK");
  EXPECT_EQ(ErrorOf(R"({"paths":["/pk"],"version":"V1"})"), "OK");
  EXPECT_EQ(ErrorOf(R"({"paths":["/a","/b"],"kind":"MultiHash","version":"V2"})"), "OK");
  EXPECT_NE(ErrorOf(R"({"paths":["/a","/b"],"kind":"MultiHash","version":"V1"})"), "OK");
  EXPECT_NE(ErrorOf(R"({"paths":["/pk"],"version":1.5})"), "OK");
}

TEST(PartitionKeyDefinitionTest, RejectsMultiHashWithVersionOne) {
  EXPECT_EQ(ErrorOf(R"({"paths":["/a","/b"],"kind":"MultiHash","version":1})"),
            "A hierarchical partition key (kind 'MultiHash') requires version 2, but version 1 "
            "was specified.");
}

TEST(PartitionKeyDefinitionTest, RequiresOnePathForHashAndAtMostThreeForMultiHash) {
  EXPECT_EQ(ErrorOf(R"({"paths":["/a","/b"]})"),
            "A partition key definition of kind 'Hash' must have exactly one path, but it has 2. "
            "Use kind 'MultiHash' for hierarchical partition keys.");
  EXPECT_EQ(ErrorOf(R"({"paths":["/a"],"kind":"MultiHash"})"), "OK");
  EXPECT_EQ(ErrorOf(R"({"paths":["/a","/b","/c"],"kind":"MultiHash"})"), "OK");
  EXPECT_EQ(ErrorOf(R"({"paths":["/a","/b","/c","/d"],"kind":"MultiHash"})"),
            "A hierarchical partition key (kind 'MultiHash') can have at most 3 paths, but it has "
            "4.");
}

TEST(PartitionKeyDefinitionTest, RequiresANonEmptyPathsArrayOfStrings) {
  const std::string no_paths =
      "The partition key definition must have a 'paths' array with at least one path.";
  EXPECT_EQ(ErrorOf(R"({})"), no_paths);
  EXPECT_EQ(ErrorOf(R"({"paths":[]})"), no_paths);
  EXPECT_EQ(ErrorOf(R"({"paths":"/pk"})"), no_paths);
  EXPECT_NE(ErrorOf(R"({"paths":[5]})"), "OK");
  EXPECT_NE(ErrorOf(R"("/pk")"), "OK");
}

TEST(PartitionKeyDefinitionTest, RejectsDuplicatePaths) {
  EXPECT_EQ(ErrorOf(R"({"paths":["/a","/a"],"kind":"MultiHash"})"),
            "The partition key path '/a' is specified more than once.");
}

TEST(PartitionKeyDefinitionTest, RejectsMalformedPathsWithTheServiceMessage) {
  EXPECT_EQ(ErrorOf(R"({"paths":["pk"]})"),
            "The partition key component definition path 'pk' could not be accepted, failed "
            "near position '0'. Partition key paths must contain only valid characters and not "
            "contain a trailing slash or wildcard character.");
  EXPECT_NE(ErrorOf(R"({"paths":["/a/"]})"), "OK");
  EXPECT_NE(ErrorOf(R"({"paths":["/a/*"]})"), "OK");
}

TEST(PartitionKeyDefinitionTest, RejectsNonBooleanSystemKey) {
  EXPECT_NE(ErrorOf(R"({"paths":["/pk"],"systemKey":"yes"})"), "OK");
}

}  // namespace
}  // namespace orrery::partition
