#include "api/item_scope.h"

#include "api/headers.h"

namespace orrery::api {

Result<partition::PartitionKeyValue> PointPartitionKey(const RequestContext& ctx,
                                                       const engine::Container& container) {
  const std::string* header = ctx.Header(headers::kPartitionKey);
  // A systemKey (non-partitioned) container takes a point operation without the header
  // as one on its items without a key, [], as the service took those of clients of
  // before partition keys (and the Go SDK sends its empty PartitionKey so).
  if (header == nullptr && container.settings().partition_key.system_key) {
    return partition::PartitionKeyValue();
  }
  if (header == nullptr) {
    return Status::BadRequest(
        "PartitionKey value must be supplied for this operation: send the "
        "x-ms-documentdb-partitionkey header.",
        1001);
  }
  return partition::ParseHeader(*header, container.settings().partition_key, false);
}

Result<ItemScope> ResolveItemScope(const RequestContext& ctx, const engine::Container& container) {
  const engine::ContainerSettings& settings = container.settings();
  ItemScope out;
  if (const std::string* header = ctx.Header(headers::kPartitionKey)) {
    ORRERY_ASSIGN_OR_RETURN(partition::PartitionKeyValue key,
                            partition::ParseHeader(*header, settings.partition_key,
                                                   settings.partition_key.is_hierarchical()));
    std::string epk = partition::EffectivePartitionKey(settings.partition_key, key);
    if (partition::IsFullKey(settings.partition_key, key)) {
      out.scope.exact_epk = epk;
      out.scope.range = engine::EpkRange{epk, epk + "\x01"};
    } else {
      out.scope.range = engine::EpkRange{epk, epk + "FF"};
    }
    out.has_partition_key = true;
  }
  if (const std::string* range_id = ctx.Header(headers::kPartitionKeyRangeId)) {
    const engine::PhysicalPartition* p = settings.partitions.FindById(*range_id);
    if (p == nullptr) {
      return Status::Gone("The partition key range '" + *range_id +
                              "' does not exist in this container (it may have been split).",
                          1002);
    }
    out.scope.range =
        engine::Intersect(out.scope.range, engine::EpkRange{p->min_inclusive, p->max_exclusive});
    out.has_range = true;
  }
  const std::string* start = ctx.Header(headers::kStartEpk);
  const std::string* end = ctx.Header(headers::kEndEpk);
  if (start != nullptr && end != nullptr) {
    out.scope.range =
        engine::Intersect(out.scope.range, engine::EpkRange{*start, end->empty() ? "FF" : *end});
    out.has_range = true;
  }
  return out;
}

}  // namespace orrery::api
