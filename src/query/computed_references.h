#pragma once

// Resolves a query's references to computed properties: `c.cp_lowerName`, where `c` is
// the alias of the root item, reads the computed value rather than a stored member.
// Only property steps on the root alias resolve; `SELECT *`, `SELECT VALUE c` and point
// reads give the item as stored, without computed properties (Microsoft: "wildcard
// projections don't include computed properties"). The reference stays a property path,
// so ORDER BY accepts it, SELECT names it after the property, and the index planner
// looks it up under `/cp_lowerName` like any top-level path.

#include "query/binder.h"
#include "query/computed_properties.h"

namespace orrery::query {

// Annotates PropertyExpr::computed throughout `bound` (subqueries included).
void ResolveComputedReferences(BoundQuery& bound, const ComputedProperties& computed);

}  // namespace orrery::query
