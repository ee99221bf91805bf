#pragma once

// Resolving udf.<name>(...) calls to a container's user-defined functions
// (server-side-scripts.md §5), and evaluating them.

#include <string_view>

#include "common/status.h"
#include "query/binder.h"
#include "query/evaluator.h"
#include "query/query.h"

namespace orrery::query {

// The service's limit on user-defined function references in one query.
inline constexpr size_t kMaxUserFunctionReferences = 10;

// Points each udf call of `bound` at its function of `udfs` (null: leaves them
// unresolved). Errors: BadRequest for a function the container lacks, and for more than
// kMaxUserFunctionReferences references.
Status ResolveUserFunctions(std::string_view text, BoundQuery& bound, const UserFunctions* udfs);

// A call's value: undefined when it is unresolved or an argument is undefined (the
// service skips the call); a function that throws records its error in frame.error.
Cell EvaluateUserFunction(const ast::CallExpr& call, const Frame& frame);

}  // namespace orrery::query
