// Time to live: a container's defaultTtl and its items' ttl (absent defaultTtl: off;
// -1: on, items live until their own ttl says otherwise; n: n seconds after the last
// write, unless the item's ttl overrides it, -1 meaning never). An expired item is
// gone at once for reads, queries and writes (which see its id as free), and purged
// in the background by PurgeExpired.

#include <algorithm>

#include "engine/container.h"
#include "engine/item_record.h"
#include "engine/throughput/cost_model.h"
#include "json/member_scan.h"
#include "storage/keys.h"

namespace orrery::engine {

std::optional<int64_t> Container::ParseDefaultTtl(const json::Value& resource) {
  const json::Value* ttl = resource.Find("defaultTtl");
  if (ttl == nullptr || !ttl->is_integer()) return std::nullopt;
  return ttl->as_int();
}

// Scanning from the cursor rather than from the first item: a round that stopped
// early resumes where it stopped, so items late in a large container are reached too,
// and a round never reads more than `max_scanned` items.
Result<std::vector<std::string>> Container::NextExpiredKeys(size_t max_items, size_t max_scanned) {
  const std::lock_guard lock(write_state_->ttl_scan_mutex);
  std::string& cursor = write_state_->ttl_scan_cursor;
  const std::string begin = storage::keys::ItemsFrom(settings_.number, "");
  std::vector<std::string> expired;
  size_t scanned = 0;
  std::string last;
  ORRERY_RETURN_IF_ERROR(store_.Scan(
      std::max(begin, cursor), storage::keys::ItemsEnd(settings_.number),
      [&](std::string_view key, std::string_view value) {
        ++scanned;
        last.assign(key);
        std::optional<ItemRecordView> record = DecodeItemRecord(value);
        if (record && IsExpired(record->json)) expired.emplace_back(key);
        return expired.size() < max_items && scanned < max_scanned;
      },
      storage::Store::ScanMode::kBulk));
  const bool stopped_early = expired.size() >= max_items || scanned >= max_scanned;
  // The smallest key after `last`; an empty cursor starts the next round from the top.
  cursor = stopped_early ? last + '\0' : std::string();
  return expired;
}

std::optional<int64_t> Container::ExpiresAt(std::string_view json) const {
  if (!default_ttl_) return std::nullopt;
  static const std::vector<std::string> kMembers{"_ts", "ttl"};
  std::optional<json::Value> members = json::ParseTopLevelMembers(json, kMembers);
  if (!members) return std::nullopt;
  const json::Value* ts = members->Find("_ts");
  if (ts == nullptr || !ts->is_number()) return std::nullopt;
  const json::Value* own = members->Find("ttl");
  const int64_t ttl = own && own->is_integer() ? own->as_int() : *default_ttl_;
  if (ttl <= 0) return std::nullopt;  // -1: never
  return static_cast<int64_t>(ts->as_double()) + ttl;
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

Result<size_t> Container::PurgeExpired(size_t max_items, size_t max_scanned) {
  if (!default_ttl_) return size_t{0};
  ORRERY_ASSIGN_OR_RETURN(std::vector<std::string> expired,
                          NextExpiredKeys(max_items, max_scanned));
  size_t purged = 0;
  for (const std::string& key : expired) {
    std::string_view epk, id;
    if (!storage::keys::ParseItem(key, epk, id)) continue;
    std::shared_lock split_lock = EnterWrite();
    std::unique_lock partition_lock = LockLogicalPartition(epk);
    std::lock_guard lock(StripeFor(key));
    CommitScope commit(*this);
    ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored, store_.Get(key));
    std::optional<ItemRecordView> record = stored ? DecodeItemRecord(*stored) : std::nullopt;
    // Rewritten since the scan: alive again.
    if (!record || !IsExpired(record->json)) continue;
    // Expiry deletes run on the partition's spare throughput and are charged to no
    // request (ru-model.md a.2 row 23); a busy partition purges later.
    if (!write_state_->throughput.TakeSpare(settings_.partitions.Owner(epk).number,
                                            throughput::DeleteCharge(record->json.size(), 0),
                                            std::chrono::steady_clock::now())) {
      continue;
    }
    storage::WriteBatch batch;
    Result<ItemResult> deleted =
        AddDeleteToBatch(epk, id, stored, std::nullopt, batch, nullptr, /*allow_expired=*/true);
    if (!deleted.ok()) continue;
    ORRERY_RETURN_IF_ERROR(store_.Write(batch));
    ++purged;
  }
  return purged;
}

}  // namespace orrery::engine
