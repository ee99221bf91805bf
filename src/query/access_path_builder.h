#pragma once

// Derives a bound query's AccessShape (access_path.h). Internal to src/query/.

#include "query/access_path.h"
#include "query/binder.h"

namespace orrery::query {

AccessShape BuildAccessShape(const BoundQuery& bound);

}  // namespace orrery::query
