#include "engine/unique_keys.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

UniqueKeyPolicy Policy(std::string_view text) {
  json::Value policy = J(text);
  Result<UniqueKeyPolicy> parsed = UniqueKeyPolicy::Parse(&policy);
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  return parsed.ok() ? std::move(*parsed) : UniqueKeyPolicy();
}

TEST(UniqueKeyPolicyTest, EntriesAreEqualExactlyWhenTheValuesAre) {
  const UniqueKeyPolicy policy = Policy(R"({"uniqueKeys":[{"paths":["/a","/b/c"]}]})");
  const auto key = [&](std::string_view item, std::string_view epk = "AB") {
    std::vector<std::string> keys = policy.EntryKeys(7, epk, J(item));
    EXPECT_EQ(keys.size(), 1u);
    return keys.empty() ? std::string() : keys[0];
  };
  EXPECT_EQ(key(R"({"a":1,"b":{"c":"x"},"other":1})"), key(R"({"a":1.0,"b":{"c":"x"}})"));
  EXPECT_NE(key(R"({"a":1,"b":{"c":"x"}})"), key(R"({"a":"1","b":{"c":"x"}})"));
  EXPECT_NE(key(R"({"a":1,"b":{"c":"x"}})"), key(R"({"a":1,"b":{"c":"x"}})", "CD"));
  // Missing is one value, and not null.
  EXPECT_EQ(key(R"({"a":1})"), key(R"({"a":1,"b":{}})"));
  EXPECT_NE(key(R"({"a":1})"), key(R"({"a":1,"b":{"c":null}})"));
  // Arrays and objects by content.
  EXPECT_NE(key(R"({"a":[1],"b":{"c":1}})"), key(R"({"a":[2],"b":{"c":1}})"));
  EXPECT_EQ(key(R"({"a":{"k":[1]},"b":{"c":1}})"), key(R"({"a":{"k":[1]},"b":{"c":1}})"));
}

TEST(UniqueKeyPolicyTest, InvalidPoliciesAreRefused) {
  for (std::string_view bad :
       {R"([])", R"({"uniqueKeys":{}})", R"({"uniqueKeys":[{}]})",
        R"({"uniqueKeys":[{"paths":[]}]})", R"({"uniqueKeys":[{"paths":["a"]}]})",
        R"({"uniqueKeys":[{"paths":[1]}]})"}) {
    json::Value policy = J(bad);
    EXPECT_FALSE(UniqueKeyPolicy::Parse(&policy).ok()) << bad;
  }
  std::string eleven = R"({"uniqueKeys":[)";
  for (int i = 0; i < 11; ++i) eleven += std::string(i ? "," : "") + R"({"paths":["/p"]})";
  eleven += "]}";
  json::Value policy = J(eleven);
  EXPECT_FALSE(UniqueKeyPolicy::Parse(&policy).ok());
  EXPECT_TRUE(UniqueKeyPolicy::Parse(nullptr).ok());
}

}  // namespace
}  // namespace orrery::engine
