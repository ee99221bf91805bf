// The data generator of `orrery advise` (generator.h): each distribution's frequencies
// against the weights its spec gives (computed here), the same seed giving the same
// items, nested fields and ranges, and bad specs refused with the field named.

#include "advise/generator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "json/json.h"

namespace orrery::advise {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

Generator Make(std::string_view spec) {
  Result<Generator> g = Generator::Parse(J(spec));
  EXPECT_TRUE(g.ok()) << g.status().ToString();
  return std::move(g).value();
}

std::map<std::string, double> Frequencies(const Generator& g, const std::string& field) {
  std::map<std::string, double> out;
  for (uint64_t i = 0; i < g.count(); ++i) out[g.Item(i).Find(field)->as_string()] += 1.0;
  for (auto& [value, n] : out) n /= static_cast<double>(g.count());
  return out;
}

TEST(GeneratorTest, UniformValuesComeEquallyOften) {
  const Generator g = Make(R"({"count": 50000, "seed": 1, "fields":
      {"t": {"type": "string", "prefix": "t-", "cardinality": 10}}})");
  const auto f = Frequencies(g, "t");
  ASSERT_EQ(f.size(), 10u);
  for (const auto& [value, share] : f) EXPECT_NEAR(share, 0.1, 0.01) << value;
  EXPECT_EQ(f.count("t-0"), 1u);
  EXPECT_EQ(f.count("t-9"), 1u);
}

TEST(GeneratorTest, ZipfFollowsItsWeights) {
  const Generator g = Make(R"({"count": 100000, "seed": 2, "fields":
      {"t": {"type": "string", "cardinality": 50, "distribution": "zipf", "exponent": 1.2}}})");
  const auto f = Frequencies(g, "t");
  double total = 0;
  for (int k = 1; k <= 50; ++k) total += 1 / std::pow(k, 1.2);
  for (int k : {0, 1, 4, 20}) {
    const double expected = (1 / std::pow(k + 1, 1.2)) / total;
    EXPECT_NEAR(f.at(std::to_string(k)), expected, 0.1 * expected + 0.002) << "value " << k;
  }
}

TEST(GeneratorTest, AHotValueIsItsFactorTimesAsLikelyAsEachOther) {
  const Generator g = Make(R"({"count": 60000, "seed": 3, "fields":
      {"tenant": {"type": "string", "prefix": "t", "cardinality": 101, "distribution": "hot",
                  "factor": 100}}})");
  const auto f = Frequencies(g, "tenant");
  // Weights 100 : 1 x 100 -> half the items for t0.
  EXPECT_NEAR(f.at("t0"), 0.5, 0.01);
  double others = 0;
  for (const auto& [value, share] : f) others += value == "t0" ? 0 : share;
  EXPECT_NEAR(f.at("t0") / (others / 100), 100, 10);
}

TEST(GeneratorTest, TheSameSeedGivesTheSameItemsAndAnotherSeedOthers) {
  const std::string spec = R"({"count": 200, "seed": 9, "fields": {
      "a": {"type": "integer", "cardinality": 1000},
      "n": {"type": "number", "min": -5, "max": 5},
      "at": {"type": "timestamp", "from": "2026-01-01T00:00:00Z", "to": "2026-01-02T00:00:00Z"}}})";
  const Generator one = Make(spec);
  const Generator two = Make(spec);
  std::string other_spec = spec;
  other_spec.replace(other_spec.find("\"seed\": 9"), 9, "\"seed\": 8");
  const Generator other = Make(other_spec);
  size_t same_as_other = 0;
  for (uint64_t i = 0; i < 200; ++i) {
    EXPECT_EQ(json::Write(one.Item(i)), json::Write(two.Item(i)));
    same_as_other += json::Write(one.Item(i)) == json::Write(other.Item(i)) ? 1 : 0;
  }
  EXPECT_EQ(same_as_other, 0u);
  // Items do not depend on the order they are asked for.
  EXPECT_EQ(json::Write(one.Item(150)), json::Write(two.Item(150)));
}

