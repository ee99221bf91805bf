// Keeping the expiry index of expiry_index.h, which the TTL purge (container_ttl.cc)
// reads instead of the items.

#include "engine/container.h"
#include "engine/expiry_index.h"
#include "engine/item_record.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

constexpr const char* kExpiryMarkerPrefix = "expiry-index/";

}  // namespace

std::string Container::ExpiryMarkerKey() const {
  return storage::keys::Meta(kExpiryMarkerPrefix + std::to_string(settings_.number));
}

void Container::AddExpiryChanges(storage::WriteBatch& batch, std::string_view epk,
                                 std::string_view id, std::optional<std::string_view> old_json,
                                 std::optional<std::string_view> new_json) const {
  const std::optional<ExpiryEntry> old_entry = old_json ? ExpiryEntryOf(*old_json) : std::nullopt;
  const std::optional<ExpiryEntry> new_entry = new_json ? ExpiryEntryOf(*new_json) : std::nullopt;
  std::optional<std::string> old_key, new_key;
  if (old_entry) old_key = ExpiryKey(settings_.number, *old_entry, epk, id);
  if (new_entry) new_key = ExpiryKey(settings_.number, *new_entry, epk, id);
  if (old_key == new_key) return;  // a rewrite within the same second
  if (old_key) batch.Delete(*old_key);
  if (new_key) batch.Put(*new_key, "");
}

Status Container::EnsureExpiryIndexKept() {
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> marker, store_.Get(ExpiryMarkerKey()));
  if (marker || store_.ReadOnly()) {
    write_state_->expiry_index_kept.store(marker.has_value());
    return Status::Ok();
  }
  // Data written before the index was kept: list it once, before any write runs.
  const uint32_t n = settings_.number;
  storage::WriteBatch batch;
  batch.DeleteRange(ExpiryContainerBegin(n), ExpiryContainerEnd(n));
  Status status;
  ORRERY_RETURN_IF_ERROR(store_.Scan(
      storage::keys::ItemsFrom(n, ""), storage::keys::ItemsEnd(n),
      [&](std::string_view key, std::string_view value) {
        std::string_view epk, id;
        std::optional<ItemRecordView> record = DecodeItemRecord(value);
        if (!storage::keys::ParseItem(key, epk, id) || !record) return true;
        AddExpiryChanges(batch, epk, id, std::nullopt, record->json);
        if (batch.count() >= 4096) {
          status = store_.Write(batch);
          batch = storage::WriteBatch();
        }
        return status.ok();
      },
      storage::Store::ScanMode::kBulk));
  ORRERY_RETURN_IF_ERROR(status);
  batch.Put(ExpiryMarkerKey(), "1");
  ORRERY_RETURN_IF_ERROR(store_.WriteSynced(batch));
  write_state_->expiry_index_kept.store(true);
  return Status::Ok();
}

}  // namespace orrery::engine
