// The container's side of a physical partition split (account_split.cc runs it):
// while a split copies, every write to the parent's range files its index and
// change-feed entries under the parent and under the child that will own it, and
// CopyForSplit files every existing item under its child the same way, each item
// under its write lock, from its current version (as the index rebuild does), many
// items to a write batch. At the
// commit the children replace the parent and the parent's entries are deleted.

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

#include "engine/change_feed.h"
#include "engine/container.h"
#include "engine/creation_order.h"
#include "engine/item_record.h"
#include "index/index_key.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

// Items whose entries a split's copy writes in one batch: one item per batch spent
// most of the copy in the store's per-write work (WAL append, write group).
constexpr size_t kItemsPerCopyBatch = 64;

}  // namespace

std::shared_lock<std::shared_mutex> Container::EnterWrite() const {
  // A split's commit waits for the writes in flight; new ones wait for it, so that a
  // steady stream of writes cannot hold the commit off.
  while (write_state_->split_commit_waiting.load(std::memory_order_acquire)) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return std::shared_lock(write_state_->split_mutex);
}

std::vector<uint32_t> Container::WritePartitionsOf(std::string_view epk) const {
  const ContainerWriteState& state = *write_state_;
  const uint32_t owner = state.write_map->Owner(epk).number;
  if (state.split && state.split->parent == owner) {
    return {owner, epk < state.split->at ? state.split->left : state.split->right};
  }
  return {owner};
}

Status Container::CopyForSplit(uint32_t parent) const {
  const PhysicalPartition* p = nullptr;
  for (const PhysicalPartition& candidate : write_state_->write_map->partitions()) {
    if (candidate.number == parent) p = &candidate;
  }
  if (p == nullptr) return Status::Internal("the partition to split is not live");
  const std::string begin = storage::keys::ItemsFrom(settings_.number, p->min_inclusive);
  const std::string end = p->max_exclusive == "FF"
                              ? storage::keys::ItemsEnd(settings_.number)
                              : storage::keys::ItemsFrom(settings_.number, p->max_exclusive);
  return ForEachItemInLockedBatches(
      begin, end, kItemsPerCopyBatch,
      [&](std::string_view epk, std::string_view id, const ItemRecordView& record,
          storage::WriteBatch& batch) {
        const auto& split = *write_state_->split;
        const uint32_t child = epk < split.at ? split.left : split.right;
        const std::optional<uint64_t> number = ItemNumberOfJson(record.json);
        // A version written by a create is in the feed through its creation-order entry.
        if (record.lsn != 0 && record.lsn != number) {
          batch.Put(ChangeFeedKey(settings_.number, child, record.lsn),
                    storage::keys::ItemSuffix(epk, id));
        }
        if (number) {
          batch.Put(CreationKey(settings_.number, child, *number),
                    storage::keys::ItemSuffix(epk, id));
        }
        // IndexKeysOf files under the parent and the child: the parent's are there.
        for (std::string& entry : IndexKeysOf(record, epk, id)) {
          if (index::PartitionOf(entry) == child) batch.Put(entry, "");
        }
      });
}

// A lock is taken without waiting while others are held (try_lock; when that fails the
// batch is written and every lock released first), so this walk needs no lock order
// with writers that hold several stripes (transactional batches), and never waits
// while it holds something a writer waits for.
Status Container::ForEachItemInLockedBatches(std::string_view begin, std::string_view end,
                                             size_t items_per_batch,
                                             const BatchedItemVisit& visit) const {
  ContainerWriteState& state = *write_state_;
  std::optional<std::shared_lock<std::shared_mutex>> split_lock;
  std::vector<std::unique_lock<std::mutex>> held;
  std::vector<bool> stripe_held(state.stripes.size(), false);
  storage::WriteBatch batch;
  size_t items_in_batch = 0;
  Status status;
  const auto write_and_unlock = [&] {
    if (batch.count() > 0) status = store_.Write(batch);
    batch = storage::WriteBatch();
    items_in_batch = 0;
    held.clear();
    std::fill(stripe_held.begin(), stripe_held.end(), false);
    split_lock.reset();
    return status.ok();
  };
  const Status scan_status = store_.Scan(
      begin, end,
      [&](std::string_view key, std::string_view) {
        std::string_view epk, id;
        if (!storage::keys::ParseItem(key, epk, id)) return true;
        const std::string item_key(key);
        if (!split_lock) split_lock.emplace(EnterWrite());
        const size_t stripe = StripeIndex(item_key);
        if (!stripe_held[stripe]) {
          std::unique_lock lock(state.stripes[stripe], std::try_to_lock);
          if (!lock.owns_lock()) {
            if (!write_and_unlock()) return false;
            split_lock.emplace(EnterWrite());
            lock.lock();
          }
          stripe_held[stripe] = true;
          held.push_back(std::move(lock));
        }
        Result<std::optional<std::string>> current = store_.Get(item_key);
        if (!current.ok()) {
          status = current.status();
          return false;
        }
        std::optional<ItemRecordView> record =
            *current ? DecodeItemRecord(**current) : std::nullopt;
        if (!record) return true;  // deleted since the scan saw it
        visit(epk, id, *record, batch);
        return ++items_in_batch < items_per_batch || write_and_unlock();
      },
      storage::Store::ScanMode::kBulk);
  if (status.ok()) write_and_unlock();
  ORRERY_RETURN_IF_ERROR(scan_status);
  return status;
}

Status Container::ForEachItemUnderLock(std::string_view begin, std::string_view end,
                                       const ItemAdmit& admit, const LockedItemVisit& visit) const {
  Status read_status;
  ORRERY_RETURN_IF_ERROR(store_.Scan(
      begin, end,
      [&](std::string_view key, std::string_view value) {
        std::string_view epk, id;
        if (!storage::keys::ParseItem(key, epk, id)) return true;
        if (admit && !admit(epk, id, value)) return false;
        const std::string item_key(key);
        std::shared_lock split_lock = EnterWrite();
        std::lock_guard lock(StripeFor(item_key));
        Result<std::optional<std::string>> current = store_.Get(item_key);
        if (!current.ok()) {
          read_status = current.status();
          return false;
        }
        std::optional<ItemRecordView> record =
            *current ? DecodeItemRecord(**current) : std::nullopt;
        return !record || visit(epk, id, *record);
      },
      storage::Store::ScanMode::kBulk));
  return read_status;
}

void Container::AddPartitionDropToBatch(uint32_t partition, storage::WriteBatch& batch) const {
  batch.DeleteRange(index::PartitionBegin(settings_.number, partition),
                    index::PartitionBegin(settings_.number, partition + 1));
  batch.DeleteRange(ChangeFeedBegin(settings_.number, partition, 0),
                    ChangeFeedEnd(settings_.number, partition));
  batch.DeleteRange(CreationKey(settings_.number, partition, 0),
                    CreationEnd(settings_.number, partition));
}

}  // namespace orrery::engine
