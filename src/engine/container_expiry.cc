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
  // Read under the item's stripe, which every switch of it holds too.
  if (!write_state_->expiry_writes.load(std::memory_order_relaxed)) return;
  const std::optional<ExpiryEntry> old_entry = old_json ? ExpiryEntryOf(*old_json) : std::nullopt;
  const std::optional<ExpiryEntry> new_entry = new_json ? ExpiryEntryOf(*new_json) : std::nullopt;
  std::optional<std::string> old_key, new_key;
  if (old_entry) old_key = ExpiryKey(settings_.number, *old_entry, epk, id);
  if (new_entry) new_key = ExpiryKey(settings_.number, *new_entry, epk, id);
  if (old_key == new_key) return;  // a rewrite within the same second
  if (old_key) batch.Delete(*old_key);
  if (new_key) batch.Put(*new_key, "");
}

void Container::AddExpiryIndexDropToBatch(storage::WriteBatch& batch) const {
  batch.DeleteRange(ExpiryContainerBegin(settings_.number), ExpiryContainerEnd(settings_.number));
  batch.Delete(ExpiryMarkerKey());
}

Status Container::EnsureExpiryIndexKept() {
  ContainerWriteState& state = *write_state_;
  state.expiry_writes.store(ttl_enabled());
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> marker, store_.Get(ExpiryMarkerKey()));
  if (!ttl_enabled()) {
    state.expiry_index_kept.store(false);
    if (!marker || store_.ReadOnly()) return Status::Ok();
    // Kept while TTL was on, or by an Orrery that kept it for every container: writes
    // no longer keep it, so it goes before it can go stale.
    storage::WriteBatch batch;
    AddExpiryIndexDropToBatch(batch);
    return store_.WriteSynced(batch);
  }
  if (marker || store_.ReadOnly()) {
    state.expiry_index_kept.store(marker.has_value());
    return Status::Ok();
  }
  // Data written while the index was not kept: list it once, before any write runs.
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
  state.expiry_index_kept.store(true);
  return Status::Ok();
}

Status Container::SwitchExpiryIndex(bool on) {
  ContainerWriteState& state = *write_state_;
  const std::vector<std::unique_lock<std::mutex>> stripes = HoldEveryStripe();
  const std::lock_guard guard(state.expiry_mutex);
  ++state.expiry_generation;
  state.expiry_writes.store(on);
  state.expiry_index_kept.store(false);
  if (on) return Status::Ok();  // BuildExpiryIndex lists the items, from the purge
  storage::WriteBatch batch;
  AddExpiryIndexDropToBatch(batch);
  return store_.Write(batch);
}

void Container::StopExpiryIndexBuild() const {
  const std::lock_guard guard(write_state_->expiry_mutex);
  ++write_state_->expiry_generation;
  // Also a listing that begins after this and before the drop commits: it sees the
  // index is not kept by writes and does not begin.
  write_state_->expiry_writes.store(false);
  write_state_->expiry_index_kept.store(false);
}

Status Container::BuildExpiryIndex() {
  ContainerWriteState& state = *write_state_;
  uint64_t generation = 0;
  {
    const std::lock_guard guard(state.expiry_mutex);
    if (!state.expiry_writes.load() || state.expiry_index_kept.load()) return Status::Ok();
    generation = state.expiry_generation.load();
  }
  Status status;
  // Writes `batch` unless TTL was switched since the build began; false when it was
  // (status ok) or the write failed (status says why).
  const auto write_if_current = [&](storage::WriteBatch& batch, bool complete) {
    const std::lock_guard guard(state.expiry_mutex);
    status = Status::Ok();
    if (state.expiry_generation.load() != generation) return false;
    status = complete ? store_.WriteSynced(batch) : store_.Write(batch);
    if (status.ok() && complete) state.expiry_index_kept.store(true);
    return status.ok();
  };
  // Each item's entry comes from its current version, read under its lock. A write
  // between that read and the batch's write can leave the entry of a version it
  // replaced; the purge drops such entries when they fall due (PurgeExpired). No item
  // is missed: one written after the switch filed its own entry.
  storage::WriteBatch batch;
  bool current = true;
  const uint32_t n = settings_.number;
  ORRERY_RETURN_IF_ERROR(ForEachItemUnderLock(
      storage::keys::ItemsFrom(n, ""), storage::keys::ItemsEnd(n), {},
      [&](std::string_view epk, std::string_view id, const ItemRecordView& record) {
        AddExpiryChanges(batch, epk, id, std::nullopt, record.json);
        if (batch.count() < 4096) return true;
        current = write_if_current(batch, /*complete=*/false);
        batch = storage::WriteBatch();
        return current;
      }));
  if (!current) return status;
  batch.Put(ExpiryMarkerKey(), "1");
  write_if_current(batch, /*complete=*/true);
  return status;
}

}  // namespace orrery::engine
