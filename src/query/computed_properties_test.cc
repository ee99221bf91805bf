// Computed properties: the validation rules of Microsoft's "Computed properties in
// Azure Cosmos DB for NoSQL" page, evaluation over an item, and queries that name them.
// Expected values are worked out here from the items, by hand.

#include "query/computed_properties.h"

#include <gtest/gtest.h>

#include "query/query.h"
#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::J;

Result<std::shared_ptr<const ComputedProperties>> CompileText(std::string_view definitions) {
  const json::Value value = J(definitions);
  return ComputedProperties::Compile(&value);
}

std::shared_ptr<const ComputedProperties> MustCompile(std::string_view definitions) {
  auto compiled = CompileText(definitions);
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  return compiled.ok() ? *compiled : nullptr;
}

// The message of the 400 a definition list gets, or "" when it is accepted.
std::string Refusal(std::string_view definitions) {
  auto compiled = CompileText(definitions);
  if (compiled.ok()) return "";
  EXPECT_EQ(compiled.status().code(), StatusCode::kBadRequest);
  return compiled.status().message();
}

std::string OneQuery(std::string_view query) {
  return Refusal(R"([{"name":"cp","query":")" + std::string(query) + R"("}])");
}

TEST(ComputedPropertiesTest, AbsentOrNullOrEmptyMeansNone) {
  auto none = ComputedProperties::Compile(nullptr);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE((*none)->empty());
  EXPECT_TRUE(MustCompile("null")->empty());
  EXPECT_TRUE(MustCompile("[]")->empty());
}

TEST(ComputedPropertiesTest, TheDocumentedExamplesAreAccepted) {
  auto computed = MustCompile(R"([
    {"name":"cp_lowerName","query":"SELECT VALUE LOWER(c.name) FROM c"},
    {"name":"cp_20PercentDiscount","query":"SELECT VALUE (c.price * 0.2) FROM c"},
    {"name":"cp_primaryCategory","query":"SELECT VALUE c.categories[0] FROM c"},
    {"name":"cp_rootAlias","query":"SELECT VALUE c.name FROM root c"},
    {"name":"cp_containerAlias","query":"SELECT VALUE c.name FROM MyContainer c"}
  ])");
  ASSERT_NE(computed, nullptr);
  EXPECT_EQ(computed->names(),
            (std::vector<std::string>{"cp_lowerName", "cp_20PercentDiscount", "cp_primaryCategory",
                                      "cp_rootAlias", "cp_containerAlias"}));
}

TEST(ComputedPropertiesTest, EvaluatesOverTheItem) {
  auto computed = MustCompile(R"([
    {"name":"cp_lowerName","query":"SELECT VALUE LOWER(c.name) FROM c"},
    {"name":"cp_20PercentDiscount","query":"SELECT VALUE (c.price * 0.2) FROM c"},
    {"name":"cp_missing","query":"SELECT VALUE c.nothing FROM c"}
  ])");
  ASSERT_NE(computed, nullptr);
  const json::Value item = J(R"({"id":"1","name":"Alpine Hat","price":50})");
  EXPECT_EQ(computed->Find("cp_lowerName")->Evaluate(item), J(R"("alpine hat")"));
  // 50 * 0.2 = 10
  EXPECT_EQ(computed->Find("cp_20PercentDiscount")->Evaluate(item).as_double(), 10.0);
  EXPECT_TRUE(computed->Find("cp_missing")->Evaluate(item).is_undefined());
  // Undefined values are left out of the values object.
  EXPECT_EQ(computed->ValuesOf(item),
            J(R"({"cp_lowerName":"alpine hat","cp_20PercentDiscount":10})"));
}

TEST(ComputedPropertiesTest, ListAndEntryShapes) {
  EXPECT_EQ(Refusal(R"({"name":"x"})"), "The computedProperties of a container must be an array.");
  EXPECT_EQ(Refusal(R"([1])"), "Each computed property must be an object with 'name' and 'query'.");
  EXPECT_EQ(Refusal(R"([{"query":"SELECT VALUE 1 FROM c"}])"),
            "Each computed property must have a 'name' string.");
  EXPECT_EQ(Refusal(R"([{"name":"cp"}])"),
            "The computed property 'cp' must have a 'query' string.");
}

