#pragma once

// In a container whose geospatialConfig type is "Geometry", the spatial functions
// measure in the plane: each ST_ call becomes its "_"-named geometry twin
// (functions_spatial.cc), so that evaluation needs no container at hand.

#include "query/binder.h"

namespace orrery::query {

void ResolveGeometryFunctions(BoundQuery& bound);

}  // namespace orrery::query
