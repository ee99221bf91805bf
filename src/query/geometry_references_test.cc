// In a geometry container (geospatialConfig type "Geometry") the ST_ functions measure
// in the plane; the same query over a geography container measures on the ellipsoid.

#include "query/geometry_references.h"

#include <gtest/gtest.h>

#include "json/json.h"
#include "query/query.h"

namespace orrery::query {
namespace {

json::Value Evaluate(std::string_view text, spatial::CoordinateSystem system) {
  auto compiled = Compile(text, {}, nullptr, nullptr, nullptr, system);
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  if (!compiled.ok()) return json::Value();
  std::vector<Row> rows;
  EXPECT_TRUE((*compiled)->EvaluateDocument(json::Value(), rows).ok());
  auto values = (*compiled)->FinishUnpaged(std::move(rows));
  EXPECT_TRUE(values.ok());
  return values.ok() && values->size() == 1 ? (*values)[0] : json::Value();
}

constexpr auto kGeometry = spatial::CoordinateSystem::kGeometry;
constexpr auto kGeography = spatial::CoordinateSystem::kGeography;

TEST(GeometryReferencesTest, SpatialFunctionsMeasureInThePlane) {
  const char* distance =
      R"(SELECT VALUE ST_DISTANCE({"type":"Point","coordinates":[0,0]}, {"type":"Point","coordinates":[3,4]}))";
  EXPECT_DOUBLE_EQ(Evaluate(distance, kGeometry).as_double(), 5.0);
  // On the ellipsoid the same points are about 553 km apart.
  EXPECT_GT(Evaluate(distance, kGeography).as_double(), 500000.0);
  // In subqueries and in any case of the name too.
  EXPECT_DOUBLE_EQ(
      Evaluate(
          R"(SELECT VALUE (SELECT VALUE st_area({"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]]]})))",
          kGeometry)
          .as_double(),
      16.0);
  const char* far = R"({"type":"Point","coordinates":[500,-300]})";
  EXPECT_TRUE(Evaluate(std::string("SELECT VALUE ST_ISVALID(") + far + ")", kGeometry).as_bool());
  EXPECT_FALSE(Evaluate(std::string("SELECT VALUE ST_ISVALID(") + far + ")", kGeography).as_bool());
  EXPECT_TRUE(
      Evaluate(
          R"(SELECT VALUE ST_WITHIN({"type":"Point","coordinates":[150,150]}, {"type":"Polygon","coordinates":[[[100,100],[200,100],[200,200],[100,200],[100,100]]]}))",
          kGeometry)
          .as_bool());
  EXPECT_TRUE(
      Evaluate(
          R"(SELECT VALUE ST_ISVALIDDETAILED({"type":"Point","coordinates":[500,-300]}).valid)",
          kGeometry)
          .as_bool());
}

}  // namespace
}  // namespace orrery::query