TEST(ComputedPropertiesTest, AtMostTwentyPerContainer) {
  auto list = [](int n) {
    std::string text = "[";
    for (int i = 0; i < n; ++i) {
      if (i > 0) text += ",";
      text += R"({"name":"cp_)" + std::to_string(i) + R"(","query":"SELECT VALUE c.a FROM c"})";
    }
    return text + "]";
  };
  EXPECT_EQ(Refusal(list(20)), "");
  EXPECT_EQ(Refusal(list(21)),
            "The number of computed properties (21) exceeds the maximum of 20 per container.");
}

TEST(ComputedPropertiesTest, NameRules) {
  EXPECT_EQ(Refusal(R"([{"name":"","query":"SELECT VALUE 1 FROM c"}])"),
            "The name of a computed property cannot be empty.");
  for (const char* reserved : {"id", "_rid", "_ts", "_etag", "_self"}) {
    EXPECT_EQ(
        Refusal(R"([{"name":")" + std::string(reserved) + R"(","query":"SELECT VALUE 1 FROM c"}])"),
        "The computed property name '" + std::string(reserved) +
            "' is a reserved system property name.");
  }
  EXPECT_EQ(Refusal(R"([{"name":"a/b","query":"SELECT VALUE 1 FROM c"}])"),
            "The computed property name 'a/b' is invalid: computed properties are top-level "
            "properties, and a name cannot be a nested path.");
  EXPECT_EQ(Refusal(R"([{"name":"cp","query":"SELECT VALUE 1 FROM c"},
                       {"name":"cp","query":"SELECT VALUE 2 FROM c"}])"),
            "The computed property name 'cp' is used more than once: computed property names "
            "must be unique.");
}

TEST(ComputedPropertiesTest, QueryMustBeSelectValueOverTheRoot) {
  EXPECT_EQ(
      OneQuery("SELECT c.name FROM c"),
      "The query of computed property 'cp' is invalid: the projection must use SELECT VALUE.");
  EXPECT_EQ(
      OneQuery("SELECT * FROM c"),
      "The query of computed property 'cp' is invalid: the projection must use SELECT VALUE.");
  EXPECT_EQ(OneQuery("SELECT VALUE 1"),
            "The query of computed property 'cp' is invalid: it must have a FROM clause over the "
            "root item, such as 'FROM c'.");
  EXPECT_EQ(OneQuery("SELECT VALUE t FROM c JOIN t IN c.tags"),
            "The query of computed property 'cp' is invalid: JOIN is not allowed.");
  EXPECT_EQ(OneQuery("SELECT VALUE t FROM t IN c.tags"),
            "The query of computed property 'cp' is invalid: the FROM clause must name the root "
            "item ('FROM c', 'FROM root c'), not a path, an IN iteration or a subquery.");
  EXPECT_EQ(OneQuery("SELECT VALUE x FROM c.address x"),
            "The query of computed property 'cp' is invalid: the FROM clause must name the root "
            "item ('FROM c', 'FROM root c'), not a path, an IN iteration or a subquery.");
}

TEST(ComputedPropertiesTest, RefusedClauses) {
  const std::string prefix = "The query of computed property 'cp' is invalid: ";
  EXPECT_EQ(OneQuery("SELECT VALUE c.a FROM c WHERE c.b = 1"), prefix + "WHERE is not allowed.");
  EXPECT_EQ(OneQuery("SELECT VALUE c.a FROM c GROUP BY c.a"), prefix + "GROUP BY is not allowed.");
  EXPECT_EQ(OneQuery("SELECT VALUE c.a FROM c ORDER BY c.a"), prefix + "ORDER BY is not allowed.");
  EXPECT_EQ(OneQuery("SELECT TOP 1 VALUE c.a FROM c"), prefix + "TOP is not allowed.");
  EXPECT_EQ(OneQuery("SELECT DISTINCT VALUE c.a FROM c"), prefix + "DISTINCT is not allowed.");
  EXPECT_EQ(OneQuery("SELECT VALUE c.a FROM c OFFSET 0 LIMIT 1"),
            prefix + "OFFSET LIMIT is not allowed.");
}