TEST(GeneratorTest, RangesNestingArraysAndIds) {
  const Generator g = Make(R"({"count": 500, "seed": 4, "fields": {
      "n": {"type": "number", "min": 10, "max": 20},
      "at": {"type": "timestamp", "from": "2026-03-01T00:00:00Z", "to": "2026-03-02T00:00:00Z"},
      "epoch": {"type": "timestamp", "from": 1000, "to": 2000, "format": "epoch"},
      "tags": {"type": "array", "length": 3, "items": {"type": "string", "cardinality": 4}},
      "site": {"type": "object", "fields": {"floor": {"type": "integer", "cardinality": 8}}}}})");
  for (uint64_t i = 0; i < g.count(); ++i) {
    const json::Value item = g.Item(i);
    EXPECT_EQ(item.Find("id")->as_string(), std::to_string(i));
    const double n = item.Find("n")->as_double();
    EXPECT_TRUE(n >= 10 && n < 20) << n;
    const std::string at = item.Find("at")->as_string();
    EXPECT_EQ(at.substr(0, 11), "2026-03-01T") << at;
    EXPECT_EQ(at.size(), 20u) << at;
    const double epoch = item.Find("epoch")->as_double();
    EXPECT_TRUE(epoch >= 1000 && epoch < 2000) << epoch;
    ASSERT_EQ(item.Find("tags")->as_array().size(), 3u);
    const double floor = item.Find("site")->Find("floor")->as_double();
    EXPECT_TRUE(floor >= 0 && floor < 8) << floor;
  }
  // A spec's own id field is kept, as a string.
  const Generator ids =
      Make(R"({"count": 3, "fields": {"id": {"type": "integer", "cardinality": 5}}})");
  EXPECT_TRUE(ids.Item(0).Find("id")->is_string());
}

TEST(GeneratorTest, BadSpecsNameTheFieldAndTheProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"fields": {"a": {"type": "string", "cardinality": 3}}})", "'count'"},
      {R"({"count": 0, "fields": {"a": {"type": "string", "cardinality": 3}}})", "'count'"},
      {R"({"count": 5})", "needs 'fields'"},
      {R"({"count": 5, "fields": {"a": {"type": "blob"}}})", "field 'a' has an unknown type"},
      {R"({"count": 5, "fields": {"a": {"type": "string"}}})", "field 'a' needs 'cardinality'"},
      {R"({"count": 5, "fields": {"a": {"type": "string", "cardinality": 0}}})", "'cardinality'"},
      {R"({"count": 5, "fields": {"a": {"type": "string", "cardinality": 3, "distribution": "bell"}}})",
       "unknown distribution"},
      {R"({"count": 5, "fields": {"a": {"type": "string", "cardinality": 3, "distribution": "hot"}}})",
       "'factor'"},
      {R"({"count": 5, "fields": {"a": {"type": "number", "min": 3, "max": 1}}})",
       "'min' not below"},
      {R"({"count": 5, "fields": {"a": {"type": "timestamp", "from": "2026-02-01T00:00:00Z",
          "to": "2026-01-01T00:00:00Z"}}})",
       "'from' not before 'to'"},
      {R"({"count": 5, "fields": {"a": {"type": "timestamp", "from": "yesterday", "to": 5}}})",
       "needs 'from' and 'to'"},
      {R"({"count": 5, "fields": {"o": {"type": "object", "fields": {"b": {"type": "x"}}}}})",
       "field 'o.b' has an unknown type"},
      {R"({"count": 5, "fields": {"l": {"type": "array", "length": 2}}})", "needs 'items'"},
  };
  for (const auto& [spec, expected] : cases) {
    Result<Generator> g = Generator::Parse(J(spec));
    ASSERT_FALSE(g.ok()) << spec;
    EXPECT_EQ(g.status().code(), StatusCode::kBadRequest);
    EXPECT_NE(g.status().message().find(expected), std::string::npos)
        << spec << " -> " << g.status().message();
  }
}

}  // namespace
}  // namespace orrery::advise
