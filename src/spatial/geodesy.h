#pragma once

// Measurements between valid shapes (geojson.h) on the WGS-84 ellipsoid, as the
// service's geography type computes them: distances in metres, areas in square metres.
// Edges are great elliptic arcs measured by the service's own quadrature (README.md), not
// geodesics. Within and intersects still take geodesic edges, which part from those arcs
// by some 300 m midway along a 1,500 km edge. A polygon whose exterior ring runs
// clockwise is the rest of the globe (the service's left-hand rule, query-language.md
// §5.10).
//
// The implementation is the only includer of Boost.Geometry (a heavy header). Inputs
// Boost.Geometry cannot handle give NaN (distance, area) or false.

#include "spatial/geojson.h"

namespace orrery::spatial {

// Shortest distance in metres; 0 when the shapes meet.
double DistanceMetres(const Shape& a, const Shape& b);

// `inner` lies within `outer` (a Polygon or MultiPolygon; false for other outers).
bool Within(const Shape& inner, const Shape& outer);

// The shapes share at least one point.
bool Intersects(const Shape& a, const Shape& b);

// The polygon's exterior ring runs clockwise, so it stands for the rest of the globe.
bool IsInverted(const PolygonRings& polygon);

// Area in square metres of a Polygon or MultiPolygon; 0 for points and lines.
double AreaSquareMetres(const Shape& shape);

}  // namespace orrery::spatial
