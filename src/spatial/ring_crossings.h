#pragma once

// Whether a polygon's rings cross: a ring that intersects itself (a bow tie) or another
// ring of the same polygon makes the polygon invalid, as in the service's geography
// type. Kept apart from geojson.h so that only this file and geodesy.cc pay for the
// Boost.Geometry headers.

#include <cstddef>
#include <optional>

#include "spatial/geojson.h"

namespace orrery::spatial {

// The 1-based number of the first ring that crosses itself or a later ring of
// `polygon`, or nullopt when none does. Rings must be closed (RingReason's checks come
// first); rings that only touch at a vertex are allowed.
std::optional<size_t> FirstCrossingRing(const PolygonRings& polygon,
                                        CoordinateSystem system = CoordinateSystem::kGeography);

}  // namespace orrery::spatial
