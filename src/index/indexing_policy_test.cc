#include "index/indexing_policy.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace orrery::index {
namespace {

Result<IndexingPolicy> ParseText(std::string_view text) {
  Result<json::Value> value = json::Parse(text);
  EXPECT_TRUE(value.ok());
  return IndexingPolicy::Parse(*value);
}

TEST(IndexingPolicyTest, DefaultIndexesEverythingButEtag) {
  IndexingPolicy policy;
  EXPECT_TRUE(policy.IsIndexed(PathSegments{"a"}));
  EXPECT_TRUE(policy.IsIndexed(PathSegments{"a", "[]", "b"}));
  EXPECT_FALSE(policy.IsIndexed(PathSegments{"_etag"}));
}

TEST(IndexingPolicyTest, MorePreciseExcludedPathWins) {
  auto policy = ParseText(
      R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"},{"path":"/a/keep/?"}],
          "excludedPaths":[{"path":"/a/*"},{"path":"/\"my-prop\"/?"}]})");
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  EXPECT_TRUE(policy->IsIndexed(PathSegments{"b"}));
  EXPECT_FALSE(policy->IsIndexed(PathSegments{"a"}));
  EXPECT_FALSE(policy->IsIndexed(PathSegments{"a", "x"}));
  EXPECT_TRUE(policy->IsIndexed(PathSegments{"a", "keep"}));
  EXPECT_FALSE(policy->IsIndexed(PathSegments{"a", "keep", "deeper"}));
  EXPECT_FALSE(policy->IsIndexed(PathSegments{"my-prop"}));
  EXPECT_EQ(policy->explicit_scalar_paths().size(), 1u);
}

TEST(IndexingPolicyTest, RootExcludedIndexesOnlyIncludedPathsAndSystemOnes) {
  auto policy = ParseText(
      R"({"indexingMode":"consistent","includedPaths":[{"path":"/name/?"},{"path":"/tags/[]/?"}],
          "excludedPaths":[{"path":"/*"}]})");
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  EXPECT_TRUE(policy->IsIndexed(PathSegments{"name"}));
  EXPECT_TRUE(policy->IsIndexed(PathSegments{"tags", "[]"}));
  EXPECT_FALSE(policy->IsIndexed(PathSegments{"tags"}));
  EXPECT_FALSE(policy->IsIndexed(PathSegments{"age"}));
  EXPECT_TRUE(policy->IsIndexed(PathSegments{"id"}));
  EXPECT_TRUE(policy->IsIndexed(PathSegments{"_ts"}));
}

TEST(IndexingPolicyTest, NoneModeIndexesNothing) {
  auto policy = ParseText(R"({"indexingMode":"none"})");
  ASSERT_TRUE(policy.ok());
  EXPECT_FALSE(policy->enabled());
  EXPECT_FALSE(policy->IsIndexed(PathSegments{"id"}));
}

