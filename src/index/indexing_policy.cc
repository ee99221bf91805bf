#include "index/indexing_policy.h"

#include <algorithm>
#include <optional>

namespace orrery::index {
namespace {

// Limits of the service (query-language.md §6).
constexpr size_t kMaxPolicyPaths = 1500;
constexpr size_t kMaxCompositeIndexes = 100;
constexpr size_t kMaxCompositePaths = 8;

bool IsAlwaysIndexed(std::span<const std::string> path) {
  return path.size() == 1 && (path[0] == "id" || path[0] == "_ts");
}

std::string Quote(const std::string& text) { return "'" + text + "'"; }

}  // namespace

namespace {

// Splits `text` into `out`; the offset at which it stops being a path, or nullopt.
std::optional<size_t> SplitPathFailure(std::string_view text, PathSegments& out) {
  out.clear();
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] != '/') return i;
    ++i;
    std::string segment;
    if (i < text.size() && text[i] == '"') {
      const size_t close = text.find('"', i + 1);
      if (close == std::string_view::npos) return text.size();
      segment.assign(text.substr(i + 1, close - i - 1));
      i = close + 1;
    } else {
      const size_t slash = std::min(text.find('/', i), text.size());
      segment.assign(text.substr(i, slash - i));
      i = slash;
    }
    if (segment.empty()) return i;
    out.push_back(std::move(segment));
  }
  return std::nullopt;
}

// The service's answer to an included or excluded path it cannot read.
Status PathNotAccepted(const std::string& text, size_t position) {
  return Status::BadRequest("The indexing path '" + text +
                            "' could not be accepted, failed near position '" +
                            std::to_string(position) +
                            "'. Please ensure that the path is a valid path. Common errors "
                            "include invalid characters or absence of quotes around labels.");
}

// The root path: "/*", or "/", which the service takes for it (the index-management
// samples of the SDKs include "/"; index-paths.md: "Default path for collection.
// Recursive and applies to the entire document tree").
bool IsRootPath(std::string_view text) { return text == "/*" || text == "/"; }

}  // namespace

bool SplitPath(std::string_view text, PathSegments& out) {
  return !SplitPathFailure(text, out).has_value();
}

IndexingPolicy::IndexingPolicy() {
  patterns_.push_back(Pattern{{}, true, true});
  patterns_.push_back(Pattern{{"_etag"}, false, false});
}

Status IndexingPolicy::AddPattern(const std::string& text, bool included) {
  if (text == "/") {
    patterns_.push_back(Pattern{{}, true, included});
    return Status::Ok();
  }
  PathSegments segments;
  if (std::optional<size_t> failed = SplitPathFailure(text, segments)) {
    return PathNotAccepted(text, *failed);
  }
  if (segments.empty()) return PathNotAccepted(text, 0);
  const std::string last = segments.back();
  if (last != "?" && last != "*") return PathNotAccepted(text, text.size());
  segments.pop_back();
  size_t offset = 0;
  for (const std::string& segment : segments) {
    offset = text.find(segment, offset) + segment.size();
    if (segment == "*" || segment == "?") return PathNotAccepted(text, offset);
  }
  const bool wildcard = last == "*";
  if (included && !wildcard &&
      std::none_of(segments.begin(), segments.end(), [](const auto& s) { return s == "[]"; })) {
    explicit_scalar_.push_back(segments);
  }
  patterns_.push_back(Pattern{std::move(segments), wildcard, included});
  return Status::Ok();
}

Status IndexingPolicy::ParseComposites(const json::Value& list) {
  if (list.as_array().size() > kMaxCompositeIndexes) {
    return Status::BadRequest("An indexing policy may have at most 100 composite indexes.");
  }
  for (const json::Value& index : list.as_array()) {
    if (!index.is_array() || index.as_array().size() < 2 ||
        index.as_array().size() > kMaxCompositePaths) {
      return Status::BadRequest(
          "Each composite index must be a list of 2 to 8 paths such as "
          "[{\"path\": \"/name\", \"order\": \"ascending\"}, {\"path\": \"/age\"}].");
    }
    CompositeIndex composite;
    for (const json::Value& entry : index.as_array()) {
      const json::Value* path = entry.is_object() ? entry.Find("path") : nullptr;
      PathSegments segments;
      if (path == nullptr || !path->is_string() || !SplitPath(path->as_string(), segments) ||
          segments.empty()) {
        return Status::BadRequest(
            "A composite index path must be a string such as \"/name\" naming a document "
            "property.");
      }
      for (const std::string& segment : segments) {
        if (segment == "*" || segment == "?" || segment == "[]") {
          return Status::BadRequest("The composite index path " + Quote(path->as_string()) +
                                    " must name one scalar property: no '*', '?' or '[]'.");
        }
      }
      bool descending = false;
      if (const json::Value* order = entry.Find("order"); order && !order->is_null()) {
        if (!order->is_string() ||
            (order->as_string() != "ascending" && order->as_string() != "descending")) {
          return Status::BadRequest("The order of composite index path " +
                                    Quote(path->as_string()) +
                                    " must be \"ascending\" or \"descending\".");
        }
        descending = order->as_string() == "descending";
      }
      composite.paths.push_back(CompositePath{std::move(segments), descending});
    }
    composites_.push_back(std::move(composite));
  }
  return Status::Ok();
}

