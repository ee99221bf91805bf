#include "spatial/geojson.h"

#include <string_view>

#include "spatial/ring_crossings.h"

namespace orrery::spatial {
namespace {

std::optional<Position> ParsePosition(const json::Value& value) {
  if (!value.is_array()) return std::nullopt;
  const json::Array& numbers = value.as_array();
  if (numbers.size() < 2 || numbers.size() > 3) return std::nullopt;
  for (const json::Value& number : numbers) {
    if (!number.is_number()) return std::nullopt;
  }
  return Position{numbers[0].as_double(), numbers[1].as_double()};
}

std::optional<Ring> ParsePositions(const json::Value& value) {
  if (!value.is_array()) return std::nullopt;
  Ring ring;
  ring.reserve(value.as_array().size());
  for (const json::Value& element : value.as_array()) {
    std::optional<Position> position = ParsePosition(element);
    if (!position) return std::nullopt;
    ring.push_back(*position);
  }
  return ring;
}

std::optional<PolygonRings> ParseRings(const json::Value& value) {
  if (!value.is_array() || value.as_array().empty()) return std::nullopt;
  PolygonRings rings;
  for (const json::Value& element : value.as_array()) {
    std::optional<Ring> ring = ParsePositions(element);
    if (!ring) return std::nullopt;
    rings.push_back(std::move(*ring));
  }
  return rings;
}

std::string_view TypeName(ShapeType type) {
  switch (type) {
    case ShapeType::kPoint:
      return "Point";
    case ShapeType::kLineString:
      return "LineString";
    case ShapeType::kPolygon:
      return "Polygon";
    case ShapeType::kMultiPolygon:
      return "MultiPolygon";
  }
  return "";
}

std::optional<std::string> PositionReason(const Position& position) {
  // The service reports latitude first (its ST_ISVALIDDETAILED example flags a
  // latitude of -184 and says nothing of the longitude).
  if (!(position.latitude >= -90 && position.latitude <= 90)) {
    return "Latitude values must be between -90 and 90 degrees.";
  }
  if (!(position.longitude >= -180 && position.longitude <= 180)) {
    return "Longitude values must be between -180 and 180 degrees.";
  }
  return std::nullopt;
}

std::optional<std::string> RingReason(ShapeType type, const Ring& ring, size_t number) {
  const std::string prefix = "The " + std::string(TypeName(type)) + " input is not valid because ";
  if (ring.size() < 4) {
    return prefix + "the ring number " + std::to_string(number) +
           " does not have enough points. Each ring of a polygon must contain at least four "
           "points.";
  }
  const Position& first = ring.front();
  const Position& last = ring.back();
  if (first.longitude != last.longitude || first.latitude != last.latitude) {
    return prefix + "the start and end points of the ring number " + std::to_string(number) +
           " are not the same. Each ring of a polygon must have the same start and end points.";
  }
  return std::nullopt;
}

// How many different positions the line has, counting up to two.
size_t DistinctPoints(const Ring& line) {
  for (const Position& position : line) {
    if (position.longitude != line[0].longitude || position.latitude != line[0].latitude) {
      return 2;
    }
  }
  return line.empty() ? 0 : 1;
}

}  // namespace

std::optional<Shape> ParseShape(const json::Value& value) {
  if (!value.is_object()) return std::nullopt;
  const json::Value* type = value.Find("type");
  const json::Value* coordinates = value.Find("coordinates");
  if (type == nullptr || !type->is_string() || coordinates == nullptr) return std::nullopt;
  const std::string& name = type->as_string();
  Shape shape;
  if (name == "Point") {
    std::optional<Position> position = ParsePosition(*coordinates);
    if (!position) return std::nullopt;
    shape.type = ShapeType::kPoint;
    shape.polygons = {{{*position}}};
  } else if (name == "LineString") {
    std::optional<Ring> line = ParsePositions(*coordinates);
    if (!line) return std::nullopt;
    shape.type = ShapeType::kLineString;
    shape.polygons = {{std::move(*line)}};
  } else if (name == "Polygon") {
    std::optional<PolygonRings> rings = ParseRings(*coordinates);
    if (!rings) return std::nullopt;
    shape.type = ShapeType::kPolygon;
    shape.polygons = {std::move(*rings)};
  } else if (name == "MultiPolygon") {
    if (!coordinates->is_array() || coordinates->as_array().empty()) return std::nullopt;
    shape.type = ShapeType::kMultiPolygon;
    for (const json::Value& polygon : coordinates->as_array()) {
      std::optional<PolygonRings> rings = ParseRings(polygon);
      if (!rings) return std::nullopt;
      shape.polygons.push_back(std::move(*rings));
    }
  } else {
    return std::nullopt;
  }
  return shape;
}

std::optional<std::string> InvalidReason(const Shape& shape, CoordinateSystem system) {
  for (const PolygonRings& polygon : shape.polygons) {
    for (const Ring& ring : polygon) {
      for (const Position& position : ring) {
        if (system == CoordinateSystem::kGeometry) break;  // the plane has no range
        if (std::optional<std::string> reason = PositionReason(position)) return reason;
      }
    }
  }
  if (shape.type == ShapeType::kLineString && DistinctPoints(shape.line()) < 2) {
    // The wording of SQL Server's geography type (error 24117), whose other messages the
    // service repeats.
    return "The LineString input is not valid because it does not have enough distinct "
           "points. A LineString must have at least two distinct points.";
  }
  if (shape.type == ShapeType::kPolygon || shape.type == ShapeType::kMultiPolygon) {
    for (const PolygonRings& polygon : shape.polygons) {
      for (size_t i = 0; i < polygon.size(); ++i) {
        if (std::optional<std::string> reason = RingReason(shape.type, polygon[i], i + 1)) {
          return reason;
        }
      }
    }
    for (const PolygonRings& polygon : shape.polygons) {
      if (std::optional<size_t> ring = FirstCrossingRing(polygon, system)) {
        // The service's frame around SQL Server's reason for the same fault (24404); the
        // service's own text for it is not documented.
        return "The " + std::string(TypeName(shape.type)) +
               " input is not valid because the ring number " + std::to_string(*ring) +
               " intersects itself or some other ring.";
      }
    }
  }
  return std::nullopt;
}

std::optional<Shape> ParseValidShape(const json::Value& value, CoordinateSystem system) {
  std::optional<Shape> shape = ParseShape(value);
  if (!shape || InvalidReason(*shape, system)) return std::nullopt;
  return shape;
}

}  // namespace orrery::spatial
