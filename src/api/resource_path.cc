#include "api/resource_path.h"

#include "common/encoding.h"

namespace orrery::api {
namespace {

// The JavaScript SDK builds item URLs with encodeURI, which leaves '?' as it is, and
// signs the id unencoded: "/dbs/d/colls/c/docs/a?b" is the item "a?b", not the item
// "a" with a query string. The service's REST API puts no query string on an item, and
// only an item id may contain '?' (the SDKs refuse it in other ids), so a '?' that
// falls in the item id segment of a docs path belongs to the id.
bool QuestionMarkIsInItemId(std::string_view target, size_t question) {
  if (target.find('/', question) != std::string_view::npos) return false;
  std::string_view before = target.substr(0, question);
  while (!before.empty() && before.front() == '/') before.remove_prefix(1);
  // The '?' is in the sixth segment: dbs/{db}/colls/{coll}/docs/{id}.
  size_t slashes = 0;
  size_t docs_start = 0;
  for (size_t i = 0; i < before.size(); ++i) {
    if (before[i] != '/') continue;
    if (++slashes == 4) docs_start = i + 1;
  }
  if (slashes != 5) return false;
  return before.substr(docs_start).starts_with("docs/");
}

}  // namespace

bool IsContainerOperation(const ResourcePath& path) {
  const auto& s = path.segments;
  return s.size() == 6 && s[0] == "dbs" && s[2] == "colls" && s[4] == "operations";
}

Result<ResourcePath> ParseResourcePath(std::string_view target) {
  size_t question = target.find('?');
  std::string_view path =
      question != std::string_view::npos && !QuestionMarkIsInItemId(target, question)
          ? target.substr(0, question)
          : target;
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);

  ResourcePath out;
  // dbs/{db}/colls/{coll}/docs/{id} and the like: one allocation for every request's
  // segments and link rather than the vector's and the link's growth steps.
  out.segments.reserve(8);
  out.resource_link.reserve(path.size());
  while (!path.empty()) {
    size_t slash = path.find('/');
    std::string_view raw = path.substr(0, slash);
    std::optional<std::string> segment = PercentDecode(raw);
    if (!segment || segment->empty()) {
      return Status::BadRequest("The resource path '" + std::string(target) + "' is not valid.");
    }
    out.segments.push_back(std::move(*segment));
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
  }

  const auto& s = out.segments;
  if (s.empty()) {
    return out;  // the account: type "" and link ""
  }
  if (s[0] == "offers") {
    // Offers sign the lowercased offer id with no prefix (wire-protocol.md §3.1).
    out.resource_type = "offers";
    out.is_feed = s.size() == 1;
    out.resource_link = s.size() >= 2 ? LowerAscii(s[1]) : "";
    return out;
  }
  if (s[0] == kAdminRoot) {
    // Orrery's own admin calls sign the type "_orrery" and their whole path.
    out.resource_type = kAdminRoot;
    for (size_t i = 0; i < s.size(); ++i) {
      if (i > 0) out.resource_link += '/';
      out.resource_link += s[i];
    }
    return out;
  }
  out.is_feed = s.size() % 2 == 1;
  out.resource_type = out.is_feed ? s.back() : s[s.size() - 2];
  size_t link_segments = out.is_feed ? s.size() - 1 : s.size();
  // An operation on a container (dbs/{db}/colls/{c}/operations/partitionkeydelete) is
  // signed as the container itself: type colls, the container's link.
  if (IsContainerOperation(out)) {
    out.resource_type = "colls";
    link_segments = 4;
  }
  for (size_t i = 0; i < link_segments; ++i) {
    if (i > 0) out.resource_link += '/';
    out.resource_link += s[i];
  }
  return out;
}

}  // namespace orrery::api
