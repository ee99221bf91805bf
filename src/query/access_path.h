#pragma once

// What of a query an index can serve (query-language.md §9.2), in terms of document
// paths, for the planner in the engine: the WHERE conjuncts that are index seeks or
// precise scans, and the ORDER BY keys. Every predicate listed is a necessary
// condition of WHERE, so the items it selects are a superset of the result; the
// executor still evaluates the whole WHERE on each item it loads.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json/value.h"
#include "spatial/geojson.h"

namespace orrery::query {

// Path segments from the item root; "[]" is an array-element step.
using DocumentPath = std::vector<std::string>;

// Whether the path steps into array elements: several values per item, one index entry
// for each distinct one.
inline bool ThroughArrayElements(const DocumentPath& path) {
  for (const std::string& segment : path) {
    if (segment == "[]") return true;
  }
  return false;
}

struct PathPredicate {
  // kSpatial: ST_DISTANCE below a bound, ST_WITHIN or ST_INTERSECTS against a constant
  // region (spatial_access.h); `path` ends in spatial::kCellPathSegment.
  // kFullText: FullTextContains, FullTextContainsAll or FullTextContainsAny on the text
  // at `path` with constant string terms (`terms`); the engine stems them in the path's
  // language and reads the full-text index's entries of one stem of each term (any
  // term: `any_term`) or of one stem of any of them (all terms must match).
  enum class Kind { kEqual, kRange, kPrefix, kSpatial, kFullText };
  Kind kind = Kind::kEqual;
  DocumentPath path;
  std::vector<json::Value> values;  // kEqual: any of these scalars (one, or an IN list)
  std::optional<json::Value> low;   // kRange: number or string bounds of one type
  bool low_inclusive = false;
  std::optional<json::Value> high;
  bool high_inclusive = false;
  std::string prefix;  // kPrefix: case-sensitive STARTSWITH
  // kSpatial: inclusive ranges of cell numbers that hold every candidate.
  std::vector<std::pair<int64_t, int64_t>> cells;
  // kSpatial in a Geometry container: the region and the distance from it within which
  // items match. Its cells depend on the index's boundingBox, so the engine finds them
  // (`cells` stays empty here).
  std::optional<spatial::Shape> planar_region;
  double planar_margin = 0;
  std::vector<std::string> terms;  // kFullText
  bool any_term = false;           // kFullText: FullTextContainsAny
};

struct OrderKey {
  DocumentPath path;
  bool descending = false;
};

struct AccessShape {
  std::vector<PathPredicate> predicates;
  // The ORDER BY keys when every key is a path of the item, or the one key is the alias
  // of a JOIN over an item's array or a path below it (a/[] or a/[]/x: the rows of an
  // item are then as many as its elements, each sorted by its element's value).
  std::vector<OrderKey> order_by;
  // How many ORDER BY keys the query has (order_by is empty when one is not an item
  // path, e.g. a JOIN alias).
  size_t order_by_keys = 0;
  // Rows come one per item in ORDER BY order, so a per-partition stream of items in
  // index order, cut after N rows, holds the first N rows of the result: no JOIN,
  // aggregate, GROUP BY or DISTINCT. Or, ordered by a JOIN alias over an array, the rows
  // of an item whose element has the value of an index entry, at that entry.
  bool order_by_streams = false;
  // GROUP BY whose keys include an item path, or DISTINCT of an item path (`SELECT
  // DISTINCT VALUE c.a`, `SELECT DISTINCT c.a, LOWER(c.b)`), without ORDER BY: the first
  // such path. The result (before OFFSET, LIMIT and TOP) is, for each value of this path
  // in ORDER BY order (undefined first), what CompiledQuery::FinishUnpaged makes of the
  // rows of the items with that value (rows of different values differ in that key). So
  // an index on the path yields the result a value at a time.
  // Also DISTINCT with one ORDER BY key that is one of the distinct item paths (`SELECT
  // DISTINCT VALUE c.a FROM c ORDER BY c.a DESC`, and the SDK's rewrite of it): then the
  // values come in the key's direction (`grouped_descending`).
  std::optional<DocumentPath> grouped_by;
  bool grouped_descending = false;
  // Whether items kept out of the index (x-ms-indexing-directive: Exclude, or a policy
  // with automatic: false) belong in the result: they are reached "through their
  // self-links or through the queries by using the ID of the item" (the service's
  // indexing-policy docs), so only by a query over one source whose WHERE reads no
  // path but the id, without ORDER BY.
  bool reaches_unindexed_items = false;
};

}  // namespace orrery::query
