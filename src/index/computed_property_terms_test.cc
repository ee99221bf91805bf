// Index entries of computed properties: only a path naming one indexes it (the root
// wildcard does not), its entries hold the computed value, and a stored member of the
// same name is not indexed (Microsoft's "Computed properties" page, "Indexing").

#include <gtest/gtest.h>

#include <algorithm>

#include "index/index_key.h"
#include "index/index_terms.h"
#include "index/indexing_policy.h"
#include "json/json.h"

namespace orrery::index {
namespace {

json::Value Doc(std::string_view text) { return *json::Parse(text); }

IndexingPolicy PolicyWithComputed(std::string_view policy_text) {
  IndexingPolicy policy = *IndexingPolicy::Parse(Doc(policy_text));
  policy.set_computed_properties({"cp_lower"});
  return policy;
}

bool HasEntry(const std::vector<std::string>& keys, const PathSegments& path,
              const json::Value& value) {
  const std::string key = EntryKey(PathPrefix(7, 1, path), value, "AB", "1");
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

constexpr std::string_view kWildcardOnly =
    R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"}],"excludedPaths":[]})";
constexpr std::string_view kWithComputedPath =
    R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"},{"path":"/cp_lower/?"}],"excludedPaths":[]})";

TEST(ComputedPropertyTermsTest, TheRootWildcardDoesNotIndexAComputedProperty) {
  const IndexingPolicy policy = PolicyWithComputed(kWildcardOnly);
  EXPECT_FALSE(policy.IsIndexed(PathSegments{"cp_lower"}));
  EXPECT_TRUE(policy.IsIndexed(PathSegments{"name"}));
  const std::vector<std::string> keys =
      EntryKeys(policy, Doc(R"({"id":"1","name":"A"})"), Doc(R"({"cp_lower":"a"})"),
                ItemLocation{7, 1, "AB", "1"});
  EXPECT_FALSE(HasEntry(keys, {"cp_lower"}, json::Value::String("a")));
  EXPECT_TRUE(HasEntry(keys, {"name"}, json::Value::String("A")));
}

TEST(ComputedPropertyTermsTest, AnIncludedPathNamingItIndexesTheComputedValue) {
  const IndexingPolicy policy = PolicyWithComputed(kWithComputedPath);
  EXPECT_TRUE(policy.IsIndexed(PathSegments{"cp_lower"}));
  const std::vector<std::string> keys =
      EntryKeys(policy, Doc(R"({"id":"1","name":"A","cp_lower":"stored"})"),
                Doc(R"({"cp_lower":"a"})"), ItemLocation{7, 1, "AB", "1"});
  EXPECT_TRUE(HasEntry(keys, {"cp_lower"}, json::Value::String("a")));
  // The stored member of the same name is not indexed.
  EXPECT_FALSE(HasEntry(keys, {"cp_lower"}, json::Value::String("stored")));
}

TEST(ComputedPropertyTermsTest, AnUndefinedComputedValueGetsTheUndefinedEntry) {
  const IndexingPolicy policy = PolicyWithComputed(kWithComputedPath);
  const std::vector<std::string> keys = EntryKeys(policy, Doc(R"({"id":"1","cp_lower":"stored"})"),
                                                  Doc(R"({})"), ItemLocation{7, 1, "AB", "1"});
  EXPECT_TRUE(HasEntry(keys, {"cp_lower"}, json::Value()));
  EXPECT_FALSE(HasEntry(keys, {"cp_lower"}, json::Value::String("stored")));
}

TEST(ComputedPropertyTermsTest, WithoutComputedPropertiesNothingChanges) {
  const IndexingPolicy policy = *IndexingPolicy::Parse(Doc(kWildcardOnly));
  const json::Value doc = Doc(R"({"id":"1","cp_lower":"stored"})");
  const ItemLocation where{7, 1, "AB", "1"};
  EXPECT_EQ(EntryKeys(policy, doc, where), EntryKeys(policy, doc, Doc("{}"), where));
  EXPECT_TRUE(HasEntry(EntryKeys(policy, doc, where), {"cp_lower"}, json::Value::String("stored")));
}

}  // namespace
}  // namespace orrery::index
