// POST dbs/{db}/colls/{c}/operations/partitionkeydelete with the partition key header:
// the SDKs' "delete all items by partition key" (Python delete_all_items_by_partition_key,
// Java deleteAllItemsByPartitionKey, JS deleteAllItemsForPartitionKey). The service
// answers 200 with no body at once and deletes in the background
// (engine/container_partition_delete.cc); the items are gone for everyone meanwhile.

#include "api/data_plane.h"
#include "api/handlers.h"
#include "api/headers.h"
#include "api/item_scope.h"
#include "api/response.h"
#include "engine/throughput/cost_model.h"

namespace orrery::api {
namespace {

constexpr int kPartitionKeyMismatch = 1001;

// how-to-delete-by-partition-key.md: with hierarchical keys, "attempting to delete using
// intermediate partition keys ... results in an error": the full key only.
Status CheckFullKey(const partition::PartitionKeyValue& key,
                    const partition::PartitionKeyDefinition& definition) {
  if (!definition.is_hierarchical() || key.size() == definition.paths.size()) return Status::Ok();
  return Status::BadRequest(
      "Deleting items by partition key needs the full partition key: this container's "
      "hierarchical key has " +
          std::to_string(definition.paths.size()) + " levels, the request gave " +
          std::to_string(key.size()) + ". Items of a prefix cannot be deleted this way.",
      kPartitionKeyMismatch);
}

}  // namespace

HandlerResult HandlePartitionKeyDelete(const RequestContext& ctx) {
  if (ctx.request.method != "POST") {
    return Status::MethodNotAllowed("Deleting items by partition key is a POST.");
  }
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<engine::Container> container, OwnerContainer(ctx));
  const partition::PartitionKeyDefinition& definition = container->settings().partition_key;
  partition::PartitionKeyValue key;
  if (const std::string* header = ctx.Header(headers::kPartitionKey);
      header != nullptr && definition.is_hierarchical()) {
    ORRERY_ASSIGN_OR_RETURN(key, partition::ParseHeader(*header, definition, true));
    ORRERY_RETURN_IF_ERROR(CheckFullKey(key, definition));
  } else {
    ORRERY_ASSIGN_OR_RETURN(key, PointPartitionKey(ctx, *container));
  }
  ORRERY_RETURN_IF_ERROR(container->AdmitRequest(key, ctx.request_class));
  ORRERY_RETURN_IF_ERROR(container->DeleteLogicalPartition(key));
  // The request marks the partition; what the background deletes cost is charged to the
  // partition as it runs (at most a tenth of its RU/s).
  const double charge = throughput::kMetadataWriteCharge;
  container->ChargeRequest(key, charge, ctx.request_class);
  const engine::ContainerSettings& settings = container->settings();
  const std::string epk = partition::EffectivePartitionKey(definition, key);
  ResponseBuilder builder(200, ctx.activity_id);
  builder.Charge(charge)
      .Header(headers::kContentPath, settings.rid)
      .Header(headers::kSessionToken,
              SessionToken(settings.partitions.Owner(epk).id, container->current_lsn()));
  return std::move(builder).Build();
}

}  // namespace orrery::api
