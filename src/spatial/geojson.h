#pragma once

// GeoJSON geometries as the query language sees them (query-language.md §5.10): Point,
// LineString, Polygon and MultiPolygon, in longitude/latitude degrees on WGS-84. This
// file only reads the JSON and checks the rules the service checks; measuring lives in
// geodesy.h, whose implementation keeps the heavy Boost.Geometry headers to itself.

#include <optional>
#include <string>
#include <vector>

#include "json/value.h"

namespace orrery::spatial {

struct Position {
  double longitude = 0;
  double latitude = 0;
};

using Ring = std::vector<Position>;      // a LineString's points, or a closed ring
using PolygonRings = std::vector<Ring>;  // exterior ring first, then holes

enum class ShapeType { kPoint, kLineString, kPolygon, kMultiPolygon };

// A container's geospatialConfig type: round-earth longitude/latitude (the default), or
// a flat plane whose coordinates have no range (planar.h).
enum class CoordinateSystem { kGeography, kGeometry };

// One geometry. Point: polygons[0][0][0]; LineString: polygons[0][0]; Polygon:
// polygons[0]; MultiPolygon: every element. One layout keeps the walkers simple.
struct Shape {
  ShapeType type = ShapeType::kPoint;
  std::vector<PolygonRings> polygons;

  const Position& point() const { return polygons[0][0][0]; }
  const Ring& line() const { return polygons[0][0]; }
};

// The shape of a GeoJSON object: `type` one of the four names and `coordinates`
// nested to the depth that type needs, all positions numbers (a third, altitude
// number is allowed and ignored). nullopt for anything else, including valid JSON
// that is not one of the four types: the ST_ functions return undefined for it.
std::optional<Shape> ParseShape(const json::Value& value);

// Why `shape` breaks the service's rules (coordinate ranges for geography, enough
// points, closed rings, rings that cross themselves or each other), in the service's
// words; nullopt when it is valid.
std::optional<std::string> InvalidReason(const Shape& shape,
                                         CoordinateSystem system = CoordinateSystem::kGeography);

// ParseShape, then nullopt unless the shape is also valid.
std::optional<Shape> ParseValidShape(const json::Value& value,
                                     CoordinateSystem system = CoordinateSystem::kGeography);

}  // namespace orrery::spatial
