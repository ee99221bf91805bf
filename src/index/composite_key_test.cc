// Composite-index keys: byte order is the declared order component by component (type
// order first, descending components reversed), entries parse back, and component
// ranges hold exactly the values within their bounds — checked against orders and
// filters computed here, not against the encoder.

#include "index/composite_key.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "index/index_terms.h"
#include "json/json.h"

namespace orrery::index {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

// The language's ORDER BY across types: undefined < null < false < true < numbers <
// strings (byte order) < arrays < objects; arrays and objects tie within their type.
int Rank(const json::Value& v) {
  switch (v.type()) {
    case json::Type::kUndefined:
      return 0;
    case json::Type::kNull:
      return 1;
    case json::Type::kBool:
      return v.as_bool() ? 3 : 2;
    case json::Type::kNumber:
      return 4;
    case json::Type::kString:
      return 5;
    case json::Type::kArray:
      return 6;
    case json::Type::kObject:
      return 7;
  }
  return 8;
}
int Compare(const json::Value& x, const json::Value& y) {
  if (Rank(x) != Rank(y)) return Rank(x) < Rank(y) ? -1 : 1;
  if (x.is_number()) return x.as_double() < y.as_double() ? -1 : x.as_double() > y.as_double();
  if (x.is_string()) return x.as_string() < y.as_string() ? -1 : x.as_string() > y.as_string();
  return 0;
}

std::vector<json::Value> Values() {
  std::vector<json::Value> out{
      json::Value(),     J("null"),          J("false"),  J("true"),  J("-1e300"),      J("-2.5"),
      J("-0"),           J("0.5"),           J("3"),      J("1e300"), J("\"\""),        J("\"a\""),
      J("\"a\\u0000\""), J("\"a\\u0000b\""), J("\"ab\""), J("\"b\""), J("\"\\u00e9\""), J("[1,2]"),
      J("{\"k\":1}")};
  return out;
}

CompositeIndex Composite(std::vector<bool> descending) {
  CompositeIndex c;
  for (size_t i = 0; i < descending.size(); ++i) {
    c.paths.push_back(CompositePath{{"p" + std::to_string(i)}, descending[i]});
  }
  return c;
}

struct Item {
  json::Value doc;
  std::string key;
  std::string id;
};

TEST(CompositeKeyTest, ByteOrderIsTheDeclaredOrderWithDescendingComponentsReversed) {
  for (const std::vector<bool>& dirs :
       std::vector<std::vector<bool>>{{false, false}, {false, true}, {true, false}, {true, true}}) {
    IndexingPolicy policy = *IndexingPolicy::Parse(J(
        std::string(
            R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"}],"compositeIndexes":[[{"path":"/p0","order":")") +
        (dirs[0] ? "descending" : "ascending") + R"("},{"path":"/p1","order":")" +
        (dirs[1] ? "descending" : "ascending") + R"("}]]})"));
    std::vector<Item> items;
    const std::vector<json::Value> values = Values();
    int n = 0;
    for (const json::Value& x : values) {
      for (const json::Value& y : values) {
        json::Value doc = json::Value::MakeObject();
        if (!x.is_undefined()) doc.Set("p0", x);
        if (!y.is_undefined()) doc.Set("p1", y);
        const std::string id = "id" + std::to_string(n++);
        std::vector<std::string> keys;
        AppendCompositeEntryKeys(policy, doc, ItemLocation{7, 3, "0A", id}, keys);
        ASSERT_EQ(keys.size(), 1u);
        items.push_back({doc, keys[0], id});
      }
    }
    std::vector<Item> by_key = items;
    std::sort(by_key.begin(), by_key.end(),
              [](const Item& a, const Item& b) { return a.key < b.key; });
    const auto field = [](const json::Value& doc, const char* name) {
      const json::Value* v = doc.Find(name);
      return v ? *v : json::Value();
    };
    for (size_t i = 1; i < by_key.size(); ++i) {
      const Item& a = by_key[i - 1];
      const Item& b = by_key[i];
      int c = Compare(field(a.doc, "p0"), field(b.doc, "p0"));
      if (dirs[0]) c = -c;
      if (c == 0) {
        c = Compare(field(a.doc, "p1"), field(b.doc, "p1"));
        if (dirs[1]) c = -c;
      }
      EXPECT_LE(c, 0) << json::Write(a.doc) << " before " << json::Write(b.doc) << " dirs "
                      << dirs[0] << dirs[1];
    }
  }
}

TEST(CompositeKeyTest, EntriesParseBack) {
  const CompositeIndex composite = Composite({false, true, true});
  std::string key = CompositePrefix(1, 2, 5);
  const size_t prefix = key.size();
  AppendComponent(key, J("\"x\\u0000y\""), false);
  AppendComponent(key, J("\"q\""), true);
  AppendComponent(key, J("-7"), true);
  key += "ABCD";
  key += '\0';
  key += "the id";
  const std::string rest = key.substr(prefix);  // the view points into it
  std::optional<CompositeEntryView> view = ParseCompositeEntry(rest, composite);
  ASSERT_TRUE(view.has_value());
  EXPECT_EQ(view->epk, "ABCD");
  EXPECT_EQ(view->id, "the id");
  ASSERT_EQ(view->components.size(), 3u);
  EXPECT_EQ(view->components[0].size(), 1u + 3u + 1u + 2u);  // tag, x 0 FF y, terminator
  EXPECT_EQ(view->components[1].size(), 1u + 1u + 2u);
  EXPECT_EQ(view->components[2].size(), 9u);
  EXPECT_EQ(view->values.size(), 7u + 4u + 9u);
  // A position key is the entry key itself.
  EXPECT_EQ(
      CompositePositionKey(key.substr(0, prefix), {std::string(view->values), "ABCD", "the id"}),
      key);
  // Truncated: malformed.
  EXPECT_FALSE(ParseCompositeEntry(key.substr(prefix, 5), composite).has_value());
}

