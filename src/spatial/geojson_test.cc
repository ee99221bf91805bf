#include "spatial/geojson.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace orrery::spatial {
namespace {

json::Value Json(std::string_view text) { return *json::Parse(text); }

TEST(GeoJsonTest, ParsesTheFourTypes) {
  EXPECT_EQ(ParseShape(Json(R"({"type":"Point","coordinates":[31.9,-4.8]})"))->type,
            ShapeType::kPoint);
  EXPECT_EQ(ParseShape(Json(R"({"type":"LineString","coordinates":[[0,0],[1,1]]})"))->type,
            ShapeType::kLineString);
  EXPECT_EQ(
      ParseShape(Json(R"({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]})"))->type,
      ShapeType::kPolygon);
  EXPECT_EQ(
      ParseShape(Json(R"({"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]})"))
          ->polygons.size(),
      1u);
}

TEST(GeoJsonTest, AnythingElseIsNotGeoJson) {
  for (const char* text :
       {R"(5)", R"({"type":"Point"})", R"({"type":"Circle","coordinates":[0,0]})",
        R"({"type":"Point","coordinates":["a",1]})", R"({"type":"Point","coordinates":[[0,0]]})"}) {
    EXPECT_FALSE(ParseShape(Json(text))) << text;
  }
}

TEST(GeoJsonTest, TheServicesDocumentedReasons) {
  // ST_ISVALIDDETAILED's documented example.
  EXPECT_EQ(InvalidReason(*ParseShape(Json(
                R"({"type":"Point","coordinates":[133.75682784306348,-184.38876194345323]})"))),
            "Latitude values must be between -90 and 90 degrees.");
  // The geospatial query article's unclosed polygon.
  EXPECT_EQ(
      InvalidReason(*ParseShape(
          Json(R"({"type":"Polygon","coordinates":[[[31.8,-5],[31.8,-4.7],[32,-4.7],[32,-5]]]})"))),
      "The Polygon input is not valid because the start and end points of the ring number "
      "1 are not the same. Each ring of a polygon must have the same start and end points.");
  EXPECT_FALSE(
      InvalidReason(*ParseShape(Json(R"({"type":"Point","coordinates":[-84.38,33.75]})"))));
  EXPECT_FALSE(ParseValidShape(Json(R"({"type":"Point","coordinates":[31.9,-132.8]})")));
  EXPECT_TRUE(
      InvalidReason(*ParseShape(Json(R"({"type":"LineString","coordinates":[[1,1],[1,1]]})"))));
  EXPECT_FALSE(
      InvalidReason(*ParseShape(Json(R"({"type":"LineString","coordinates":[[1,1],[1,2]]})"))));
}

TEST(GeoJsonTest, RingsThatCrossMakeAPolygonInvalid) {
  const char* bow_tie = R"({"type":"Polygon","coordinates":[[[0,0],[2,2],[2,0],[0,2],[0,0]]]})";
  EXPECT_EQ(InvalidReason(*ParseShape(Json(bow_tie))),
            "The Polygon input is not valid because the ring number 1 intersects itself or some "
            "other ring.");
  EXPECT_FALSE(ParseValidShape(Json(bow_tie)));
  const char* multi =
      R"({"type":"MultiPolygon","coordinates":[[[[10,10],[11,10],[11,11],[10,10]]],)"
      R"([[[0,0],[4,0],[4,4],[0,4],[0,0]],[[3,1],[5,1],[5,2],[3,2],[3,1]]]]})";
  EXPECT_EQ(InvalidReason(*ParseShape(Json(multi))),
            "The MultiPolygon input is not valid because the ring number 1 intersects itself or "
            "some other ring.");
  // Unclosed rings are reported as such, before any crossing.
  EXPECT_NE(
      InvalidReason(*ParseShape(Json(
                        R"({"type":"Polygon","coordinates":[[[0,0],[2,2],[2,0],[0,2],[0,1]]]})")))
          ->find("start and end points"),
      std::string::npos);
}

}  // namespace
}  // namespace orrery::spatial
