// Enforcing a container's unique key policy (unique_keys.h) on writes.

#include <algorithm>

#include "engine/container.h"
#include "engine/item_record.h"

namespace orrery::engine {
namespace {

// The service's words for a violation (answered 409).
constexpr const char* kUniqueViolation = "Unique index constraint violation.";

}  // namespace

std::unique_lock<std::mutex> Container::LockLogicalPartition(std::string_view epk) const {
  // Two writes to one logical partition must not claim one unique value at once, nor
  // write while a script's transaction runs in it (container_transaction.cc), nor
  // both pass a small size limit (above 1 GB a concurrent write may overshoot it by
  // its own size, which is not worth a lock on every write).
  constexpr uint64_t kExactLimitBelow = uint64_t{1} << 30;
  if (unique_keys_.empty() && settings_.logical_partition_max_bytes >= kExactLimitBelow &&
      !write_state_->partition_writes_serialized.load()) {
    return {};
  }
  auto& stripes = write_state_->partition_stripes;
  return std::unique_lock(stripes[std::hash<std::string_view>{}(epk) % stripes.size()]);
}

Status Container::AddUniqueKeyChanges(std::string_view epk, std::string_view id,
                                      const json::Value* old_item, const json::Value* new_item,
                                      storage::WriteBatch& batch, PendingRecords* pending) {
  const std::vector<std::string> old_keys =
      old_item ? unique_keys_.EntryKeys(settings_.number, epk, *old_item)
               : std::vector<std::string>{};
  const std::vector<std::string> new_keys =
      new_item ? unique_keys_.EntryKeys(settings_.number, epk, *new_item)
               : std::vector<std::string>{};
  const auto in = [](const std::vector<std::string>& keys, const std::string& key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  for (const std::string& key : new_keys) {
    if (in(old_keys, key)) continue;
    ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> holder, StoredRecord(key, pending));
    if (!holder || *holder == id) continue;
    // A value held by an expired item is free: that item is gone for everyone.
    ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> holder_record,
                            StoredRecord(KeyFor(epk, *holder), pending));
    std::optional<ItemRecordView> record =
        holder_record ? DecodeItemRecord(*holder_record) : std::nullopt;
    if (record && !IsGone(epk, *record)) return Status::Conflict(kUniqueViolation);
  }
  for (const std::string& key : old_keys) {
    if (in(new_keys, key)) continue;
    // Only this item's own entries: a value it held while expired may have been taken.
    ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> holder, StoredRecord(key, pending));
    if (!holder || *holder != id) continue;
    batch.Delete(key);
    if (pending) (*pending)[key] = std::nullopt;
  }
  for (const std::string& key : new_keys) {
    batch.Put(key, id);
    if (pending) (*pending)[key] = std::string(id);
  }
  return Status::Ok();
}

}  // namespace orrery::engine
