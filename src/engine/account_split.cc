// Physical partition splits: online, crash-safe, and invisible to clients.
//
// A split of partition P at EPK `at` into children L (below `at`) and R:
//   1. an intent record (meta "split/<container number>") is synced;
//   2. while the write state's `split` is set, writes to P file their index and
//      change-feed entries under P and under their child, and CopyForSplit files every
//      existing item under its child (container_split.cc);
//   3. the commit, with writes held for a moment: one synced batch stores the container
//      record with the new partition map (P retired, its id still resolving to its
//      range), deletes P's entries and the intent. Items, logical partition sizes and
//      unique keys are keyed by EPK and do not move.
// On start an intent means the commit never happened: the children's entries are
// deleted and the split is as if never started. The intent's write also clears the
// children's ranges, for an earlier attempt whose undo failed (a full disk).

#include <algorithm>
#include <mutex>

#include "engine/account.h"
#include "engine/change_feed.h"
#include "engine/creation_order.h"
#include "engine/split_point.h"
#include "engine/writes_held.h"
#include "index/index_key.h"
#include "json/json.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

constexpr const char* kSplitIntentPrefix = "split/";

std::string IntentKey(uint32_t container) {
  return storage::keys::Meta(kSplitIntentPrefix + std::to_string(container));
}

// The children's entries of an undone split.
void AddChildDropToBatch(uint32_t container, uint32_t left, uint32_t right,
                         storage::WriteBatch& batch) {
  for (uint32_t child : {left, right}) {
    batch.DeleteRange(index::PartitionBegin(container, child),
                      index::PartitionBegin(container, child + 1));
    batch.DeleteRange(ChangeFeedBegin(container, child, 0), ChangeFeedEnd(container, child));
    batch.DeleteRange(CreationKey(container, child, 0), CreationEnd(container, child));
  }
}

}  // namespace

Status Account::UndoUnfinishedSplits() {
  std::vector<std::pair<std::string, json::Value>> intents;
  const std::string prefix = storage::keys::Meta(kSplitIntentPrefix);
  std::string end = prefix;
  end.back() = static_cast<char>(end.back() + 1);
  ORRERY_RETURN_IF_ERROR(store_->Scan(prefix, end, [&](std::string_view key, std::string_view v) {
    Result<json::Value> intent = json::Parse(v);
    if (intent.ok()) intents.emplace_back(std::string(key), std::move(*intent));
    return true;
  }));
  for (const auto& entry : intents) {
    const json::Value& intent = entry.second;
    storage::WriteBatch batch;
    const auto number = [&](const char* name) {
      const json::Value* v = intent.Find(name);
      return v && v->is_number() ? static_cast<uint32_t>(v->as_double()) : 0u;
    };
    AddChildDropToBatch(number("container"), number("left"), number("right"), batch);
    batch.Delete(entry.first);
    ORRERY_RETURN_IF_ERROR(store_->WriteSynced(batch));
  }
  return Status::Ok();
}

