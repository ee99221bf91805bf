// Computed properties in a container: the definition is validated and kept, queries
// compiled over the container read the computed values, the range index holds them
// where the policy names their path (and only there), and a replace that changes the
// definitions rebuilds the index. Expected ids are worked out here from the items.

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

#include "engine/account.h"
#include "engine/container_definition.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

std::string Definition(std::string_view computed, std::string_view extra_included) {
  return std::string(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2},
      "computedProperties":)") +
         std::string(computed) +
         R"(,"indexingPolicy":{"indexingMode":"consistent","includedPaths":[{"path":"/*"})" +
         std::string(extra_included) + R"(],"excludedPaths":[{"path":"/\"_etag\"/?"}]}})";
}

constexpr std::string_view kLower =
    R"([{"name":"cp_lower","query":"SELECT VALUE LOWER(c.name) FROM c"}])";
constexpr std::string_view kUpper =
    R"([{"name":"cp_lower","query":"SELECT VALUE UPPER(c.name) FROM c"}])";
constexpr std::string_view kIncludeLower = R"(,{"path":"/cp_lower/?"})";
constexpr int kItems = 60;

std::string NameOf(int i) { return i % 3 == 0 ? "Alpha" : i % 3 == 1 ? "ALPHA" : "beta"; }

void WriteItems(Container& container) {
  for (int i = 0; i < kItems; ++i) {
    ItemWriteRequest request;
    request.kind = WriteKind::kUpsert;
    request.partition_key = {partition::PartitionKeyComponent::String("p" + std::to_string(i % 4))};
    // The request refers to the body: it must outlive the write.
    const std::string body = R"({"id":")" + std::to_string(i) + R"(","pk":"p)" +
                             std::to_string(i % 4) + R"(","name":")" + NameOf(i) + R"("})";
    request.body = body;
    auto written = container.WriteItem(request);
    ASSERT_TRUE(written.ok()) << written.status().ToString();
  }
}

struct Outcome {
  std::set<std::string> ids;
  size_t loaded = 0;
  size_t index_entries = 0;
};

Outcome RunQuery(const Container& container, std::string_view text) {
  auto query = query::Compile(text, {}, container.computed_properties());
  EXPECT_TRUE(query.ok()) << query.status().ToString();
  Outcome out;
  if (!query.ok()) return out;
  auto page = container.Query(**query, container.FullScope(), 100000, "");
  EXPECT_TRUE(page.ok()) << page.status().ToString();
  if (!page.ok()) return out;
  for (const std::string& doc : page->documents) out.ids.insert(J(doc).as_string());
  out.loaded = page->loaded_count;
  out.index_entries = page->index_entries;
  return out;
}

std::set<std::string> IdsNamed(std::string_view lower_name) {
  std::set<std::string> ids;
  for (int i = 0; i < kItems; ++i) {
    std::string name = NameOf(i);
    for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (name == lower_name) ids.insert(std::to_string(i));
  }
  return ids;
}

std::unique_ptr<Account> OpenAccount() {
  AccountOptions options;
  options.store.in_memory = true;
  options.initial_partitions = 2;
  auto account = std::move(Account::Open(options)).value();
  EXPECT_TRUE(account->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
  return account;
}

bool WaitForIndex(const Account& account) {
  for (int i = 0; i < 1000; ++i) {
    auto container = account.GetContainer("db", "c");
    if (container.ok() && (*container)->write_state()->index_ready) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(ComputedPropertiesContainerTest, DefinitionIsValidatedAndKept) {
  auto ok = NormalizeContainerDefinition(J(Definition(kLower, "")));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(*ok->body.Find("computedProperties"), J(kLower));
  auto refused = NormalizeContainerDefinition(
      J(Definition(R"([{"name":"cp","query":"SELECT VALUE c.a FROM c WHERE c.b = 1"}])", "")));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kBadRequest);
  EXPECT_EQ(refused.status().message(),
            "The query of computed property 'cp' is invalid: WHERE is not allowed.");
}

TEST(ComputedPropertiesContainerTest, WithoutAnIncludedPathQueriesScan) {
  auto account = OpenAccount();
  ASSERT_TRUE(account->CreateContainer("db", J(Definition(kLower, "")), {}).ok());
  auto container = *account->GetContainer("db", "c");
  WriteItems(*container);
  Outcome out = RunQuery(*container, "SELECT VALUE c.id FROM c WHERE c.cp_lower = 'alpha'");
  EXPECT_EQ(out.ids, IdsNamed("alpha"));
  EXPECT_EQ(out.loaded, static_cast<size_t>(kItems));
  EXPECT_EQ(out.index_entries, 0u);
}

TEST(ComputedPropertiesContainerTest, AnIncludedPathServesEqualityFromTheIndex) {
  auto account = OpenAccount();
  ASSERT_TRUE(account->CreateContainer("db", J(Definition(kLower, kIncludeLower)), {}).ok());
  auto container = *account->GetContainer("db", "c");
  WriteItems(*container);
  Outcome out = RunQuery(*container, "SELECT VALUE c.id FROM c WHERE c.cp_lower = 'alpha'");
  EXPECT_EQ(out.ids, IdsNamed("alpha"));
  EXPECT_EQ(out.loaded, out.ids.size());
  EXPECT_EQ(out.index_entries, out.ids.size());
}

TEST(ComputedPropertiesContainerTest, ReplacingTheDefinitionsRebuildsTheIndex) {
  auto account = OpenAccount();
  ASSERT_TRUE(account->CreateContainer("db", J(Definition(kLower, kIncludeLower)), {}).ok());
  auto container = *account->GetContainer("db", "c");
  WriteItems(*container);
  const std::string before = container->IndexMarkerValue();
  ASSERT_TRUE(
      account->ReplaceContainer("db", "c", J(Definition(kUpper, kIncludeLower)), std::nullopt)
          .ok());
  auto replaced = *account->GetContainer("db", "c");
  EXPECT_NE(replaced->IndexMarkerValue(), before);
  ASSERT_TRUE(WaitForIndex(*account));
  Outcome upper = RunQuery(*replaced, "SELECT VALUE c.id FROM c WHERE c.cp_lower = 'ALPHA'");
  EXPECT_EQ(upper.ids, IdsNamed("alpha"));
  EXPECT_EQ(upper.loaded, upper.ids.size());
  EXPECT_EQ(upper.index_entries, upper.ids.size());
  // The old values left the index with the old definition.
  EXPECT_TRUE(
      RunQuery(*replaced, "SELECT VALUE c.id FROM c WHERE c.cp_lower = 'alpha'").ids.empty());
}

// Microsoft, "Computed properties": a computed property cannot have a spatial index.
TEST(ComputedPropertiesContainerTest, ASpatialIndexOnAComputedPropertyIsRefused) {
  std::string body = Definition(kLower, "");
  body.insert(body.rfind("}}"), R"(,"spatialIndexes":[{"path":"/cp_lower/*","types":["Point"]}])");
  auto refused = NormalizeContainerDefinition(J(body));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kBadRequest);
  EXPECT_NE(refused.status().message().find("cannot have a spatial index"), std::string::npos)
      << refused.status().message();
  // On a persisted property the same index is fine.
  std::string persisted = Definition(kLower, "");
  persisted.insert(persisted.rfind("}}"),
                   R"(,"spatialIndexes":[{"path":"/location/*","types":["Point"]}])");
  EXPECT_TRUE(NormalizeContainerDefinition(J(persisted)).ok());
}

// Microsoft, "Computed properties": removing a computed property that has been indexed
// needs every index on it dropped; the replace that keeps one is refused and changes
// nothing.
TEST(ComputedPropertiesContainerTest, RemovingAnIndexedComputedPropertyNeedsItsIndexesDropped) {
  auto account = OpenAccount();
  ASSERT_TRUE(account->CreateContainer("db", J(Definition(kLower, kIncludeLower)), {}).ok());
  std::string with_composite = Definition("[]", "");
  with_composite.insert(with_composite.rfind("}}"),
                        R"(,"compositeIndexes":[[{"path":"/cp_lower"},{"path":"/name"}]])");
  for (const std::string& body : {Definition("[]", kIncludeLower), with_composite}) {
    auto refused = account->ReplaceContainer("db", "c", J(body), std::nullopt);
    ASSERT_FALSE(refused.ok()) << body;
    EXPECT_EQ(refused.status().code(), StatusCode::kBadRequest);
    EXPECT_NE(refused.status().message().find("The computed property 'cp_lower' is removed"),
              std::string::npos)
        << refused.status().message();
    auto container = *account->GetContainer("db", "c");
    EXPECT_NE(container->computed_properties()->Find("cp_lower"), nullptr) << "unchanged";
  }
  // With its index dropped in the same replace, the removal goes through.
  ASSERT_TRUE(account->ReplaceContainer("db", "c", J(Definition("[]", "")), std::nullopt).ok());
  auto container = *account->GetContainer("db", "c");
  EXPECT_EQ(container->computed_properties()->Find("cp_lower"), nullptr);
}

}  // namespace
}  // namespace orrery::engine
