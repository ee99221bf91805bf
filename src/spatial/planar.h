#pragma once

// Measurements between valid shapes (geojson.h) in a flat (Euclidean) coordinate
// system, as the service's geometry type computes them for containers whose
// geospatialConfig type is "Geometry": distances in coordinate units, areas in their
// squares. A ring's direction does not matter.

#include "spatial/geojson.h"

namespace orrery::spatial::planar {

// Shortest distance; 0 when the shapes meet.
double Distance(const Shape& a, const Shape& b);

// `inner` lies within `outer` (a Polygon or MultiPolygon; false for other outers).
bool Within(const Shape& inner, const Shape& outer);

// The shapes share at least one point.
bool Intersects(const Shape& a, const Shape& b);

// Area of a Polygon or MultiPolygon; 0 for points and lines.
double Area(const Shape& shape);

}  // namespace orrery::spatial::planar
