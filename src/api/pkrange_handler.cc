#include <algorithm>
#include <limits>

#include "api/data_plane.h"
#include "api/feed.h"
#include "api/handlers.h"
#include "api/headers.h"
#include "common/decimal_integer.h"
#include "engine/resource_id.h"
#include "engine/throughput/cost_model.h"
#include "json/json.h"

namespace orrery::api {

// The pkranges feed (wire-protocol.md §10.1): a gap-free cover of "" .. "FF".
HandlerResult HandlePartitionKeyRanges(const RequestContext& ctx) {
  if (ctx.request.method != "GET") {
    return Status::MethodNotAllowed("The partition key ranges feed supports GET only.");
  }
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<engine::Container> container, OwnerContainer(ctx));
  const engine::ContainerSettings& settings = container->settings();
  const auto& partitions = settings.partitions.partitions();
  // The etag is the next partition number: partitions are numbered in the order splits
  // create them, so an incremental read (wire-protocol.md §10.2) returns those numbered
  // from the etag it sends on (the children of splits since, which list their parents).
  const uint32_t next = settings.partitions.NextNumber();
  const std::string etag = "\"" + std::to_string(next) + "\"";
  const std::string* if_none_match = ctx.Header(headers::kIfNoneMatch);
  const std::string* a_im = ctx.Header(headers::kAIm);
  uint32_t newer_than = 0;
  if (a_im != nullptr && if_none_match != nullptr) {
    std::string known = *if_none_match;
    known.erase(std::remove(known.begin(), known.end(), '"'), known.end());
    // An etag this server did not issue reads the whole feed, as a first read does.
    const std::optional<int64_t> number = ParseDecimalInteger(known);
    if (number && *number >= 0 && *number <= std::numeric_limits<uint32_t>::max()) {
      newer_than = static_cast<uint32_t>(*number);
    }
  }
  if (a_im != nullptr && if_none_match != nullptr && newer_than >= next) {
    // Incremental refresh with nothing new (wire-protocol.md §10.2).
    http::Response response;
    response.status = 304;
    response.headers = {{headers::kActivityId, ctx.activity_id},
                        {headers::kRequestCharge, "1"},
                        {headers::kEtag, etag}};
    return response;
  }
  engine::FeedPage page;
  const double fraction = 1.0 / static_cast<double>(partitions.size());
  for (const auto& p : partitions) {
    if (p.number < newer_than) continue;
    std::string rid = engine::PartitionKeyRangeRid(settings.rid, p.number);
    json::Array parents;
    for (const auto& parent : p.parents) parents.push_back(json::Value::String(parent));
    json::Value range = json::Value::MakeObject({
        {"_rid", json::Value::String(rid)},
        {"id", json::Value::String(p.id)},
        {"_etag", json::Value::String("\"00000000-0000-0000-0000-00000000000" +
                                      std::to_string(p.number % 10) + "\"")},
        {"minInclusive", json::Value::String(p.min_inclusive)},
        {"maxExclusive", json::Value::String(p.max_exclusive)},
        {"ridPrefix", json::Value::Int(p.number)},
        {"_self", json::Value::String(settings.self + "pkranges/" + rid + "/")},
        {"throughputFraction", json::Value::Double(fraction)},
        {"status", json::Value::String("online")},
        {"parents", json::Value::MakeArray(std::move(parents))},
        {"ownedArchivalPKRangeIds", json::Value::MakeArray()},
        {"_ts",
         settings.resource.Find("_ts") ? *settings.resource.Find("_ts") : json::Value::Int(0)},
        {"_lsn", json::Value::Int(1)},
    });
    page.documents.push_back(json::Write(range));
  }
  http::Response response =
      FeedResponse(ctx, settings.rid, "PartitionKeyRanges", page, throughput::kMetadataReadCharge);
  response.headers.push_back({headers::kEtag, etag});
  return response;
}

}  // namespace orrery::api