TEST(ComputedPropertiesTest, RefusedExpressions) {
  const std::string prefix = "The query of computed property 'cp' is invalid: ";
  const std::string subquery = prefix + "subqueries (scalar, EXISTS and ARRAY) are not allowed.";
  EXPECT_EQ(OneQuery("SELECT VALUE EXISTS(SELECT VALUE t FROM t IN c.tags) FROM c"), subquery);
  EXPECT_EQ(OneQuery("SELECT VALUE ARRAY(SELECT VALUE t FROM t IN c.tags) FROM c"), subquery);
  EXPECT_EQ(OneQuery("SELECT VALUE (SELECT VALUE 1) FROM c"), subquery);
  EXPECT_EQ(OneQuery("SELECT VALUE COUNT(1) FROM c"),
            prefix + "aggregate functions are not allowed.");
  EXPECT_EQ(OneQuery("SELECT VALUE GetCurrentDateTime() FROM c"),
            prefix + "non-deterministic functions such as GetCurrentDateTime are not allowed.");
  EXPECT_EQ(OneQuery("SELECT VALUE c.a + RAND() FROM c"),
            prefix + "non-deterministic functions such as RAND are not allowed.");
  EXPECT_EQ(OneQuery("SELECT VALUE ST_DISTANCE(c.p, c.q) FROM c"),
            prefix + "spatial functions such as ST_DISTANCE are not allowed.");
  EXPECT_EQ(OneQuery("SELECT VALUE udf.f(c.a) FROM c"),
            prefix + "user-defined functions are not allowed.");
}

TEST(ComputedPropertiesTest, SyntaxAndBindingErrorsAreRefused) {
  EXPECT_TRUE(OneQuery("SELECT VALUE FROM c")
                  .starts_with("The query of computed property 'cp' is invalid: "));
  EXPECT_TRUE(OneQuery("SELECT VALUE NOSUCHFUNCTION(c.a) FROM c")
                  .starts_with("The query of computed property 'cp' is invalid: "));
}

// Runs `text` over `items` with `computed`, as the engine does for a scope.
std::string RunQuery(std::string_view text,
                     const std::shared_ptr<const ComputedProperties>& computed,
                     std::initializer_list<std::string_view> items) {
  auto compiled = Compile(text, {}, computed);
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  if (!compiled.ok()) return "";
  std::vector<Row> rows;
  for (std::string_view item : items) {
    EXPECT_TRUE((*compiled)->EvaluateDocument(J(item), rows).ok());
  }
  auto result = (*compiled)->Finish(std::move(rows));
  EXPECT_TRUE(result.ok());
  return result.ok() ? testing::WriteArray(*result) : "";
}

TEST(ComputedPropertiesQueryTest, NamedPropertiesReadTheComputedValue) {
  auto computed = MustCompile(R"([
    {"name":"cp_lowerName","query":"SELECT VALUE LOWER(c.name) FROM c"},
    {"name":"cp_20PercentDiscount","query":"SELECT VALUE (c.price * 0.2) FROM c"}
  ])");
  const auto items = {std::string_view(R"({"id":"1","name":"Bravo","price":10})"),
                      std::string_view(R"({"id":"2","name":"alpha","price":30})"),
                      std::string_view(R"({"id":"3","name":"Charlie","price":20})")};
  EXPECT_EQ(RunQuery("SELECT c.id, c.cp_lowerName FROM c WHERE c.cp_lowerName = 'bravo'", computed,
                     items),
            R"([{"id":"1","cp_lowerName":"bravo"}])");
  EXPECT_EQ(RunQuery("SELECT VALUE c.id FROM c ORDER BY c.cp_lowerName DESC", computed, items),
            R"(["3","1","2"])");
  // 10*0.2=2, 30*0.2=6, 20*0.2=4: above 3 are items 2 and 3.
  EXPECT_EQ(RunQuery("SELECT VALUE c.id FROM c WHERE c.cp_20PercentDiscount > 3 ORDER BY c.id",
                     computed, items),
            R"(["2","3"])");
  EXPECT_EQ(RunQuery("SELECT VALUE c[\"cp_lowerName\"] FROM c WHERE c.id = '2'", computed, items),
            R"(["alpha"])");
}

