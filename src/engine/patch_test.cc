#include "engine/patch.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

// Applies `ops` (a JSON array) to `item`; the result's text, or the error message.
std::string Patched(std::string_view item, std::string_view ops) {
  Result<PatchRequest> request = ParsePatchRequest(J(ops));
  if (!request.ok()) return "parse: " + request.status().message();
  json::Value doc = J(item);
  Status status = ApplyPatch(doc, request->operations);
  return status.ok() ? json::Write(doc) : "error: " + status.message();
}

TEST(PatchTest, AddSetReplaceRemoveOnObjects) {
  EXPECT_EQ(Patched(R"({"a":1})", R"([{"op":"add","path":"/b","value":2}])"), R"({"a":1,"b":2})");
  EXPECT_EQ(Patched(R"({"a":1})", R"([{"op":"add","path":"/a","value":5}])"), R"({"a":5})");
  EXPECT_EQ(Patched(R"({"a":{"x":1}})", R"([{"op":"set","path":"/a/y","value":[1]}])"),
            R"({"a":{"x":1,"y":[1]}})");
  EXPECT_EQ(Patched(R"({"a":1})", R"([{"op":"replace","path":"/a","value":"s"}])"), R"({"a":"s"})");
  EXPECT_EQ(Patched(R"({"a":1,"b":2})", R"([{"op":"remove","path":"/a"}])"), R"({"b":2})");
  // Strict ones fail on a missing target.
  EXPECT_NE(Patched(R"({"a":1})", R"([{"op":"replace","path":"/b","value":1}])").find("error:"),
            std::string::npos);
  EXPECT_NE(Patched(R"({"a":1})", R"([{"op":"remove","path":"/b"}])").find("error:"),
            std::string::npos);
  // Paths are not created recursively.
  EXPECT_NE(Patched(R"({"a":1})", R"([{"op":"set","path":"/x/y","value":1}])")
                .find("cannot create path recursively, no path found beyond: 'x'"),
            std::string::npos);
}

TEST(PatchTest, ArraysByIndexAndEnd) {
  const char* item = R"({"t":["a","b","c"]})";
  EXPECT_EQ(Patched(item, R"([{"op":"add","path":"/t/1","value":"x"}])"),
            R"({"t":["a","x","b","c"]})");
  EXPECT_EQ(Patched(item, R"([{"op":"add","path":"/t/3","value":"x"}])"),
            R"({"t":["a","b","c","x"]})");
  EXPECT_EQ(Patched(item, R"([{"op":"add","path":"/t/-","value":"x"}])"),
            R"({"t":["a","b","c","x"]})");
  EXPECT_EQ(Patched(item, R"([{"op":"set","path":"/t/0","value":"x"}])"), R"({"t":["x","b","c"]})");
  EXPECT_EQ(Patched(item, R"([{"op":"remove","path":"/t/1"}])"), R"({"t":["a","c"]})");
  EXPECT_NE(Patched(item, R"([{"op":"add","path":"/t/4","value":"x"}])").find("error:"),
            std::string::npos);
  EXPECT_NE(Patched(item, R"([{"op":"replace","path":"/t/3","value":"x"}])").find("error:"),
            std::string::npos);
}

// Microsoft's Java patch sample (SamplePatchQuickstart): set at the array's length
// appends, add beyond it and replace at it fail; partial-document-update.md: remove at
// or beyond the length fails, move inserts as add does.
TEST(PatchTest, EachOperationsArrayIndexRules) {
  const char* one = R"({"children":[{"n":1}]})";
  EXPECT_EQ(Patched(one, R"([{"op":"set","path":"/children/1","value":{"n":4}}])"),
            R"({"children":[{"n":1},{"n":4}]})");
  EXPECT_EQ(Patched(one, R"([{"op":"set","path":"/children/-","value":{"n":4}}])"),
            R"({"children":[{"n":1},{"n":4}]})");
  EXPECT_EQ(Patched(one, R"([{"op":"set","path":"/children/0","value":2}])"),
            R"({"children":[2]})");
  EXPECT_NE(Patched(one, R"([{"op":"set","path":"/children/2","value":2}])")
                .find("Index(2) to operate on is out of array bounds"),
            std::string::npos);
  EXPECT_NE(Patched(one, R"([{"op":"replace","path":"/children/1","value":2}])")
                .find("Index(1) to operate on is out of array bounds"),
            std::string::npos);
  EXPECT_NE(Patched(one, R"([{"op":"remove","path":"/children/1"}])").find("out of array bounds"),
            std::string::npos);
  EXPECT_NE(
      Patched(one, R"([{"op":"incr","path":"/children/1","value":1}])").find("out of array bounds"),
      std::string::npos);
  EXPECT_NE(Patched(one, R"([{"op":"replace","path":"/children/-","value":1}])").find("error:"),
            std::string::npos);
  EXPECT_EQ(Patched(R"({"t":[1,2],"u":[9]})", R"([{"op":"move","from":"/u/0","path":"/t/2"}])"),
            R"({"t":[1,2,9],"u":[]})");
  EXPECT_NE(Patched(R"({"t":[1,2],"u":[9]})", R"([{"op":"move","from":"/u/0","path":"/t/3"}])")
                .find("out of array bounds"),
            std::string::npos);
  EXPECT_EQ(Patched(R"({"t":[1,2]})", R"([{"op":"incr","path":"/t/1","value":5}])"),
            R"({"t":[1,7]})");
}

