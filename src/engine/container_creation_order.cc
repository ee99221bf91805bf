// Keeping the creation lists of creation_order.h: the order the service returns items
// in when a query has no ORDER BY (container_query.cc reads them).

#include <algorithm>

#include "common/encoding.h"
#include "engine/container.h"
#include "engine/creation_order.h"
#include "engine/item_record.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

constexpr const char* kCreationMarkerPrefix = "creation-order/";

// The bytes of a rid (resource_id.h: base64 with '-' for '/').
std::optional<std::string> RidBytes(std::string_view rid) {
  std::string text(rid);
  std::replace(text.begin(), text.end(), '-', '/');
  return Base64Decode(text);
}

}  // namespace

std::string Container::CreationMarkerKey() const {
  return storage::keys::Meta(kCreationMarkerPrefix + std::to_string(settings_.number));
}

void Container::AddCreationChanges(storage::WriteBatch& batch, std::string_view epk,
                                   std::string_view id, std::optional<uint64_t> removed,
                                   std::optional<uint64_t> added) const {
  const uint32_t n = settings_.number;
  for (const uint32_t partition : WritePartitionsOf(epk)) {
    if (removed) batch.Delete(CreationKey(n, partition, *removed));
    if (added) batch.Put(CreationKey(n, partition, *added), storage::keys::ItemSuffix(epk, id));
  }
  if (removed) batch.Delete(LogicalCreationKey(n, epk, *removed));
  if (added) batch.Put(LogicalCreationKey(n, epk, *added), std::string(id));
}

Status Container::EnsureCreationOrderKept() {
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> marker, store_.Get(CreationMarkerKey()));
  if (marker || store_.ReadOnly()) {
    write_state_->creation_order_kept.store(marker.has_value());
    return Status::Ok();
  }
  // Data written before the lists were kept: list it once, before any write runs.
  const uint32_t n = settings_.number;
  storage::WriteBatch batch;
  batch.DeleteRange(CreationContainerBegin(n), CreationContainerEnd(n));
  Status status;
  ORRERY_RETURN_IF_ERROR(store_.Scan(
      storage::keys::ItemsFrom(n, ""), storage::keys::ItemsEnd(n),
      [&](std::string_view key, std::string_view value) {
        std::string_view epk, id;
        std::optional<ItemRecordView> record = DecodeItemRecord(value);
        if (!storage::keys::ParseItem(key, epk, id) || !record) return true;
        const std::optional<uint64_t> number = ItemNumberOfJson(record->json);
        if (!number) return true;
        batch.Put(CreationKey(n, settings_.partitions.Owner(epk).number, *number),
                  storage::keys::ItemSuffix(epk, id));
        batch.Put(LogicalCreationKey(n, epk, *number), std::string(id));
        if (batch.count() >= 4096) {
          status = store_.Write(batch);
          batch = storage::WriteBatch();
        }
        return status.ok();
      },
      storage::Store::ScanMode::kBulk));
  ORRERY_RETURN_IF_ERROR(status);
  batch.Put(CreationMarkerKey(), "1");
  ORRERY_RETURN_IF_ERROR(store_.WriteSynced(batch));
  write_state_->creation_order_kept.store(true);
  return Status::Ok();
}

Result<std::optional<std::string>> Container::ItemIdOfRid(std::string_view rid) const {
  // An item rid is its container's rid and 8 bytes more (resource_id.h).
  const std::optional<std::string> bytes = RidBytes(rid);
  const std::optional<std::string> container = RidBytes(settings_.rid);
  const std::optional<uint64_t> number = ItemNumberOfRid(rid);
  if (!bytes || !container || !number || !bytes->starts_with(*container)) {
    return std::optional<std::string>();
  }
  for (const PhysicalPartition& partition : settings_.partitions.partitions()) {
    ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> suffix,
                            store_.Get(CreationKey(settings_.number, partition.number, *number)));
    if (!suffix) continue;
    const size_t end_of_epk = suffix->find('\0');
    if (end_of_epk == std::string::npos) continue;
    return std::optional<std::string>(suffix->substr(end_of_epk + 1));
  }
  return std::optional<std::string>();
}

}  // namespace orrery::engine