TEST(IndexingPolicyTest, CompositeIndexesParsed) {
  auto policy = ParseText(
      R"({"includedPaths":[{"path":"/*"}],"compositeIndexes":[[{"path":"/name"},
          {"path":"/age","order":"descending"}]]})");
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  ASSERT_EQ(policy->composite_indexes().size(), 1u);
  const auto& paths = policy->composite_indexes()[0].paths;
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_EQ(paths[0].path, PathSegments{"name"});
  EXPECT_FALSE(paths[0].descending);
  EXPECT_TRUE(paths[1].descending);
}

// Microsoft's index-management samples (Python index_management.py, JS
// IndexManagement.ts) include "/" for the whole tree; excluded, it excludes it all.
TEST(IndexingPolicyTest, TheBareRootPathStandsForTheWholeTree) {
  auto included = ParseText(
      R"({"indexingMode":"consistent","includedPaths":[{"path":"/"}],
          "excludedPaths":[{"path":"/length/*"}]})");
  ASSERT_TRUE(included.ok()) << included.status().ToString();
  EXPECT_TRUE(included->IsIndexed(PathSegments{"width"}));
  EXPECT_TRUE(included->IsIndexed(PathSegments{"a", "[]", "b"}));
  EXPECT_FALSE(included->IsIndexed(PathSegments{"length"}));

  auto excluded = ParseText(
      R"({"indexingMode":"consistent","includedPaths":[{"path":"/name/?"}],
          "excludedPaths":[{"path":"/"}]})");
  ASSERT_TRUE(excluded.ok()) << excluded.status().ToString();
  EXPECT_TRUE(excluded->IsIndexed(PathSegments{"name"}));
  EXPECT_FALSE(excluded->IsIndexed(PathSegments{"age"}));
}

TEST(IndexingPolicyTest, PathsAreRefusedInTheServicesWords) {
  auto no_root = ParseText(R"({"includedPaths":[{"path":"/name/?"}]})");
  ASSERT_FALSE(no_root.ok());
  EXPECT_EQ(no_root.status().message(),
            "The special mandatory indexing path \"/\" is not provided in any of the path type "
            "sets. Please provide this path in one of the sets.");
  auto no_end =
      ParseText(R"({"includedPaths":[{"path":"/*"}],"excludedPaths":[{"path":"/expiration"}]})");
  ASSERT_FALSE(no_end.ok());
  EXPECT_EQ(no_end.status().message(),
            "The indexing path '/expiration' could not be accepted, failed near position '11'. "
            "Please ensure that the path is a valid path. Common errors include invalid "
            "characters or absence of quotes around labels.");
}

TEST(IndexingPolicyTest, InvalidPoliciesAreRejectedWithAMessage) {
  for (
      const char* text : {
          R"({"includedPaths":[{"path":"/name/?"}]})",               // no root
          R"({"includedPaths":[{"path":"/*"},{"path":"name/?"}]})",  // no leading slash
          R"({"includedPaths":[{"path":"/*"},{"path":"/name"}]})",   // no ? or *
          R"({"includedPaths":[{"path":"/*"},{"path":"/*/a/?"}]})",  // wildcard inside
          R"({"includedPaths":[{"path":"/*"},{"nopath":1}]})",
          R"({"includedPaths":[{"path":"/*"}],"compositeIndexes":[[{"path":"/a"}]]})",
          R"({"includedPaths":[{"path":"/*"}],"compositeIndexes":[[{"path":"/a/*"},{"path":"/b"}]]})",
          R"({"includedPaths":[{"path":"/*"}],"compositeIndexes":[[{"path":"/a","order":"up"},{"path":"/b"}]]})",
          R"({"indexingMode":"none","includedPaths":[{"path":"/*"}]})",
      }) {
    auto policy = ParseText(text);
    EXPECT_FALSE(policy.ok()) << text;
    if (!policy.ok()) {
      EXPECT_EQ(policy.status().code(), StatusCode::kBadRequest) << text;
      EXPECT_FALSE(policy.status().message().empty());
    }
  }
}

}  // namespace
}  // namespace orrery::index

namespace orrery::index {
namespace {

TEST(SpatialIndexPolicyTest, PathsAndTypesAreParsed) {
  auto policy = ParseText(
      R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"}],
          "spatialIndexes":[{"path":"/loc/*","types":["Point","Polygon"]},
                            {"path":"/exact/?","types":["LineString"]}]})");
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  EXPECT_TRUE(policy->HasSpatialIndex(PathSegments{"loc"}));
  EXPECT_TRUE(policy->HasSpatialIndex(PathSegments{"loc", "home"}));
  EXPECT_TRUE(policy->HasSpatialIndex(PathSegments{"exact"}));
  EXPECT_FALSE(policy->HasSpatialIndex(PathSegments{"exact", "below"}));
  EXPECT_FALSE(policy->HasSpatialIndex(PathSegments{"other"}));
}

TEST(SpatialIndexPolicyTest, BadEntriesAreRefused) {
  for (const char* list : {R"([{"path":"/loc/*","types":["Circle"]}])", R"([{"path":"/loc/*"}])",
                           R"([{"path":"/loc/*","types":[]}])",
                           R"([{"path":"loc","types":["Point"]}])", R"([{"types":["Point"]}])",
                           R"([{"path":"/loc/*","types":["Point"],"boundingBox":{"xmin":1}}])",
                           R"({"path":"/loc/*"})"}) {
    auto policy = ParseText(std::string(R"({"includedPaths":[{"path":"/*"}],"spatialIndexes":)") +
                            list + "}");
    EXPECT_FALSE(policy.ok()) << list;
    if (!policy.ok()) {
      EXPECT_EQ(policy.status().code(), StatusCode::kBadRequest);
    }
  }
}

TEST(SpatialIndexPolicyTest, BoundingBoxesBelongToGeometryContainers) {
  const json::Value geometry_policy = *json::Parse(
      R"({"spatialIndexes":[{"path":"/r/?","types":["Polygon"],
          "boundingBox":{"xmin":0,"ymin":0,"xmax":10,"ymax":10}}]})");
  const json::Value geography_policy =
      *json::Parse(R"({"spatialIndexes":[{"path":"/r/?","types":["Polygon"]}]})");
  const json::Value geometry = *json::Parse(R"({"type":"Geometry"})");
  const json::Value geography = *json::Parse(R"({"type":"Geography"})");
  EXPECT_TRUE(ValidateGeospatialConfig(&geometry, &geometry_policy).ok());
  EXPECT_TRUE(ValidateGeospatialConfig(&geography, &geography_policy).ok());
  EXPECT_TRUE(ValidateGeospatialConfig(nullptr, &geography_policy).ok());
  EXPECT_FALSE(ValidateGeospatialConfig(&geometry, &geography_policy).ok());
  EXPECT_FALSE(ValidateGeospatialConfig(&geography, &geometry_policy).ok());
  EXPECT_FALSE(ValidateGeospatialConfig(nullptr, &geometry_policy).ok());
  const json::Value flat = *json::Parse(R"({"type":"Flat"})");
  EXPECT_FALSE(ValidateGeospatialConfig(&flat, &geography_policy).ok());
  // A geometry index is not read by the geographic planner.
  auto parsed = IndexingPolicy::Parse(*json::Parse(
      R"({"includedPaths":[{"path":"/*"}],"spatialIndexes":[{"path":"/r/?","types":["Polygon"],
          "boundingBox":{"xmin":0,"ymin":0,"xmax":10,"ymax":10}}]})"));
  ASSERT_TRUE(parsed.ok());
  EXPECT_FALSE(parsed->HasSpatialIndex(PathSegments{"r"}));
}

}  // namespace
}  // namespace orrery::index
