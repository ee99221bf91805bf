#include "index/index_terms.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "index/index_key.h"
#include "index/index_scan.h"
#include "json/json.h"
#include "storage/store.h"

namespace orrery::index {
namespace {

json::Value Doc(std::string_view text) { return *json::Parse(text); }

std::unique_ptr<storage::Store> StoreWith(const IndexingPolicy& policy,
                                          const std::vector<std::string>& docs) {
  auto store = std::move(storage::Store::Open({.in_memory = true})).value();
  storage::WriteBatch batch;
  for (const std::string& text : docs) {
    json::Value doc = Doc(text);
    const std::string id = doc.Find("id")->as_string();
    for (const std::string& key : EntryKeys(policy, doc, ItemLocation{7, 1, "AB", id})) {
      batch.Put(key, "");
    }
  }
  EXPECT_TRUE(store->Write(batch).ok());
  return store;
}

std::vector<std::string> Ids(const storage::Store& store, const PathSegments& path,
                             const std::function<KeyRange(std::string_view)>& range,
                             bool reverse = false) {
  const std::string prefix = PathPrefix(7, 1, path);
  std::vector<std::string> ids;
  EXPECT_TRUE(ScanEntries(store, range(prefix), prefix.size(), reverse, [&](const EntryView& e) {
                ids.emplace_back(e.id);
                return true;
              }).ok());
  return ids;
}

using Ids_t = std::vector<std::string>;

TEST(IndexTermsTest, ValuesSortInTheQueryLanguagesTypeOrder) {
  IndexingPolicy policy;
  auto store = StoreWith(policy, {
                                     R"({"id":"obj","v":{"x":1}})",
                                     R"({"id":"arr","v":[1]})",
                                     R"({"id":"s2","v":"b"})",
                                     R"({"id":"s1","v":"a"})",
                                     R"({"id":"s0","v":"a\u0000"})",
                                     R"({"id":"big","v":1e300})",
                                     R"({"id":"n1","v":2.5})",
                                     R"({"id":"n0","v":-3})",
                                     R"({"id":"neg","v":-1e300})",
                                     R"({"id":"zero","v":-0.0})",
                                     R"({"id":"t","v":true})",
                                     R"({"id":"f","v":false})",
                                     R"({"id":"nul","v":null})",
                                     R"({"id":"none"})",
                                 });
  EXPECT_EQ(Ids(*store, {"v"}, AllEntries), (Ids_t{"nul", "f", "t", "neg", "n0", "zero", "n1",
                                                   "big", "s1", "s0", "s2", "arr", "obj"}));
  EXPECT_EQ(Ids(*store, {"v"}, AllEntries, true).front(), "obj");
}

TEST(IndexTermsTest, EqualityRangeAndPrefixLookups) {
  IndexingPolicy policy;
  auto store = StoreWith(policy, {
                                     R"({"id":"a","n":1,"s":"apple"})",
                                     R"({"id":"b","n":1.0,"s":"apricot"})",
                                     R"({"id":"c","n":2,"s":"banana"})",
                                     R"({"id":"d","n":"1","s":"ap"})",
                                 });
  const json::Value one = json::Value::Int(1);
  const json::Value two = json::Value::Int(2);
  EXPECT_EQ(Ids(*store, {"n"}, [&](auto p) { return EqualRange(p, one); }), (Ids_t{"a", "b"}));
  EXPECT_EQ(
      Ids(*store, {"n"}, [&](auto p) { return BoundedRange(p, &one, false, nullptr, false); }),
      (Ids_t{"c"}));
  EXPECT_EQ(
      Ids(*store, {"n"}, [&](auto p) { return BoundedRange(p, nullptr, false, &two, false); }),
      (Ids_t{"a", "b"}));
  EXPECT_EQ(Ids(*store, {"n"}, [&](auto p) { return BoundedRange(p, &one, true, &two, true); }),
            (Ids_t{"a", "b", "c"}));
  EXPECT_EQ(Ids(*store, {"s"}, [&](auto p) { return StringPrefixRange(p, "ap"); }),
            (Ids_t{"d", "a", "b"}));
}

TEST(IndexTermsTest, ArrayElementsAndNestedPathsAreIndexedUnderTheirPaths) {
  IndexingPolicy policy;
  auto keys = EntryKeys(policy, Doc(R"({"id":"x","tags":["a","b","a"],"o":{"p":1},"_etag":"e"})"),
                        ItemLocation{7, 1, "AB", "x"});
  // id, tags (marker), tags/[] a, b (deduplicated), o (marker), o/p.
  EXPECT_EQ(keys.size(), 6u);
  auto store = StoreWith(policy, {R"({"id":"x","tags":["a","b","a"],"_etag":"e"})"});
  const json::Value a = json::Value::String("a");
  EXPECT_EQ(Ids(*store, {"tags", "[]"}, [&](auto p) { return EqualRange(p, a); }), (Ids_t{"x"}));
  EXPECT_TRUE(Ids(*store, {"tags"}, [&](auto p) { return EqualRange(p, a); }).empty());
  EXPECT_TRUE(Ids(*store, {"_etag"}, AllEntries).empty());
}

TEST(IndexTermsTest, ExplicitlyIncludedPathsIndexUndefined) {
  auto policy = IndexingPolicy::Parse(
      Doc(R"({"includedPaths":[{"path":"/ts/?"}],"excludedPaths":[{"path":"/*"}]})"));
  ASSERT_TRUE(policy.ok());
  auto store = StoreWith(*policy, {R"({"id":"has","ts":5,"other":1})", R"({"id":"lacks"})"});
  EXPECT_EQ(Ids(*store, {"ts"}, AllEntries), (Ids_t{"lacks", "has"}));
  EXPECT_TRUE(Ids(*store, {"other"}, AllEntries).empty());
}

TEST(IndexTermsTest, NoneModeHasNoEntries) {
  auto policy = IndexingPolicy::Parse(Doc(R"({"indexingMode":"none"})"));
  ASSERT_TRUE(policy.ok());
  EXPECT_TRUE(
      EntryKeys(*policy, Doc(R"({"id":"x","a":1})"), ItemLocation{1, 0, "AB", "x"}).empty());
}

}  // namespace
}  // namespace orrery::index
