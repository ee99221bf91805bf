// PathPresence (path_presence.h) as writes and queries use it: the changes a write
// notes while it builds its batch (AddIndexChanges, NoteItemCountChange), applied once
// the batch is in the store; and the count of a path a query needs that is not counted
// yet.

#include <span>
#include <vector>

#include "engine/container.h"
#include "engine/full_text_index.h"
#include "engine/query_run.h"
#include "engine/writes_held.h"
#include "index/index_key.h"
#include "index/index_scan.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

// A thread builds one batch at a time; CommitScope applies or drops what it noted:
// each change with the container state it belongs to.
thread_local std::vector<PathPresence::Change> pending_changes;
thread_local std::vector<ContainerWriteState*> pending_states;

// A scan visitor that counts the keys it sees into `count`.
auto Counter(int64_t& count) {
  return [&count](std::string_view, std::string_view) {
    ++count;
    return true;
  };
}

}  // namespace

void Container::NotePresenceChange(ContainerWriteState& state, uint32_t partition,
                                   std::string_view path, int64_t delta) {
  pending_changes.push_back(PathPresence::Change{partition, std::string(path), delta});
  pending_states.push_back(&state);
}

void Container::NoteEntryChange(ContainerWriteState& state, std::string_view entry_key,
                                int64_t delta) {
  if (std::optional<std::string_view> path = index::EntryPath(entry_key, /*names_only=*/true)) {
    NotePresenceChange(state, index::PartitionOf(entry_key), *path, delta);
  } else if (std::optional<WordCountEntry> words = ParseWordCountEntry(entry_key)) {
    NotePresenceChange(state, index::PartitionOf(entry_key), words->path, delta * words->words);
  }
}

void Container::NoteItemCountChange(const std::vector<uint32_t>& partitions, int64_t delta) const {
  ContainerWriteState& state = *write_state_;
  if (!state.presence.CountsAny()) return;
  for (uint32_t partition : partitions) NotePresenceChange(state, partition, {}, delta);
}

size_t Container::PresenceMark() { return pending_changes.size(); }

void Container::ApplyPresence(size_t from) {
  // The changes of one container state together, under one lock.
  for (size_t begin = from; begin < pending_changes.size();) {
    size_t end = begin + 1;
    while (end < pending_changes.size() && pending_states[end] == pending_states[begin]) ++end;
    pending_states[begin]->presence.Apply(
        std::span<const PathPresence::Change>(pending_changes.data() + begin, end - begin));
    begin = end;
  }
  DropPresence(from);
}

void Container::DropPresence(size_t from) {
  if (from < pending_changes.size()) {
    pending_changes.resize(from);
    pending_states.resize(from);
  }
}

Result<int64_t> Container::CountPartitionItems(uint32_t partition) const {
  int64_t items = 0;
  const auto count = Counter(items);
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
  const std::optional<std::string_view> entry_path =
      index::EntryPath(path_prefix, /*names_only=*/true);
  // An array step: items may have several entries each.
  if (!entry_path) return true;
  if (std::optional<bool> known = write_state_->presence.SomeItemLacks(partition, *entry_path)) {
    return *known;
  }
  const index::KeyRange range = index::AllEntries(path_prefix);
  ORRERY_ASSIGN_OR_RETURN(
      std::optional<PresenceCount> counted,
      CountPresence(partition, *entry_path, run.page, [&]() -> Result<int64_t> {
        int64_t entries = 0;
        ORRERY_RETURN_IF_ERROR(store_.Scan(range.begin, range.end, Counter(entries)));
        run.page.index_entries += static_cast<size_t>(entries);
        return entries;
      }));
  return !counted || counted->entries < counted->items;
}

Result<std::optional<Container::PresenceCount>> Container::CountPresence(
    uint32_t partition, std::string_view path, FeedPage& page,
    const std::function<Result<int64_t>()>& count) const {
  ContainerWriteState& state = *write_state_;
  const auto known = [&]() -> std::optional<PresenceCount> {
    std::optional<int64_t> entries = state.presence.Entries(partition, path);
    std::optional<int64_t> items = state.presence.Items(partition);
    if (!entries || !items) return std::nullopt;
    return PresenceCount{*entries, *items};
  };
  if (std::optional<PresenceCount> counted = known()) return counted;
  // Counted while no write runs: each write is then either in the counts or applies
  // its change after them.
  return WithWritesHeld(state, [&]() -> Result<std::optional<PresenceCount>> {
    if (std::optional<PresenceCount> counted = known()) return counted;
    const uint64_t generation = state.index_generation.load();
    bool live = false;
    for (const PhysicalPartition& p : state.write_map->partitions()) live |= p.number == partition;
    // A partition split away meanwhile, or an index being rebuilt: nothing to count.
    if (!live || !state.index_ready.load()) return std::optional<PresenceCount>();
    // The store as it is now, not as the query's view saw it: writes since are held.
    const storage::Store::LatestReads latest;
    ORRERY_ASSIGN_OR_RETURN(const int64_t entries, count());
    std::optional<int64_t> items = state.presence.Items(partition);
    if (!items) {
      ORRERY_ASSIGN_OR_RETURN(items, CountPartitionItems(partition));
      page.index_entries += static_cast<size_t>(*items);
    }
    // A rebuild that began meanwhile (it does not wait for writes) made the count stale.
    const std::lock_guard rebuild(state.rebuild_mutex);
    if (state.index_ready.load() && state.index_generation.load() == generation) {
      state.presence.Learn(partition, path, entries, *items);
    }
    return std::optional<PresenceCount>(PresenceCount{entries, *items});
  });
}

}  // namespace orrery::engine