Status Account::SplitPartition(std::string_view database_id, std::string_view id, uint32_t number,
                               const std::string& at) {
  std::lock_guard one_at_a_time(split_mutex_);
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<Container> container, GetContainer(database_id, id));
  const std::shared_ptr<ContainerWriteState> state = container->write_state();
  const PartitionMap map = *state->write_map;
  const PhysicalPartition* parent = nullptr;
  for (const PhysicalPartition& p : map.partitions()) {
    if (p.number == number) parent = &p;
  }
  if (parent == nullptr) return Status::NotFound("No live partition " + std::to_string(number));
  if (at <= parent->min_inclusive ||
      (parent->max_exclusive != "FF" && at >= parent->max_exclusive)) {
    return Status::BadRequest("The split point is not inside the partition.");
  }
  const uint32_t c = container->settings().number;
  ContainerWriteState::SplitInProgress split{number, at, map.NextNumber(), map.NextNumber() + 1};

  storage::WriteBatch intent;
  // An attempt whose undo could not be written (a full disk) left entries under these
  // same child numbers, and its intent: start from empty children.
  AddChildDropToBatch(c, split.left, split.right, intent);
  intent.Put(IntentKey(c), json::Write(json::Value::MakeObject({
                               {"container", json::Value::Int(c)},
                               {"parent", json::Value::Int(split.parent)},
                               {"at", json::Value::String(at)},
                               {"left", json::Value::Int(split.left)},
                               {"right", json::Value::Int(split.right)},
                           })));
  ORRERY_RETURN_IF_ERROR(store_->WriteSynced(intent));
  const auto set_split = [&](std::optional<ContainerWriteState::SplitInProgress> value) {
    WithWritesHeld(*state, [&] { state->split = std::move(value); });
  };
  set_split(split);
  if (Status copied = container->CopyForSplit(number); !copied.ok()) {
    set_split(std::nullopt);
    storage::WriteBatch undo;
    AddChildDropToBatch(c, split.left, split.right, undo);
    undo.Delete(IntentKey(c));
    ORRERY_RETURN_IF_ERROR(store_->WriteSynced(undo));
    return copied;
  }

  // The commit. The catalog lock keeps the container record ours; the split lock held
  // exclusively keeps every write out while the map changes.
  const std::lock_guard writer(catalog_write_mutex_);  // account.h
  std::shared_lock catalog(mutex_);
  auto it = containers_.find(ContainerKey{std::string(database_id), std::string(id)});
  auto db = databases_.find(database_id);
  const bool gone =
      it == containers_.end() || db == databases_.end() || it->second->write_state() != state;
  // Not held across the synced commit: data requests take it to find their container.
  catalog.unlock();
  if (gone) {
    set_split(std::nullopt);
    storage::WriteBatch undo;
    AddChildDropToBatch(c, split.left, split.right, undo);
    undo.Delete(IntentKey(c));
    ORRERY_RETURN_IF_ERROR(store_->WriteSynced(undo));
    return Status::NotFound("The container was deleted during the split.");
  }
  ContainerSettings settings = it->second->settings();
  settings.partitions = map.Split(number, at, split.left, split.right);
  storage::WriteBatch commit;
  commit.Put(storage::keys::Container(database_id, id), json::Write(ContainerRecord(settings)));
  container->AddPartitionDropToBatch(number, commit);
  commit.Delete(IntentKey(c));
  ORRERY_RETURN_IF_ERROR(WithWritesHeld(*state, [&] {
    // Before the parent's entries go: a read that could miss them sees the bump after.
    state->partition_map_generation.fetch_add(1);
    Status written = WriteCatalog(commit);
    if (written.ok()) {
      state->write_map = std::make_shared<const PartitionMap>(settings.partitions);
      // Its entries are gone; the children count their paths when first queried.
      state->presence.Forget(number);
      state->splits.fetch_add(1);
    } else {
      // Nothing was dropped: the objects of before the split read what is there.
      state->partition_map_generation.fetch_sub(1);
    }
    state->split.reset();
    return written;
  }));
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<Container> replaced,
                          OpenContainer(std::move(settings), state));
  std::unique_lock publish(mutex_);
  ProvisionThroughput(*replaced, db->second);
  it->second = std::move(replaced);
  return Status::Ok();
}

Status Account::SplitWhereNeeded() {
  for (const std::shared_ptr<Container>& container : AllContainers()) {
    ORRERY_RETURN_IF_ERROR(SplitContainerWhereNeeded(container));
  }
  return GrowSharedThroughput();
}

