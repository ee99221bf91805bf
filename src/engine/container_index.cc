// Keeping a container's range index in step with its items: the entries of each write,
// and the rebuild after an indexing-policy change.

#include <algorithm>
#include <iterator>

#include "engine/container.h"
#include "engine/item_record.h"
#include "index/index_key.h"
#include "index/index_terms.h"
#include "json/json.h"
#include "storage/keys.h"

namespace orrery::engine {

std::vector<std::string> Container::IndexKeysOf(const json::Value& item, std::string_view epk,
                                                std::string_view id) const {
  if (!indexing_.enabled()) return {};
  const uint32_t partition = settings_.partitions.Owner(epk).number;
  return index::EntryKeys(indexing_, item,
                          index::ItemLocation{settings_.number, partition, epk, id});
}

std::vector<std::string> Container::IndexKeysOf(std::string_view json, std::string_view epk,
                                                std::string_view id) const {
  if (!indexing_.enabled()) return {};
  Result<json::Value> item = json::Parse(json);
  if (!item.ok()) return {};
  return IndexKeysOf(*item, epk, id);
}

void Container::AddIndexChanges(storage::WriteBatch& batch,
                                const std::vector<std::string>& old_keys,
                                const std::vector<std::string>& new_keys) {
  // Both are sorted: touch only the entries that differ between the versions.
  std::vector<std::string> removed;
  std::set_difference(old_keys.begin(), old_keys.end(), new_keys.begin(), new_keys.end(),
                      std::back_inserter(removed));
  for (const std::string& key : removed) batch.Delete(key);
  std::vector<std::string> added;
  std::set_difference(new_keys.begin(), new_keys.end(), old_keys.begin(), old_keys.end(),
                      std::back_inserter(added));
  for (const std::string& key : added) batch.Put(key, "");
}

Status Container::RebuildIndex(uint64_t generation) const {
  ContainerWriteState& state = *write_state_;
  const auto superseded = [&] { return state.index_generation.load() != generation; };
  storage::WriteBatch clear;
  clear.DeleteRange(index::ContainerBegin(settings_.number), index::ContainerEnd(settings_.number));
  ORRERY_RETURN_IF_ERROR(store_.Write(clear));

  const std::string begin = storage::keys::ItemsFrom(settings_.number, "");
  const std::string end = storage::keys::ItemsEnd(settings_.number);
  size_t total = 0;
  ORRERY_RETURN_IF_ERROR(store_.Scan(begin, end, [&](std::string_view, std::string_view) {
    ++total;
    return true;
  }));
  size_t done = 0;
  Status status;
  ORRERY_RETURN_IF_ERROR(store_.Scan(begin, end, [&](std::string_view key, std::string_view) {
    if (superseded()) return false;
    std::string_view epk, id;
    if (!storage::keys::ParseItem(key, epk, id)) return true;
    // Under the item's write lock, from its current version: a concurrent write
    // either happened before (and is what we index) or after (and fixes the entries
    // itself), so no entry of a stale version survives.
    const std::string item_key(key);
    std::lock_guard lock(StripeFor(item_key));
    Result<std::optional<std::string>> current = store_.Get(item_key);
    if (!current.ok()) {
      status = current.status();
      return false;
    }
    std::optional<ItemRecordView> record = *current ? DecodeItemRecord(**current) : std::nullopt;
    if (record) {
      storage::WriteBatch batch;
      AddIndexChanges(batch, {}, IndexKeysOf(record->json, epk, id));
      status = store_.Write(batch);
      if (!status.ok()) return false;
    }
    ++done;
    state.reindex_percent =
        static_cast<int>(std::min<size_t>(99, done * 100 / std::max<size_t>(total, 1)));
    return true;
  }));
  ORRERY_RETURN_IF_ERROR(status);
  if (!superseded()) {
    state.reindex_percent = 100;
    state.index_ready = true;
  }
  return Status::Ok();
}

}  // namespace orrery::engine