TEST(PatchTest, IncrKeepsIntegersAndCreatesMissingFields) {
  EXPECT_EQ(Patched(R"({"n":5})", R"([{"op":"incr","path":"/n","value":-7}])"), R"({"n":-2})");
  EXPECT_EQ(Patched(R"({"n":5})", R"([{"op":"incr","path":"/n","value":0.5}])"), R"({"n":5.5})");
  EXPECT_EQ(Patched(R"({})", R"([{"op":"incr","path":"/n","value":3}])"), R"({"n":3})");
  EXPECT_EQ(Patched(R"({"n":9223372036854775807})", R"([{"op":"incr","path":"/n","value":1}])"),
            R"({"n":9223372036854776000})");
  EXPECT_NE(Patched(R"({"n":"5"})", R"([{"op":"incr","path":"/n","value":1}])").find("error:"),
            std::string::npos);
  EXPECT_NE(Patched(R"({"n":5})", R"([{"op":"incr","path":"/n","value":"1"}])").find("parse:"),
            std::string::npos);
}

TEST(PatchTest, MoveTakesTheValueAlong) {
  EXPECT_EQ(Patched(R"({"a":{"b":1},"c":2})", R"([{"op":"move","from":"/a/b","path":"/d"}])"),
            R"({"a":{},"c":2,"d":1})");
  EXPECT_EQ(Patched(R"({"a":1,"c":2})", R"([{"op":"move","from":"/a","path":"/c"}])"),
            R"({"c":1})");
  EXPECT_NE(Patched(R"({"c":2})", R"([{"op":"move","from":"/a","path":"/c"}])").find("error:"),
            std::string::npos);
  EXPECT_NE(Patched(R"({"a":{}})", R"([{"op":"move","from":"/a","path":"/a/b"}])").find("parse:"),
            std::string::npos);
}

TEST(PatchTest, OperationsApplyInOrderAndEscapesAreDecoded) {
  EXPECT_EQ(Patched(R"({})", R"([{"op":"add","path":"/a~1b","value":1},)"
                             R"({"op":"add","path":"/c~0d","value":2},)"
                             R"({"op":"incr","path":"/a~1b","value":1}])"),
            R"({"a/b":2,"c~d":2})");
}

TEST(PatchTest, BodiesAreValidated) {
  EXPECT_TRUE(ParsePatchRequest(J(R"({"operations":[{"op":"remove","path":"/a"}],)"
                                  R"("condition":"FROM c WHERE c.n > 1"})"))
                  .ok());
  for (std::string_view bad :
       {R"([])", R"({"operations":"x"})", R"([{"op":"copy","path":"/a","value":1}])",
        R"([{"op":"set","path":"a","value":1}])", R"([{"op":"set","path":"/a"}])",
        R"([{"op":"set","path":"/","value":1}])", R"({"operations":[],"condition":5})"}) {
    EXPECT_FALSE(ParsePatchRequest(J(bad)).ok()) << bad;
  }
  std::string eleven = "[";
  for (int i = 0; i < 11; ++i)
    eleven += std::string(i ? "," : "") + R"({"op":"remove","path":"/a"})";
  eleven += "]";
  Result<PatchRequest> too_many = ParsePatchRequest(J(eleven));
  ASSERT_FALSE(too_many.ok());
  EXPECT_NE(too_many.status().message().find("at most 10"), std::string::npos);
}

}  // namespace
}  // namespace orrery::engine
