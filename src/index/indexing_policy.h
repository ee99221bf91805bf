#pragma once

// A container's indexing policy (query-language.md §9.1), parsed from the JSON the
// client sent: which document paths get range-index entries, and which composite
// indexes exist. Immutable; shared by writers (which paths to index) and the query
// planner (which lookups it may use).
//
// Paths are lists of segments from the document root; an array-element step is the
// segment "[]" (the policy syntax `/tags/[]/name/?`).

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "index/spatial_index_policy.h"
#include "json/value.h"

namespace orrery::index {

using PathSegments = std::vector<std::string>;

enum class IndexingMode { kConsistent, kNone };

struct CompositePath {
  PathSegments path;
  bool descending = false;
};

struct CompositeIndex {
  std::vector<CompositePath> paths;
};

class IndexingPolicy {
 public:
  // The service's default: consistent, everything under `/*` except `/"_etag"/?`.
  IndexingPolicy();

  // Validates and parses an indexing policy object (already normalized: indexingMode
  // is lower case). Errors: BadRequest naming the offending path or member.
  static Result<IndexingPolicy> Parse(const json::Value& policy);

  IndexingMode mode() const { return mode_; }
  bool enabled() const { return mode_ == IndexingMode::kConsistent; }
  // The policy's `automatic` (default true): whether an item written without an
  // x-ms-indexing-directive goes into the index. With false, only items written with
  // the directive Include do.
  bool automatic() const { return automatic_; }

  // Whether the value at `path` (a scalar, or the type marker of an array or object)
  // has range-index entries. `id` and `_ts` always do, whatever the policy says.
  bool IsIndexed(std::span<const std::string> path) const;

  // Paths included explicitly as `/path/?` (no wildcard, no array step): documents
  // where they are undefined get an "undefined" entry, which lets ORDER BY ASC stream
  // the undefined items first (query-language.md §9.1 "Undefined values").
  const std::vector<PathSegments>& explicit_scalar_paths() const { return explicit_scalar_; }

  const std::vector<CompositeIndex>& composite_indexes() const { return composites_; }

  // The container's computed properties (top-level names). The wildcard `/*` does not
  // index them: only a path that names one (`/cp_lowerName/?`) does (Microsoft's
  // "Computed properties" page, "Indexing"). A stored member of the same name is not
  // indexed at all: the name means the computed value.
  void set_computed_properties(std::vector<std::string> names) { computed_ = std::move(names); }
  bool IsComputedProperty(std::string_view name) const;

  const std::vector<SpatialIndex>& spatial_indexes() const { return spatial_; }
  // Whether GeoJSON at `path` has geographic spatial-index entries (spatial_terms.h).
  bool HasSpatialIndex(std::span<const std::string> path) const;
  // The Geometry spatial index whose grid holds the entries of GeoJSON at `path`: the
  // first that covers it (spatial_terms.h), or null.
  const SpatialIndex* GeometryIndexFor(std::span<const std::string> path) const;

  // The paths of fullTextIndexes (validated with the container's fullTextPolicy,
  // query/full_text_policy.h): each has an inverted index of its words' stems
  // (engine/full_text_index.h).
  const std::vector<PathSegments>& full_text_paths() const { return full_text_; }
  bool HasFullTextIndex(std::span<const std::string> path) const;

 private:
  struct Pattern {
    PathSegments prefix;
    bool wildcard = false;  // `/*`: the prefix and everything below; else `/?`: exactly it
    bool included = false;
  };

  // Appends the pattern for `text` (`/a/b/?`, `/a/*`, `/*`). Errors: BadRequest.
  Status AddPattern(const std::string& text, bool included);
  Status ParseComposites(const json::Value& list);

  IndexingMode mode_ = IndexingMode::kConsistent;
  bool automatic_ = true;
  std::vector<Pattern> patterns_;
  std::vector<PathSegments> explicit_scalar_;
  std::vector<CompositeIndex> composites_;
  std::vector<std::string> computed_;
  std::vector<SpatialIndex> spatial_;
  std::vector<PathSegments> full_text_;
};

// Splits a policy or partition-key path (`/a/"b c"/[]/d`) into segments; the quotes
// of a quoted segment are removed. Returns false on an empty segment.
bool SplitPath(std::string_view text, PathSegments& out);

}  // namespace orrery::index
