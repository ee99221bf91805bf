#include "index/spatial_terms.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "index/index_key.h"
#include "json/json.h"
#include "spatial/planar_cells.h"
#include "spatial/spatial_cells.h"

namespace orrery::index {
namespace {

IndexingPolicy PolicyWith(std::string_view spatial_indexes) {
  auto policy = IndexingPolicy::Parse(*json::Parse(
      std::string(
          R"({"indexingMode":"consistent","includedPaths":[{"path":"/*"}],"spatialIndexes":)") +
      std::string(spatial_indexes) + "}"));
  EXPECT_TRUE(policy.ok()) << policy.status().ToString();
  return *policy;
}

std::vector<std::string> KeysOf(const IndexingPolicy& policy, std::string_view document) {
  return SpatialEntryKeys(policy, *json::Parse(document), ItemLocation{7, 1, "epk", "id1"});
}

std::string ExpectedKey(std::vector<std::string> path, int64_t cell) {
  path.emplace_back(spatial::kCellPathSegment);
  return EntryKey(PathPrefix(7, 1, path), json::Value::Int(cell), "epk", "id1");
}

TEST(SpatialTermsTest, APointIsFiledUnderItsCellAndOtherShapesUnderTheExtendedCell) {
  const IndexingPolicy policy = PolicyWith(R"([{"path":"/loc/*","types":["Point"]}])");
  EXPECT_EQ(KeysOf(policy, R"({"loc":{"type":"Point","coordinates":[31.9,-4.8]}})"),
            std::vector<std::string>{ExpectedKey({"loc"}, spatial::CellOf({31.9, -4.8}))});
  // All types are indexed whichever the policy lists, as the service does.
  EXPECT_EQ(KeysOf(policy,
                   R"({"loc":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}})"),
            std::vector<std::string>{ExpectedKey({"loc"}, spatial::kExtendedShapeCell)});
}

TEST(SpatialTermsTest, InvalidOrAbsentGeoJsonHasNoEntries) {
  const IndexingPolicy policy = PolicyWith(R"([{"path":"/loc/*","types":["Point"]}])");
  EXPECT_TRUE(KeysOf(policy, R"({"loc":{"type":"Point","coordinates":[31.9,95]}})").empty());
  EXPECT_TRUE(KeysOf(policy, R"({"loc":"31.9,-4.8"})").empty());
  EXPECT_TRUE(KeysOf(policy, R"({"other":{"type":"Point","coordinates":[1,2]}})").empty());
}

TEST(SpatialTermsTest, AWildcardFindsNestedGeoJsonEvenInsideGeoJson) {
  const IndexingPolicy policy = PolicyWith(R"([{"path":"/*","types":["Point"]}])");
  std::vector<std::string> keys = KeysOf(
      policy,
      R"({"a":{"b":{"type":"Point","coordinates":[1,2],"also":{"type":"Point","coordinates":[3,4]}}}})");
  std::vector<std::string> expected = {ExpectedKey({"a", "b"}, spatial::CellOf({1, 2})),
                                       ExpectedKey({"a", "b", "also"}, spatial::CellOf({3, 4}))};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(keys, expected);
  EXPECT_TRUE(policy.HasSpatialIndex(PathSegments{"a", "b", "also"}));
}

// A Geometry index files points by its own grid, with the plane's validity rules
// (coordinates beyond any latitude are valid); points outside its box are extended.
TEST(SpatialTermsTest, GeometryIndexesFilePointsInTheirGrid) {
  const IndexingPolicy geometry = PolicyWith(
      R"([{"path":"/loc/*","types":["Point"],"boundingBox":{"xmin":0,"ymin":0,"xmax":1024,"ymax":2048}}])");
  // Cells of 1 × 2 units: (100.5, 300.2) is column 100 of row 150.
  EXPECT_EQ(KeysOf(geometry, R"({"loc":{"type":"Point","coordinates":[100.5,300.2]}})"),
            std::vector<std::string>{ExpectedKey({"loc"}, 150 * spatial::kPlanarColumns + 100)});
  EXPECT_EQ(KeysOf(geometry, R"({"loc":{"type":"Point","coordinates":[-5,300]}})"),
            std::vector<std::string>{ExpectedKey({"loc"}, spatial::kExtendedShapeCell)});
  EXPECT_TRUE(KeysOf(geometry, R"({"loc":{"type":"Point","coordinates":["a",3]}})").empty());
  EXPECT_NE(geometry.GeometryIndexFor(PathSegments{"loc"}), nullptr);
  EXPECT_FALSE(geometry.HasSpatialIndex(PathSegments{"loc"}));
}

}  // namespace
}  // namespace orrery::index