TEST(CompositeKeyTest, ComponentRangesHoldExactlyTheValuesWithinTheirBounds) {
  const std::vector<json::Value> values = Values();
  struct Bounds {
    const char* low;
    bool low_inclusive;
    const char* high;
    bool high_inclusive;
  };
  const std::vector<Bounds> cases = {
      {"-2.5", true, "3", false},       {"-2.5", false, "3", true},
      {"0.5", true, nullptr, false},    {nullptr, false, "0.5", false},
      {"\"a\"", false, nullptr, false}, {"\"a\"", true, "\"b\"", false},
      {nullptr, false, "\"ab\"", true}};
  for (bool descending : {false, true}) {
    const std::string prefix = CompositePrefix(1, 0, 0) + std::string("\x30", 1);  // arbitrary
    for (const Bounds& b : cases) {
      const json::Value low = b.low ? J(b.low) : json::Value();
      const json::Value high = b.high ? J(b.high) : json::Value();
      const KeyRange range = ComponentRange(prefix, b.low ? &low : nullptr, b.low_inclusive,
                                            b.high ? &high : nullptr, b.high_inclusive, descending);
      const json::Value& typed = b.low ? low : high;
      for (const json::Value& v : values) {
        for (const json::Value& next : {json::Value(), J("\"zz\""), J("9")}) {
          std::string key = prefix;
          AppendComponent(key, v, descending);
          AppendComponent(key, next, false);  // a following component
          key += "05C1";
          key += '\0';
          key += "id";
          bool want = v.type() == typed.type();
          if (want && b.low) want = b.low_inclusive ? Compare(v, low) >= 0 : Compare(v, low) > 0;
          if (want && b.high) {
            want = b.high_inclusive ? Compare(v, high) <= 0 : Compare(v, high) < 0;
          }
          const bool in = key >= range.begin && key < range.end;
          EXPECT_EQ(in, want) << json::Write(v) << " low " << (b.low ? b.low : "-") << " high "
                              << (b.high ? b.high : "-") << " desc " << descending;
        }
      }
    }
  }
}

TEST(CompositeKeyTest, StringPrefixRangesHoldExactlyTheStringsWithThePrefix) {
  const std::vector<json::Value> values = Values();
  for (bool descending : {false, true}) {
    const std::string prefix = CompositePrefix(1, 0, 0) + std::string("\x30", 1);
    for (const std::string& text : {std::string(""), std::string("a"), std::string("a\0", 2),
                                    std::string("ab"), std::string("\xC3")}) {
      const KeyRange range = ComponentStringPrefixRange(prefix, text, descending);
      for (const json::Value& v : values) {
        for (const json::Value& next : {json::Value(), J("\"zz\""), J("9")}) {
          std::string key = prefix;
          AppendComponent(key, v, descending);
          AppendComponent(key, next, false);
          key += "05C1";
          key += '\0';
          key += "id";
          const bool want = v.is_string() && v.as_string().starts_with(text);
          const bool in = key >= range.begin && key < range.end;
          EXPECT_EQ(in, want) << json::Write(v) << " prefix of " << text.size() << " bytes, desc "
                              << descending;
        }
      }
    }
  }
}

TEST(CompositeKeyTest, EntryKeysHoldOneEntryPerCompositeBesideTheRangeEntries) {
  IndexingPolicy policy = *IndexingPolicy::Parse(J(
      R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"}],"compositeIndexes":[
          [{"path":"/a"},{"path":"/b"}],[{"path":"/b","order":"descending"},{"path":"/c/d"}]]})"));
  const std::vector<std::string> keys =
      EntryKeys(policy, J(R"({"a":1,"b":"x","c":{"d":true}})"), ItemLocation{4, 1, "0F", "id"});
  std::vector<std::string> composite;
  for (const std::string& key : keys) {
    if (key.size() > 9 && key[9] == kCompositeMarker) composite.push_back(key);
  }
  ASSERT_EQ(composite.size(), 2u);
  EXPECT_TRUE(composite[0].starts_with(CompositePrefix(4, 1, 0)));
  EXPECT_TRUE(composite[1].starts_with(CompositePrefix(4, 1, 1)));
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  // No composites in the policy: none.
  for (const std::string& key :
       EntryKeys(IndexingPolicy(), J(R"({"a":1})"), ItemLocation{4, 1, "0F", "id"})) {
    EXPECT_NE(key[9], kCompositeMarker);
  }
  EXPECT_EQ(CompositeSpecs(policy.composite_indexes()[1]),
            (std::vector<std::string>{"/b DESC", "/c/d ASC"}));
}

}  // namespace
}  // namespace orrery::index
