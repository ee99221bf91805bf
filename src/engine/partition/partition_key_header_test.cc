#include <gtest/gtest.h>

#include <string>

#include "engine/partition/partition_key.h"

namespace orrery::partition {
namespace {

PartitionKeyDefinition Single() { return {.paths = {"/pk"}, .version = 2, .version_given = true}; }
PartitionKeyDefinition Hierarchical() {
  return {.paths = {"/t", "/u", "/s"}, .kind = PartitionKind::kMultiHash, .version = 2};
}

// The parsed key printed back as a header, or "<status>".
std::string Parse(const std::string& header, const PartitionKeyDefinition& definition,
                  bool allow_prefix = false) {
  Result<PartitionKeyValue> key = ParseHeader(header, definition, allow_prefix);
  return key.ok() ? ToHeaderJson(*key) : key.status().ToString();
}

TEST(PartitionKeyHeaderTest, ParsesEveryComponentKind) {
  EXPECT_EQ(Parse(R"(["p1"])", Single()), R"(["p1"])");
  EXPECT_EQ(Parse("[5]", Single()), "[5]");
  EXPECT_EQ(Parse("[0.5]", Single()), "[0.5]");
  EXPECT_EQ(Parse("[true]", Single()), "[true]");
  EXPECT_EQ(Parse("[false]", Single()), "[false]");
  EXPECT_EQ(Parse("[null]", Single()), "[null]");
  EXPECT_EQ(Parse("[{}]", Single()), "[{}]");
  EXPECT_EQ(Parse(R"(["t1",null,{}])", Hierarchical()), R"(["t1",null,{}])");
}

// ["<printable ASCII>"] is read without a JSON parse; it must give what the parse gives,
// for keys inside and outside that form alike.
TEST(PartitionKeyHeaderTest, ThePlainStringFormMatchesTheGeneralParse) {
  for (const char* text : {"p000001", "a b", "x/y?z=1&w", "", "{}", "[1]", "'q'"}) {
    const std::string plain = std::string("[\"") + text + "\"]";
    const std::string spaced = std::string("[ \"") + text + "\" ]";
    EXPECT_EQ(Parse(plain, Single()), Parse(spaced, Single())) << plain;
    EXPECT_EQ(Parse(plain, Hierarchical()), Parse(spaced, Hierarchical())) << plain;
    EXPECT_EQ(Parse(plain, Hierarchical(), true), Parse(spaced, Hierarchical(), true)) << plain;
  }
  EXPECT_EQ(Parse(R"(["a\"b"])", Single()), R"(["a\"b"])");
  EXPECT_EQ(Parse(R"(["a"b"])", Single()), R"(status 1: Partition key ["a"b"] is invalid.)");
  EXPECT_EQ(Parse("[\"\xC3\xBC\"]", Single()), "[\"\xC3\xBC\"]");
  EXPECT_EQ(Parse("[\"" + std::string(2049, 'k') + "\"]", Single()),
            Parse("[ \"" + std::string(2049, 'k') + "\" ]", Single()));
}

TEST(PartitionKeyHeaderTest, DecodesUnicodeEscapes) {
  Result<PartitionKeyValue> key = ParseHeader(R"(["\u00fc\u65e5"])", Single(), false);
  ASSERT_TRUE(key.ok()) << key.status().ToString();
  EXPECT_EQ(key->front().string, "\xC3\xBC\xE6\x97\xA5");
}

TEST(PartitionKeyHeaderTest, WrongComponentCountIsBadRequest1001) {
  Result<PartitionKeyValue> few = ParseHeader(R"(["t1"])", Hierarchical(), false);
  ASSERT_FALSE(few.ok());
  EXPECT_EQ(few.status().code(), StatusCode::kBadRequest);
  EXPECT_EQ(few.status().substatus(), 1001);
  EXPECT_EQ(few.status().message(),
            "The partition key supplied in x-ms-partitionkey header has fewer components than "
            "defined in the the collection.");

  Result<PartitionKeyValue> many = ParseHeader(R"(["a","b"])", Single(), false);
  ASSERT_FALSE(many.ok());
  EXPECT_EQ(many.status().substatus(), 1001);
  EXPECT_EQ(many.status().message(),
            "The partition key supplied in x-ms-partitionkey header has more components than "
            "defined in the the collection.");

  EXPECT_EQ(ParseHeader("[]", Single(), false).status().substatus(), 1001);
}

TEST(PartitionKeyHeaderTest, AcceptsPrefixesOfHierarchicalKeysOnlyWhenAllowed) {
  EXPECT_EQ(Parse(R"(["t1"])", Hierarchical(), true), R"(["t1"])");
  EXPECT_EQ(Parse(R"(["t1","u1"])", Hierarchical(), true), R"(["t1","u1"])");
  EXPECT_FALSE(ParseHeader("[]", Hierarchical(), true).ok());
  EXPECT_FALSE(ParseHeader(R"(["a","b","c","d"])", Hierarchical(), true).ok());
  // A prefix makes no sense for a single-path key.
  EXPECT_FALSE(ParseHeader("[]", Single(), true).ok());
}

TEST(PartitionKeyHeaderTest, AcceptsEmptyKeyForSystemKeyContainers) {
  PartitionKeyDefinition legacy{.paths = {"/_partitionKey"}, .system_key = true};
  EXPECT_EQ(Parse("[]", legacy), "[]");
  // Every SDK's "no value" addresses the items without the system property.
  EXPECT_EQ(Parse("[{}]", legacy), "[]");
  EXPECT_EQ(Parse("[null]", legacy), "[]");
  EXPECT_EQ(Parse(R"(["a"])", legacy), R"(["a"])");
  // In an ordinary container [] is no key at all.
  EXPECT_EQ(ParseHeader("[]", Single(), false).status().substatus(), 1001);
}

TEST(PartitionKeyHeaderTest, RejectsGarbageWithAClearMessage) {
  Result<PartitionKeyValue> garbage = ParseHeader("abc", Single(), false);
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.status().code(), StatusCode::kBadRequest);
  EXPECT_EQ(garbage.status().message(), "Partition key abc is invalid.");
  EXPECT_FALSE(ParseHeader(R"("p1")", Single(), false).ok());
  EXPECT_FALSE(ParseHeader(R"({"a":1})", Single(), false).ok());
  EXPECT_FALSE(ParseHeader(R"([{"a":1}])", Single(), false).ok());
  EXPECT_FALSE(ParseHeader("[[1]]", Single(), false).ok());
  EXPECT_FALSE(ParseHeader(R"(["a")", Single(), false).ok());
}

TEST(PartitionKeyHeaderTest, MissingHeaderIsBadRequest1001) {
  Result<PartitionKeyValue> missing = ParseHeader("", Single(), false);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().substatus(), 1001);
}

TEST(PartitionKeyHeaderTest, WritesHeaderJson) {
  EXPECT_EQ(ToHeaderJson({PartitionKeyComponent::String("a\"b"), PartitionKeyComponent::Number(5),
                          PartitionKeyComponent::None()}),
            R"(["a\"b",5,{}])");
  EXPECT_EQ(ToHeaderJson({}), "[]");
}

}  // namespace
}  // namespace orrery::partition