Result<IndexingPolicy> IndexingPolicy::Parse(const json::Value& policy) {
  IndexingPolicy out;
  out.patterns_.clear();
  const json::Value* mode = policy.Find("indexingMode");
  if (mode != nullptr && mode->is_string() && mode->as_string() == "none") {
    out.mode_ = IndexingMode::kNone;
  }
  if (const json::Value* automatic = policy.Find("automatic");
      automatic != nullptr && !automatic->is_null()) {
    if (!automatic->is_bool()) {
      return Status::BadRequest("The indexing policy's automatic must be true or false.");
    }
    out.automatic_ = automatic->as_bool();
  }
  if (out.mode_ == IndexingMode::kNone && out.automatic_ && policy.Find("automatic") != nullptr) {
    return Status::BadRequest(
        "Indexing mode value cannot be 'none' when automatic indexing is specified as 'true'.");
  }
  const json::Value* included = policy.Find("includedPaths");
  const json::Value* excluded = policy.Find("excludedPaths");
  size_t count = 0;
  bool has_root = false;
  for (const auto& [list, is_included] : {std::pair{included, true}, std::pair{excluded, false}}) {
    if (list == nullptr || !list->is_array()) continue;
    count += list->as_array().size();
    for (const json::Value& entry : list->as_array()) {
      const json::Value* path = entry.is_object() ? entry.Find("path") : nullptr;
      if (path == nullptr || !path->is_string()) {
        return Status::BadRequest(
            "Each entry of includedPaths and excludedPaths must be an object with a string "
            "\"path\", such as {\"path\": \"/*\"}.");
      }
      ORRERY_RETURN_IF_ERROR(out.AddPattern(path->as_string(), is_included));
      has_root = has_root || IsRootPath(path->as_string());
    }
  }
  if (count > kMaxPolicyPaths) {
    return Status::BadRequest(
        "An indexing policy may list at most 1500 included and excluded paths.");
  }
  if (out.mode_ == IndexingMode::kConsistent && !has_root) {
    return Status::BadRequest(
        "The special mandatory indexing path \"/\" is not provided in any of the path type "
        "sets. Please provide this path in one of the sets.");
  }
  if (out.mode_ == IndexingMode::kNone && count > 0) {
    return Status::BadRequest(
        "An indexing policy with indexingMode 'none' cannot have included or excluded paths.");
  }
  if (const json::Value* composites = policy.Find("compositeIndexes");
      composites && composites->is_array()) {
    ORRERY_RETURN_IF_ERROR(out.ParseComposites(*composites));
  }
  ORRERY_ASSIGN_OR_RETURN(out.spatial_, ParseSpatialIndexes(policy.Find("spatialIndexes")));
  // Their rules belong to the fullTextPolicy they must match (FullTextPolicy::Parse);
  // here only the paths that have entries.
  if (const json::Value* full_text = policy.Find("fullTextIndexes");
      full_text && full_text->is_array()) {
    for (const json::Value& index : full_text->as_array()) {
      const json::Value* path = index.is_object() ? index.Find("path") : nullptr;
      PathSegments segments;
      if (path != nullptr && path->is_string() && SplitPath(path->as_string(), segments) &&
          !segments.empty()) {
        out.full_text_.push_back(std::move(segments));
      }
    }
  }
  return out;
}

bool IndexingPolicy::HasFullTextIndex(std::span<const std::string> path) const {
  return mode_ == IndexingMode::kConsistent &&
         std::any_of(full_text_.begin(), full_text_.end(), [&](const PathSegments& indexed) {
           return std::equal(indexed.begin(), indexed.end(), path.begin(), path.end());
         });
}

bool IndexingPolicy::HasSpatialIndex(std::span<const std::string> path) const {
  return mode_ == IndexingMode::kConsistent &&
         std::any_of(spatial_.begin(), spatial_.end(),
                     [&](const SpatialIndex& index) { return !index.box && index.Covers(path); });
}

const SpatialIndex* IndexingPolicy::GeometryIndexFor(std::span<const std::string> path) const {
  if (mode_ != IndexingMode::kConsistent) return nullptr;
  for (const SpatialIndex& index : spatial_) {
    if (index.box && index.Covers(path)) return &index;
  }
  return nullptr;
}

bool IndexingPolicy::IsIndexed(std::span<const std::string> path) const {
  if (mode_ != IndexingMode::kConsistent) return false;
  if (IsAlwaysIndexed(path)) return true;
  // The most precise matching pattern decides: the longer prefix, and at equal length
  // an exact `/?` over a `/*` (index-policy: "the more precise path wins").
  int best_rank = -1;
  bool indexed = false;
  for (const Pattern& pattern : patterns_) {
    const size_t n = pattern.prefix.size();
    if (pattern.wildcard ? path.size() < n : path.size() != n) continue;
    if (!std::equal(pattern.prefix.begin(), pattern.prefix.end(), path.begin())) continue;
    const int rank = static_cast<int>(n) * 2 + (pattern.wildcard ? 0 : 1);
    if (rank > best_rank || (rank == best_rank && !pattern.included)) {
      best_rank = rank;
      indexed = pattern.included;
    }
  }
  // A computed property is indexed only by a path that names it: the root wildcard
  // (rank 0) does not reach it.
  if (indexed && !path.empty() && IsComputedProperty(path[0]) && best_rank < 2) return false;
  return indexed;
}

bool IndexingPolicy::IsComputedProperty(std::string_view name) const {
  return std::find(computed_.begin(), computed_.end(), name) != computed_.end();
}

}  // namespace orrery::index