TEST(ComputedPropertiesQueryTest, AnyRootAliasResolves) {
  auto computed =
      MustCompile(R"([{"name":"cp_lowerName","query":"SELECT VALUE LOWER(c.name) FROM c"}])");
  EXPECT_EQ(RunQuery("SELECT VALUE p.cp_lowerName FROM products p", computed,
                     {R"({"id":"1","name":"A"})"}),
            R"(["a"])");
  EXPECT_EQ(
      RunQuery("SELECT VALUE root.cp_lowerName FROM root", computed, {R"({"id":"1","name":"A"})"}),
      R"(["a"])");
}

TEST(ComputedPropertiesQueryTest, GroupByAComputedProperty) {
  auto computed =
      MustCompile(R"([{"name":"cp_lowerName","query":"SELECT VALUE LOWER(c.name) FROM c"}])");
  EXPECT_EQ(
      RunQuery(
          "SELECT c.cp_lowerName, COUNT(1) AS n FROM c GROUP BY c.cp_lowerName", computed,
          {R"({"id":"1","name":"A"})", R"({"id":"2","name":"a"})", R"({"id":"3","name":"B"})"}),
      R"([{"cp_lowerName":"a","n":2},{"cp_lowerName":"b","n":1}])");
}

TEST(ComputedPropertiesQueryTest, WildcardAndWholeItemProjectionsLeaveThemOut) {
  auto computed =
      MustCompile(R"([{"name":"cp_lowerName","query":"SELECT VALUE LOWER(c.name) FROM c"}])");
  EXPECT_EQ(RunQuery("SELECT * FROM c", computed, {R"({"id":"1","name":"A"})"}),
            R"([{"id":"1","name":"A"}])");
  EXPECT_EQ(RunQuery("SELECT VALUE c FROM c", computed, {R"({"id":"1","name":"A"})"}),
            R"([{"id":"1","name":"A"}])");
}

TEST(ComputedPropertiesQueryTest, TheComputedValueWinsOverAStoredMemberOfTheSameName) {
  // Microsoft: queries use the computed property rather than a persisted one of the
  // same name, except for wildcard projections.
  auto computed = MustCompile(R"([{"name":"shadow","query":"SELECT VALUE UPPER(c.name) FROM c"}])");
  EXPECT_EQ(
      RunQuery("SELECT VALUE c.shadow FROM c", computed, {R"({"id":"1","name":"a","shadow":"x"})"}),
      R"(["A"])");
  EXPECT_EQ(RunQuery("SELECT * FROM c", computed, {R"({"id":"1","name":"a","shadow":"x"})"}),
            R"([{"id":"1","name":"a","shadow":"x"}])");
}

TEST(ComputedPropertiesQueryTest, OnlyTheRootAliasResolves) {
  auto computed = MustCompile(R"([{"name":"cp","query":"SELECT VALUE 'computed' FROM c"}])");
  // t.cp is a member of an array element, not of the item.
  EXPECT_EQ(RunQuery("SELECT VALUE t.cp FROM c JOIN t IN c.tags", computed,
                     {R"({"id":"1","tags":[{"cp":"stored"}]})"}),
            R"(["stored"])");
  EXPECT_EQ(RunQuery("SELECT VALUE [c.cp, t.cp] FROM c JOIN t IN c.tags", computed,
                     {R"({"id":"1","tags":[{"cp":"stored"}]})"}),
            R"([["computed","stored"]])");
  // Inside a subquery the outer root alias still names the item.
  EXPECT_EQ(RunQuery("SELECT VALUE ARRAY(SELECT VALUE c.cp FROM t IN c.tags) FROM c", computed,
                     {R"({"id":"1","tags":[1]})"}),
            R"([["computed"]])");
}

TEST(ComputedPropertiesQueryTest, ItemMembersIncludeWhatTheDefinitionReads) {
  auto computed =
      MustCompile(R"([{"name":"cp_lowerName","query":"SELECT VALUE LOWER(c.name) FROM c"}])");
  auto compiled = Compile("SELECT VALUE c.cp_lowerName FROM c", {}, computed);
  ASSERT_TRUE(compiled.ok());
  // A partial item with only "cp_lowerName" would lose c.name: the whole item is read.
  EXPECT_EQ((*compiled)->item_members(), nullptr);
}

}  // namespace
}  // namespace orrery::query
