#include "query/spatial_access.h"

#include <gtest/gtest.h>

#include "json/json.h"
#include "query/access_path_builder.h"
#include "query/query.h"
#include "spatial/spatial_cells.h"

namespace orrery::query {
namespace {

AccessShape ShapeOf(std::string_view text, std::vector<Parameter> params = {}) {
  auto compiled = Compile(text, std::move(params));
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  return (*compiled)->access_shape();
}

DocumentPath CellPath(DocumentPath path) {
  path.emplace_back(spatial::kCellPathSegment);
  return path;
}

bool Covers(const PathPredicate& predicate, int64_t cell) {
  for (const auto& [first, last] : predicate.cells) {
    if (cell >= first && cell <= last) return true;
  }
  return false;
}

TEST(SpatialAccessTest, DistanceBelowABoundIsASpatialPredicate) {
  for (
      const char* text :
      {R"(SELECT * FROM c WHERE ST_DISTANCE(c.loc, {"type": "Point", "coordinates": [31.9, -4.8]}) < 30000)",
       R"(SELECT * FROM c WHERE 30000 >= st_distance({"type": "Point", "coordinates": [31.9, -4.8]}, c.loc))"}) {
    AccessShape shape = ShapeOf(text);
    ASSERT_EQ(shape.predicates.size(), 1u) << text;
    const PathPredicate& predicate = shape.predicates[0];
    EXPECT_EQ(predicate.kind, PathPredicate::Kind::kSpatial);
    EXPECT_EQ(predicate.path, CellPath({"loc"}));
    EXPECT_TRUE(Covers(predicate, spatial::kExtendedShapeCell));
    EXPECT_TRUE(Covers(predicate, spatial::CellOf({31.9, -4.8})));
    EXPECT_TRUE(Covers(predicate, spatial::CellOf({31.9, -4.55})));  // 27.6 km north
    EXPECT_FALSE(Covers(predicate, spatial::CellOf({31.9, -4.0})));  // 88 km north
  }
}

TEST(SpatialAccessTest, ParametersAndNegativeLiteralsAreConstants) {
  AccessShape shape =
      ShapeOf("SELECT * FROM c WHERE ST_DISTANCE(c.a.b, @p) < @d",
              {Parameter{"@p", *json::Parse(R"({"type":"Point","coordinates":[-1,-2]})")},
               Parameter{"@d", json::Value::Int(100)}});
  ASSERT_EQ(shape.predicates.size(), 1u);
  EXPECT_EQ(shape.predicates[0].path, CellPath({"a", "b"}));
  EXPECT_TRUE(Covers(shape.predicates[0], spatial::CellOf({-1, -2})));
}

TEST(SpatialAccessTest, WithinAndIntersectsARegion) {
  const char* polygon =
      R"({"type": "Polygon", "coordinates": [[[31.8, -5], [32, -5], [32, -4.7], [31.8, -4.7], [31.8, -5]]]})";
  for (const std::string function : {"ST_WITHIN", "ST_INTERSECTS"}) {
    AccessShape shape = ShapeOf("SELECT * FROM c WHERE " + function + "(c.loc, " + polygon + ")");
    ASSERT_EQ(shape.predicates.size(), 1u) << function;
    EXPECT_TRUE(Covers(shape.predicates[0], spatial::CellOf({31.9, -4.8})));
    EXPECT_FALSE(Covers(shape.predicates[0], spatial::CellOf({35, -4.8})));
  }
}

TEST(SpatialAccessTest, WhatTheIndexCannotServe) {
  for (
      const char* text : {
          // A lower bound, an invalid or non-constant shape, no item path.
          R"(SELECT * FROM c WHERE ST_DISTANCE(c.loc, {"type": "Point", "coordinates": [0, 0]}) > 5)",
          R"(SELECT * FROM c WHERE ST_DISTANCE(c.loc, {"type": "Point", "coordinates": [0, 95]}) < 5)",
          R"(SELECT * FROM c WHERE ST_DISTANCE(c.loc, c.other) < 5)",
          R"(SELECT * FROM c WHERE ST_WITHIN({"type": "Point", "coordinates": [0, 0]}, c.area))",
          R"(SELECT * FROM c WHERE NOT ST_INTERSECTS(c.loc, {"type": "Point", "coordinates": [0, 0]}))",
      }) {
    EXPECT_TRUE(ShapeOf(text).predicates.empty()) << text;
  }
}

}  // namespace
}  // namespace orrery::query