// A database's shared throughput lives on partitions of its own (its budgets, which
// its containers' partitions draw from): a pending replace of it adds budgets until
// each serves at most 10,000 RU/s, then takes effect.
Status Account::GrowSharedThroughput() {
  const std::lock_guard writer(catalog_write_mutex_);  // account.h: the maps hold still
  for (auto& [db_id, db] : databases_) {
    const int64_t pending = db.pending_ru_per_second;
    if (pending == 0) continue;
    DatabaseEntry updated = db;
    if (updated.shared_throughput.manual) {
      updated.shared_throughput.manual = pending;
    } else {
      updated.shared_throughput.autoscale_max = pending;
    }
    updated.highest_ru_per_second = std::max(updated.highest_ru_per_second, pending);
    updated.pending_ru_per_second = 0;
    storage::WriteBatch batch;
    batch.Put(storage::keys::Database(db_id), json::Write(DatabaseRecord(updated)));
    ORRERY_RETURN_IF_ERROR(WriteCatalog(batch));
    const auto count =
        static_cast<size_t>((pending + kMaxPartitionThroughput - 1) / kMaxPartitionThroughput);
    updated.shared_budgets.clear();
    for (size_t i = 0; i < count; ++i) {
      updated.shared_budgets.push_back(std::make_shared<throughput::PartitionBudget>(
          static_cast<double>(pending) / static_cast<double>(count),
          std::chrono::steady_clock::now()));
    }
    std::unique_lock publish(mutex_);
    db = std::move(updated);
    for (const auto& [key, container] : containers_) {
      if (key.first == db_id) ProvisionThroughput(*container, db);
    }
  }
  return Status::Ok();
}

namespace {

// False when no partition can hold more than `split_bytes`: the largest one at the last
// reading plus everything written since stays below it. A write adds its bytes before
// it commits, so one not counted yet is not in any partition yet either.
bool MaySplitBySize(const ContainerWriteState& state, uint64_t split_bytes) {
  const int64_t largest = state.largest_partition_bytes.load();
  if (largest < 0) return true;
  const int64_t bound = largest + state.bytes_added_since_sizes_read.load();
  return static_cast<uint64_t>(bound) > split_bytes;
}

}  // namespace

Status Account::SplitContainerWhereNeeded(const std::shared_ptr<Container>& container) {
  const ContainerSettings& s = container->settings();
  const bool v2 = s.partition_key.is_hierarchical() || s.partition_key.version == 2;
  if (!v2 || !container->write_state()->index_ready) return Status::Ok();
  const auto& live = s.partitions.partitions();
  const int64_t servable = static_cast<int64_t>(live.size()) * kMaxPartitionThroughput;
  const bool for_throughput = s.pending_ru_per_second > servable;
  ContainerWriteState& state = *container->write_state();
  if (!for_throughput && !MaySplitBySize(state, options_.partition_split_bytes)) {
    return Status::Ok();
  }
  // Taken with no write in flight (each holds split_mutex shared), so that every byte
  // counted in `added` is in the store the read sees; bytes written after count again
  // next round.
  const int64_t added =
      WithWritesHeld(state, [&] { return state.bytes_added_since_sizes_read.load(); });
  ORRERY_ASSIGN_OR_RETURN(std::vector<Container::LogicalPartitionSize> sizes,
                          container->LogicalPartitionSizes());
  const std::vector<std::pair<int64_t, const PhysicalPartition*>> by_bytes =
      PartitionsByBytes(live, sizes);
  int64_t total = 0;
  for (const auto& size : sizes) total += size.bytes;
  // The total first: until the subtraction, the bound only overstates.
  state.container_bytes_at_sizes_read.store(total);
  state.bytes_added_since_sizes_read.fetch_sub(added);
  state.largest_partition_bytes.store(by_bytes.empty() ? 0 : by_bytes.front().first);
  for (const auto& [bytes, partition] : by_bytes) {
    const bool too_big = static_cast<uint64_t>(bytes) > options_.partition_split_bytes;
    if (!too_big && !for_throughput) continue;
    const std::string at = SplitPoint(*partition, sizes);
    if (at.empty()) continue;
    ORRERY_RETURN_IF_ERROR(SplitPartition(s.database_id, s.id, partition->number, at));
    if (for_throughput) return ApplyPendingThroughput(s.database_id, s.id);
    return Status::Ok();  // one split per container and round: the sizes changed
  }
  return Status::Ok();
}

}  // namespace orrery::engine
