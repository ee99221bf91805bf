// The workload file of `orrery advise` (workload.h): shares normalised, parameters from
// paths or constants, and every mistake refused with the operation named.

#include "advise/workload.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace orrery::advise {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

TEST(WorkloadTest, ParsesOperationsAndNormalisesShares) {
  Result<Workload> w = Workload::Parse(J(R"({"requestsPerSecond": 300, "operations": [
      {"name": "by tenant", "share": 3, "query": "SELECT * FROM c WHERE c.t = @t",
       "parameters": {"@t": "/tenant/id"}},
      {"name": "fixed", "share": 1, "query": "SELECT * FROM c WHERE c.d = @d",
       "parameters": {"@d": {"value": "d-9"}}},
      {"name": "read", "share": 4, "kind": "read"}]})"));
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_EQ(w->operations.size(), 3u);
  EXPECT_DOUBLE_EQ(w->operations[0].share, 3.0 / 8);
  EXPECT_DOUBLE_EQ(w->operations[2].share, 4.0 / 8);
  EXPECT_EQ(w->operations[0].parameters[0].path, (std::vector<std::string>{"tenant", "id"}));
  EXPECT_EQ(w->operations[1].parameters[0].constant->as_string(), "d-9");
  EXPECT_EQ(w->operations[2].kind, Operation::Kind::kRead);
  EXPECT_EQ(*w->requests_per_second, 300);
}

TEST(WorkloadTest, MistakesNameTheOperation) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"operations": []})", "non-empty array"},
      {R"({"operations": [{"name": "q", "query": "SELECT * FROM c"}]})", "'q' needs a 'share'"},
      {R"({"operations": [{"name": "q", "share": 0, "query": "SELECT * FROM c"}]})", "above 0"},
      {R"({"operations": [{"name": "q", "share": 1, "query": "SELEC * FROM c"}]})",
       "'q' has a query that does not compile"},
      {R"({"operations": [{"name": "q", "share": 1, "kind": "scan"}]})", "the kinds are"},
      {R"({"operations": [{"name": "q", "share": 1}]})", "needs a 'query' or a 'kind'"},
      {R"({"operations": [{"name": "q", "share": 1, "query": "SELECT * FROM c WHERE c.a = @a",
           "parameters": {"@a": "tenant"}}]})",
       "not a path"},
      {R"({"operations": [{"name": "q", "share": 1, "query": "SELECT * FROM c",
           "parameters": {"a": "/a"}}]})",
       "does not start with '@'"},
      {R"({"operations": [{"name": "r", "share": 1, "kind": "read"}], "requestsPerSecond": -1})",
       "requestsPerSecond"},
  };
  for (const auto& [text, expected] : cases) {
    Result<Workload> w = Workload::Parse(J(text));
    ASSERT_FALSE(w.ok()) << text;
    EXPECT_NE(w.status().message().find(expected), std::string::npos)
        << text << " -> " << w.status().message();
  }
}

}  // namespace
}  // namespace orrery::advise
