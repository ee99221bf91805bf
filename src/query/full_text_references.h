#pragma once

// Gives each FullTextContains / FullTextContainsAll / FullTextContainsAny call the
// language of the path it searches, from the container's fullTextPolicy (its path's
// language, else the policy's default): a call on a path of another language than
// en-US becomes its "_"-named twin with the language as first argument, so the query
// text derived from it (a query plan's per-range queries) analyzes the same anywhere.

#include "query/binder.h"
#include "query/full_text_policy.h"

namespace orrery::query {

// `policy` may be null (every path is en-US).
void ResolveFullTextLanguages(BoundQuery& bound, const FullTextPolicy* policy);

}  // namespace orrery::query
