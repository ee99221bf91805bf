#include <chrono>

#include "api/auth.h"
#include "api/change_feed.h"
#include "api/data_plane.h"
#include "api/feed.h"
#include "api/headers.h"
#include "api/item_scope.h"
#include "api/response.h"
#include "common/decimal_integer.h"
#include "engine/throughput/cost_model.h"

namespace orrery::api {
namespace {

// `"21"` (the etag of an earlier page) -> 21. Errors: BadRequest.
Result<uint64_t> LsnOfEtag(std::string_view etag) {
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') {
    etag = etag.substr(1, etag.size() - 2);
  }
  const std::optional<int64_t> lsn = ParseDecimalInteger(etag);
  if (!lsn || *lsn < 0) {
    return Status::BadRequest("The change feed continuation (If-None-Match) '" + std::string(etag) +
                              "' was not issued by this server.");
  }
  return static_cast<uint64_t>(*lsn);
}

}  // namespace

HandlerResult HandleChangeFeed(const RequestContext& ctx, const engine::Container& container) {
  const std::string* mode = ctx.Header(headers::kAIm);
  if (*mode != "Incremental Feed" && *mode != "incremental feed") {
    return Status::BadRequest("The change feed mode '" + *mode +
                              "' is not supported: Orrery serves the latest-version mode "
                              "(A-IM: Incremental Feed).");
  }
  ORRERY_ASSIGN_OR_RETURN(ItemScope scope, ResolveItemScope(ctx, container));
  ORRERY_ASSIGN_OR_RETURN(int max_items, MaxItemCount(ctx));
  uint64_t after = 0;
  if (const std::string* if_none_match = ctx.Header(headers::kIfNoneMatch)) {
    if (*if_none_match == "*") {
      after = container.StableLsn();
    } else {
      ORRERY_ASSIGN_OR_RETURN(after, LsnOfEtag(*if_none_match));
    }
  }
  std::optional<int64_t> since;
  if (const std::string* text = ctx.Header(headers::kIfModifiedSince)) {
    // Go's azcosmos formats StartFrom with time.RFC1123, whose zone of a UTC time is "UTC"
    // rather than "GMT"; the service takes both.
    std::string date = *text;
    if (date.size() == 29 && date.compare(26, 3, "UTC") == 0) date.replace(26, 3, "GMT");
    auto when = ParseRfc1123(date);
    if (!when) {
      return Status::BadRequest(
          "If-Modified-Since must be an RFC 1123 date, e.g. "
          "'Wed, 02 Dec 2026 15:30:48 GMT'.");
    }
    since = std::chrono::duration_cast<std::chrono::seconds>(when->time_since_epoch()).count();
  }
  ORRERY_RETURN_IF_ERROR(container.AdmitScope(scope.scope, ctx.request_class));
  ORRERY_ASSIGN_OR_RETURN(engine::Container::ChangeFeedPage changes,
                          container.ReadChangeFeed(scope.scope, after, since, max_items));
  const std::string etag = "\"" + std::to_string(changes.last_lsn) + "\"";
  // ru-model.md row 20: ~1 RU for a poll that finds nothing, a page with items like a
  // query returning them.
  http::Response response;
  ORRERY_ASSIGN_OR_RETURN(const double charge,
                          ReadCharge(ctx, throughput::ChangeFeedCharge(changes.documents.size(),
                                                                       changes.loaded_bytes)));
  container.ChargeScope(scope.scope, charge, ctx.request_class);
  if (changes.documents.empty()) {
    ResponseBuilder builder(304, ctx.activity_id);
    builder.Charge(charge);
    response = std::move(builder).Build();
  } else {
    engine::FeedPage page;
    page.documents = std::move(changes.documents);
    page.loaded_bytes = changes.loaded_bytes;
    page.loaded_count = page.documents.size();
    response = FeedResponse(ctx, container.settings().rid, "Documents", page, charge);
  }
  response.headers.push_back({headers::kEtag, etag});
  response.headers.push_back({headers::kLsn, std::to_string(changes.last_lsn)});
  response.headers.push_back(
      {headers::kSessionToken, ScopeSessionToken(ctx, container, scope.scope)});
  response.headers.push_back({headers::kContentPath, container.settings().rid});
  response.headers.push_back({headers::kAltContentPath, AltContentPath(container.settings())});
  return response;
}

}  // namespace orrery::api
