// Candidate partition keys of `orrery advise` (candidate.h): the three forms, the
// service's limits on them, and the synthetic key's value and routing.

#include "advise/candidate.h"

#include <gtest/gtest.h>

#include "json/json.h"
#include "query/query.h"

namespace orrery::advise {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

TEST(CandidateTest, SinglePathIsAHashKey) {
  Result<Candidate> c = Candidate::Parse("/tenantId");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->paths(), std::vector<std::string>{"/tenantId"});
  EXPECT_FALSE(c->hierarchical());
  EXPECT_EQ(json::Write(c->DefinitionJson()),
            R"({"paths":["/tenantId"],"kind":"Hash","version":2})");
}

TEST(CandidateTest, CommasMakeAHierarchicalKeyOfUpToThreeLevels) {
  Result<Candidate> c = Candidate::Parse("/tenantId, /deviceId,/at");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->paths(), (std::vector<std::string>{"/tenantId", "/deviceId", "/at"}));
  EXPECT_TRUE(c->hierarchical());
  EXPECT_EQ(c->DefinitionJson().Find("kind")->as_string(), "MultiHash");
  Result<Candidate> four = Candidate::Parse("/a,/b,/c,/d");
  ASSERT_FALSE(four.ok());
  EXPECT_NE(four.status().message().find("more than 3 levels"), std::string::npos);
}

TEST(CandidateTest, BadPathsAndMixedFormsAreRefused) {
  for (const char* text : {"tenantId", "/a,", "/a+/b,/c", "/a*", "/a+"}) {
    Result<Candidate> c = Candidate::Parse(text);
    EXPECT_FALSE(c.ok()) << text;
    if (!c.ok()) {
      EXPECT_NE(c.status().message().find(std::string("'") + text + "'"), std::string::npos)
          << c.status().message();
    }
  }
}

TEST(CandidateTest, SyntheticKeyAddsTheJoinedValuesAndRoutesWhenEveryPartIsPinned) {
  Result<Candidate> c = Candidate::Parse("/tenantId+/site/floor");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->paths(), std::vector<std::string>{"/tenantId_floor"});
  EXPECT_EQ(c->synthetic_of(), (std::vector<std::string>{"/tenantId", "/site/floor"}));
  json::Value item = J(R"({"id":"1","tenantId":"t-3","site":{"floor":7}})");
  c->Prepare(item);
  ASSERT_NE(item.Find("tenantId_floor"), nullptr);
  EXPECT_EQ(item.Find("tenantId_floor")->as_string(), "t-3-7");

  auto shape_of = [](const char* text) { return (*query::Compile(text, {}))->access_shape(); };
  partition::PartitionKeyValue key = {*partition::ComponentFromJson(json::Value::String("t-3-7"))};
  const std::string expected = partition::EffectivePartitionKey(c->definition(), key);
  EXPECT_EQ(
      c->SyntheticEpk(shape_of("SELECT * FROM c WHERE c.tenantId = 't-3' AND c.site.floor = 7")),
      expected);
  EXPECT_EQ(c->SyntheticEpk(shape_of("SELECT * FROM c WHERE c.tenantId = 't-3'")), std::nullopt);
  Result<Candidate> plain = Candidate::Parse("/tenantId");
  EXPECT_EQ(plain->SyntheticEpk(shape_of("SELECT * FROM c WHERE c.tenantId = 't-3'")),
            std::nullopt);
}

}  // namespace
}  // namespace orrery::advise
