// Time to live: a container's defaultTtl and its items' ttl (absent defaultTtl: off;
// -1: on, items live until their own ttl says otherwise; n: n seconds after the last
// write, unless the item's ttl overrides it, -1 meaning never). An expired item is
// gone at once for reads, queries and writes (which see its id as free), and purged
// in the background by PurgeExpired, which finds them through the expiry index.

#include "engine/container.h"
#include "engine/expiry_index.h"
#include "engine/item_record.h"
#include "engine/throughput/cost_model.h"

namespace orrery::engine {

std::optional<int64_t> Container::ParseDefaultTtl(const json::Value& resource) {
  const json::Value* ttl = resource.Find("defaultTtl");
  if (ttl == nullptr || !ttl->is_integer()) return std::nullopt;
  return ttl->as_int();
}

std::optional<int64_t> Container::ExpiresAt(std::string_view json) const {
  if (!default_ttl_) return std::nullopt;
  const std::optional<ExpiryEntry> entry = ExpiryEntryOf(json);
  if (!entry) return std::nullopt;
  if (entry->own_ttl) return entry->time;
  if (*default_ttl_ <= 0) return std::nullopt;  // -1: on, but never by default
  return entry->time + *default_ttl_;
}

bool Container::IsExpired(std::string_view json) const {
  std::optional<int64_t> expires = ExpiresAt(json);
  return expires && *expires <= clock_.NowSeconds();
}

Status Container::ValidateItemTtl(const json::Value& item) const {
  const json::Value* ttl = item.Find("ttl");
  // Only a container with TTL on reads an item's ttl (the service ignores it otherwise).
  if (!default_ttl_ || ttl == nullptr) return Status::Ok();
  if (!ttl->is_integer() || ttl->as_int() == 0 || ttl->as_int() < -1 ||
      ttl->as_int() > 2147483647) {
    return Status::BadRequest(
        "The value of ttl is invalid: it must be -1 (never expire) or a positive number of "
        "seconds up to 2147483647; leave it out to use the container's defaultTtl.");
  }
  return Status::Ok();
}

// Reads only the expiry-index entries that are due (expiry_index.h): those of items
// with their own ttl up to now, and, under a positive defaultTtl, those of items
// written at or before now - defaultTtl. A large container whose items do not expire
// costs the purge nothing.
Result<Container::PurgeCount> Container::PurgeExpired(size_t max_items) {
  PurgeCount count;
  if (!default_ttl_ || store_.ReadOnly()) return count;
  // TTL turned on by a replace: the index is listed first, once.
  if (!write_state_->expiry_index_kept.load()) ORRERY_RETURN_IF_ERROR(BuildExpiryIndex());
  if (!write_state_->expiry_index_kept.load()) return count;
  const int64_t now = clock_.NowSeconds();
  const uint32_t n = settings_.number;
  std::vector<std::string> due;
  auto collect = [&](bool own_ttl, int64_t up_to) -> Status {
    if (due.size() >= max_items) return Status::Ok();
    return store_.Scan(ExpiryListBegin(n, own_ttl), ExpiryListEnd(n, own_ttl, up_to),
                       [&](std::string_view key, std::string_view) {
                         ++count.entries_read;
                         due.emplace_back(key);
                         return due.size() < max_items;
                       });
  };
  ORRERY_RETURN_IF_ERROR(collect(/*own_ttl=*/true, now));
  if (*default_ttl_ > 0) ORRERY_RETURN_IF_ERROR(collect(/*own_ttl=*/false, now - *default_ttl_));

  for (const std::string& entry : due) {
    std::string_view epk, id;
    if (!ParseExpiryKey(entry, epk, id)) continue;
    const std::string key = KeyFor(epk, id);
    std::shared_lock split_lock = EnterWrite();
    std::unique_lock partition_lock = LockLogicalPartition(epk);
    std::lock_guard lock(StripeFor(key));
    CommitScope commit(*this);
    ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored, store_.Get(key));
    ++count.items_read;
    std::optional<ItemRecordView> record = stored ? DecodeItemRecord(*stored) : std::nullopt;
    const std::optional<ExpiryEntry> current = record ? ExpiryEntryOf(record->json) : std::nullopt;
    if (!current || ExpiryKey(n, *current, epk, id) != entry) {
      // An entry no item version stands behind (never written so: writes replace an
      // item's entry in the batch that replaces the item); dropped so it is not read
      // again.
      storage::WriteBatch batch;
      batch.Delete(entry);
      ORRERY_RETURN_IF_ERROR(store_.Write(batch));
      continue;
    }
    if (!IsExpired(record->json)) continue;
    // Expiry deletes run on the partition's spare throughput and are charged to no
    // request (ru-model.md a.2 row 23); a busy partition purges later.
    if (!write_state_->throughput.TakeSpare(settings_.partitions.Owner(epk).number,
                                            throughput::DeleteCharge(record->json.size(), 0),
                                            std::chrono::steady_clock::now())) {
      continue;
    }
    storage::WriteBatch batch;
    Result<ItemResult> deleted =
        AddDeleteToBatch(epk, id, stored, std::nullopt, batch, nullptr, /*allow_gone=*/true);
    if (!deleted.ok()) continue;
    ORRERY_RETURN_IF_ERROR(store_.Write(batch));
    commit.Committed();
    ++count.purged;
    write_state_->ttl_purged_items.fetch_add(1);
  }
  return count;
}

}  // namespace orrery::engine
