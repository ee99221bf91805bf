// PathPresence (path_presence.h) as writes and queries use it: the changes a write
// notes while it builds its batch, applied once the batch is in the store; and the
// count of a path a query needs that is not counted yet.

#include <vector>

#include "engine/container.h"
#include "engine/query_run.h"
#include "engine/writes_held.h"
#include "index/index_key.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

struct PendingChange {
  ContainerWriteState* state;
  uint32_t partition;
  std::string path;  // empty: the item count
  int64_t delta;
};
// A thread builds one batch at a time; CommitScope applies or drops what it noted.
thread_local std::vector<PendingChange> pending_changes;

// Where the path starts in an entry key: after the space byte, container and partition.
constexpr size_t kPathStart = 9;

}  // namespace

void Container::NotePresenceChange(ContainerWriteState& state, uint32_t partition,
                                   std::string_view path, int64_t delta) {
  pending_changes.push_back(PendingChange{&state, partition, std::string(path), delta});
}

void Container::NoteItemCountChange(const std::vector<uint32_t>& partitions, int64_t delta) const {
  ContainerWriteState& state = *write_state_;
  if (!state.presence.CountsAny()) return;
  for (uint32_t partition : partitions) NotePresenceChange(state, partition, {}, delta);
}

size_t Container::PresenceMark() { return pending_changes.size(); }

void Container::ApplyPresence(size_t from) {
  for (size_t i = from; i < pending_changes.size(); ++i) {
    const PendingChange& change = pending_changes[i];
    change.state->presence.Apply(change.partition, change.path, change.delta);
  }
  pending_changes.resize(from);
}

void Container::DropPresence(size_t from) {
  if (from < pending_changes.size()) pending_changes.resize(from);
}

void Container::AddIndexChanges(storage::WriteBatch& batch,
                                const std::vector<std::string>& old_keys,
                                const std::vector<std::string>& new_keys,
                                ContainerWriteState* presence) {
  if (presence != nullptr && !presence->presence.CountsAny()) presence = nullptr;
  const auto note = [presence](const std::string& key, int64_t delta) {
    if (presence == nullptr) return;
    const std::optional<size_t> length = index::PathPrefixLength(key, /*names_only=*/true);
    if (!length) return;
    NotePresenceChange(*presence, index::PartitionOf(key),
                       std::string_view(key).substr(kPathStart, *length - kPathStart), delta);
  };
  // Both are sorted: touch only the entries that differ between the versions. One merge
  // walk, writing straight into the batch: no copy of the keys (a create's are all new,
  // and one of them holds every indexed string value whole).
  auto old_it = old_keys.begin();
  auto new_it = new_keys.begin();
  while (old_it != old_keys.end() || new_it != new_keys.end()) {
    if (new_it == new_keys.end() || (old_it != old_keys.end() && *old_it < *new_it)) {
      note(*old_it, -1);
      batch.Delete(*old_it++);
    } else if (old_it == old_keys.end() || *new_it < *old_it) {
      note(*new_it, +1);
      batch.Put(*new_it++, "");
    } else {
      ++old_it;
      ++new_it;
    }
  }
}

Result<int64_t> Container::CountPartitionItems(uint32_t partition) const {
  int64_t items = 0;
  const auto count = [&items](std::string_view, std::string_view) {
    ++items;
    return true;
  };
  if (write_state_->creation_order_kept.load()) {
    // One short entry per item (creation_order.h).
    ORRERY_RETURN_IF_ERROR(store_.Scan(CreationKey(settings_.number, partition, 0),
                                       CreationEnd(settings_.number, partition), count));
    return items;
  }
  const PartitionMap& map = *write_state_->write_map;
  for (const PhysicalPartition& p : map.partitions()) {
    if (p.number != partition) continue;
    const uint32_t n = settings_.number;
    const std::string end = p.max_exclusive == "FF" ? storage::keys::ItemsEnd(n)
                                                    : storage::keys::ItemsFrom(n, p.max_exclusive);
    ORRERY_RETURN_IF_ERROR(store_.Scan(storage::keys::ItemsFrom(n, p.min_inclusive), end, count,
                                       storage::Store::ScanMode::kBulk));
  }
  return items;
}

Result<bool> Container::SomeItemLacks(QueryRun& run, uint32_t partition,
                                      const std::string& path_prefix) const {
  ContainerWriteState& state = *write_state_;
  if (index::PathPrefixLength(path_prefix, /*names_only=*/true) != path_prefix.size()) {
    return true;  // an array step: items may have several entries each
  }
  const std::string_view path = std::string_view(path_prefix).substr(kPathStart);
  if (std::optional<bool> known = state.presence.SomeItemLacks(partition, path)) return *known;
  // Counted while no write runs: each write is then either in the counts or applies
  // its change after them.
  return WithWritesHeld(state, [&]() -> Result<bool> {
    if (std::optional<bool> known = state.presence.SomeItemLacks(partition, path)) return *known;
    const uint64_t generation = state.index_generation.load();
    bool live = false;
    for (const PhysicalPartition& p : state.write_map->partitions()) live |= p.number == partition;
    // A partition split away meanwhile, or an index being rebuilt: nothing to count.
    if (!live || !state.index_ready.load()) return true;
    int64_t entries = 0;
    const index::KeyRange range = index::AllEntries(path_prefix);
    ORRERY_RETURN_IF_ERROR(
        store_.Scan(range.begin, range.end, [&](std::string_view, std::string_view) {
          ++entries;
          return true;
        }));
    std::optional<int64_t> items = state.presence.Items(partition);
    if (!items) {
      ORRERY_ASSIGN_OR_RETURN(items, CountPartitionItems(partition));
      run.page.index_entries += static_cast<size_t>(*items);
    }
    run.page.index_entries += static_cast<size_t>(entries);
    // A rebuild that began meanwhile (it does not wait for writes) made the count stale.
    const std::lock_guard rebuild(state.rebuild_mutex);
    if (state.index_ready.load() && state.index_generation.load() == generation) {
      state.presence.Learn(partition, path, entries, *items);
    }
    return entries < *items;
  });
}

}  // namespace orrery::engine
