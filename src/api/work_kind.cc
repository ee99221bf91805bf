#include "api/work_kind.h"

#include <array>
#include <string_view>

#include "api/headers.h"
#include "api/resource_path.h"
#include "common/encoding.h"

namespace orrery::api {
namespace {

// Up to the first four segments of the target's path and how many there are, without
// decoding: only their count and the literal names (dbs, colls, docs) matter here.
struct PathShape {
  std::array<std::string_view, 5> segments;
  size_t count = 0;
};

PathShape ShapeOf(std::string_view target) {
  target = target.substr(0, target.find('?'));
  PathShape shape;
  while (!target.empty()) {
    const size_t slash = target.find('/');
    const std::string_view segment = target.substr(0, slash);
    if (!segment.empty()) {
      if (shape.count < shape.segments.size()) shape.segments[shape.count] = segment;
      ++shape.count;
    }
    if (slash == std::string_view::npos) break;
    target.remove_prefix(slash + 1);
  }
  return shape;
}

bool HeaderIsTrue(const http::Request& request, const char* name) {
  const std::string* value = request.FindHeader(name);
  return value != nullptr && EqualsIgnoreCase(*value, "true");
}

bool IsQuery(const http::Request& request) {
  const std::string* type = request.FindHeader(headers::kContentType);
  return HeaderIsTrue(request, headers::kIsQuery) ||
         (type != nullptr && type->starts_with("application/query+json"));
}

}  // namespace

http::WorkKind ClassifyWork(const http::Request& request, const WorkKindOptions& options) {
  const PathShape path = ShapeOf(request.target);
  if (path.count == 0) return http::WorkKind::kInline;  // the account read
  // Statistics, sizes, splits and compaction read or rewrite whole containers.
  if (path.segments[0] == kAdminRoot) return http::WorkKind::kLong;
  const bool read = request.method == "GET" || request.method == "HEAD";
  const bool item_feed =
      path.count == 5 && path.segments[2] == "colls" && path.segments[4] == "docs";
  const bool item = (path.count == 5 || path.count == 6) && path.segments[2] == "colls" &&
                    path.segments[4] == "docs";
  if (read) {
    // A read feed or change feed of items scans; everything else read is one lookup.
    return item_feed ? http::WorkKind::kLong : http::WorkKind::kInline;
  }
  if (request.method == "POST" && IsQuery(request)) {
    // The query plan is parsed and planned, not run; a query of metadata resources
    // (databases, containers, offers) reads the small in-memory catalog.
    if (HeaderIsTrue(request, headers::kIsQueryPlanRequest)) return http::WorkKind::kInline;
    return item_feed ? http::WorkKind::kLong : http::WorkKind::kInline;
  }
  if (item) {
    // A write that names a trigger runs JavaScript.
    if (request.FindHeader(headers::kPreTriggerInclude) != nullptr ||
        request.FindHeader(headers::kPostTriggerInclude) != nullptr) {
      return http::WorkKind::kLong;
    }
    return options.item_writes_sync ? http::WorkKind::kBlocking : http::WorkKind::kInline;
  }
  // A stored procedure's execution runs JavaScript for up to 5 s.
  if (request.method == "POST" && path.count == 6 && path.segments[2] == "colls" &&
      path.segments[4] == "sprocs") {
    return http::WorkKind::kLong;
  }
  // Database, container and offer writes are synced whatever --sync-writes says.
  return http::WorkKind::kBlocking;
}

}  // namespace orrery::api
