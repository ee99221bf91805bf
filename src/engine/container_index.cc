// Keeping a container's range index in step with its items: the entries of each write,
// and the rebuild after an indexing-policy change.

#include <algorithm>
#include <chrono>
#include <iterator>
#include <thread>

#include "engine/container.h"
#include "engine/full_text_index.h"
#include "engine/item_record.h"
#include "engine/throughput/cost_model.h"
#include "index/index_key.h"
#include "index/index_terms.h"
#include "index/spatial_terms.h"
#include "index/vector_terms.h"
#include "json/json.h"
#include "query/vector_policy.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

// 0x11 | container (4) | partition (4) | the entry's kind: where a full-text entry's
// marker is (full_text_index.h).
constexpr size_t kFullTextMarkerAt = 9;

}  // namespace

std::vector<std::string> Container::IndexKeysOf(const json::Value& item, std::string_view epk,
                                                std::string_view id) const {
  const index::IndexingPolicy& policy = *write_state_->write_policy;
  if (!policy.enabled()) return {};
  const query::ComputedProperties& computed = *write_state_->write_computed;
  const json::Value computed_values =
      computed.empty() ? json::Value::MakeObject() : computed.ValuesOf(item);
  std::vector<std::string> keys;
  for (uint32_t partition : WritePartitionsOf(epk)) {
    const index::ItemLocation where{settings_.number, partition, epk, id};
    std::vector<std::string> more = index::EntryKeys(policy, item, computed_values, where);
    std::vector<std::string> spatial = index::SpatialEntryKeys(policy, item, where);
    more.insert(more.end(), std::make_move_iterator(spatial.begin()),
                std::make_move_iterator(spatial.end()));
    if (!policy.full_text_paths().empty()) {
      AppendFullTextEntryKeys(policy, *full_text_, item, where, more);
    }
    if (!vectors_->indexes().empty()) {
      std::vector<std::string> vectors = index::VectorEntryKeys(*vectors_, item, where);
      more.insert(more.end(), std::make_move_iterator(vectors.begin()),
                  std::make_move_iterator(vectors.end()));
    }
    if (keys.empty()) {
      keys = std::move(more);  // the one partition of almost every write
      continue;
    }
    keys.insert(keys.end(), std::make_move_iterator(more.begin()),
                std::make_move_iterator(more.end()));
  }
  // Partitions in increasing order give sorted keys, except while a split files under
  // a child as well.
  if (!std::is_sorted(keys.begin(), keys.end())) std::sort(keys.begin(), keys.end());
  return keys;
}

std::vector<std::string> Container::IdIndexKeysOf(const json::Value& item, std::string_view epk,
                                                  std::string_view id) const {
  // A policy of nothing but what every policy indexes (the id).
  static const index::IndexingPolicy kNothingElse =
      *index::IndexingPolicy::Parse(*json::Parse(R"({"excludedPaths":[{"path":"/*"}]})"));
  if (!write_state_->write_policy->enabled()) return {};
  json::Value only_id = json::Value::MakeObject();
  if (const json::Value* value = item.Find("id")) only_id.Set("id", *value);
  const json::Value no_computed = json::Value::MakeObject();
  std::vector<std::string> keys;
  for (uint32_t partition : WritePartitionsOf(epk)) {
    std::vector<std::string> more =
        index::EntryKeys(kNothingElse, only_id, no_computed,
                         index::ItemLocation{settings_.number, partition, epk, id});
    keys.insert(keys.end(), std::make_move_iterator(more.begin()),
                std::make_move_iterator(more.end()));
  }
  if (!std::is_sorted(keys.begin(), keys.end())) std::sort(keys.begin(), keys.end());
  return keys;
}

std::vector<std::string> Container::IndexKeysOf(const ItemRecordView& record, std::string_view epk,
                                                std::string_view id) const {
  if (record.indexed) return IndexKeysOf(record.json, epk, id);
  Result<json::Value> item = json::Parse(record.json);
  if (!item.ok()) return {};
  return IdIndexKeysOf(*item, epk, id);
}

std::vector<std::string> Container::IndexKeysOf(std::string_view json, std::string_view epk,
                                                std::string_view id) const {
  if (!write_state_->write_policy->enabled()) return {};
  Result<json::Value> item = json::Parse(json);
  if (!item.ok()) return {};
  return IndexKeysOf(*item, epk, id);
}

throughput::IndexWrite Container::IndexWriteOf(const std::vector<std::string>& keys,
                                               size_t partitions) const {
  throughput::IndexWrite write;
  for (const std::string& key : keys) {
    if (const std::optional<uint32_t> vector_index = index::VectorIndexOfKey(key)) {
      const query::VectorIndexSpec& spec = vectors_->indexes()[*vector_index];
      const query::VectorEmbedding* embedding = vectors_->Find(spec.segments);
      if (embedding == nullptr) continue;
      const double kb = embedding->dimensions * query::ElementBytes(embedding->data_type) / 1024.0;
      (spec.type == query::VectorIndexType::kDiskAnn ? write.graph_vector_kb : write.vector_kb) +=
          kb;
    } else if (key.size() <= kFullTextMarkerAt ||
               key[kFullTextMarkerAt] != kFullTextFrequencyMarker) {
      ++write.terms;  // a stem's term-frequency twin is the same term, kept twice
    }
  }
  // A write filed under a splitting partition and its child is charged once.
  const auto share = static_cast<double>(std::max<size_t>(1, partitions));
  write.terms /= std::max<size_t>(1, partitions);
  write.vector_kb /= share;
  write.graph_vector_kb /= share;
  return write;
}

void Container::AddIndexChanges(storage::WriteBatch& batch,
                                const std::vector<std::string>& old_keys,
                                const std::vector<std::string>& new_keys,
                                ContainerWriteState* presence) {
  if (presence != nullptr && !presence->presence.CountsAny()) presence = nullptr;
  // Both are sorted: touch only the entries that differ between the versions. One merge
  // walk, writing straight into the batch: no copy of the keys (a create's are all new,
  // and one of them holds every indexed string value whole).
  auto old_it = old_keys.begin();
  auto new_it = new_keys.begin();
  while (old_it != old_keys.end() || new_it != new_keys.end()) {
    if (new_it == new_keys.end() || (old_it != old_keys.end() && *old_it < *new_it)) {
      if (presence != nullptr) NoteEntryChange(*presence, *old_it, -1);
      batch.Delete(*old_it++);
    } else if (old_it == old_keys.end() || *new_it < *old_it) {
      if (presence != nullptr) NoteEntryChange(*presence, *new_it, +1);
      batch.Put(*new_it++, "");
    } else {
      ++old_it;
      ++new_it;
    }
  }
}

std::string Container::IndexMarkerKey() const {
  return storage::keys::Meta("index-policy/" + std::to_string(settings_.number));
}

std::string Container::IndexMarkerValue() const {
  const json::Value* policy = settings_.resource.Find("indexingPolicy");
  std::string marker = policy ? json::Write(*policy) : std::string();
  // The index holds computed values too: a change of the definitions rebuilds it.
  // Without computed properties the marker stays the policy alone, as stores written
  // before them hold.
  if (!computed_->empty()) marker += json::Write(*settings_.resource.Find("computedProperties"));
  // Indexes built before composite-index entries existed lack them: a policy with
  // composites is current only once rebuilt with them (docs/storage-format.md).
  if (!indexing_.composite_indexes().empty()) marker += "\n+composite-entries";
  // Likewise full-text indexes, whose entries were not written before the inverted index.
  if (!indexing_.full_text_paths().empty()) {
    marker += "\n+full-text-entries+word-counts+term-frequencies";
  }
  // Range-index entries written before long strings were bounded hold them whole; a
  // lookup of a long string now reads its bounded group (index_key.h).
  if (indexing_.enabled()) marker += "\n+bounded-strings";
  // Likewise Geometry spatial indexes, whose entries were not written before their grid.
  if (std::any_of(indexing_.spatial_indexes().begin(), indexing_.spatial_indexes().end(),
                  [](const index::SpatialIndex& index) { return index.box.has_value(); })) {
    marker += "\n+geometry-cells";
  }
  return marker;
}

Container::IndexReadiness Container::ReadinessBeforeView() const {
  IndexReadiness readiness;
  // The generation first: BeginIndexRebuild clears `ready` before it bumps it.
  readiness.generation = write_state_->index_generation.load();
  readiness.ready = write_state_->index_ready.load();
  return readiness;
}

bool Container::IndexServesView(const IndexReadiness& before) const {
  return before.ready && write_state_->index_generation.load() == before.generation;
}

Result<bool> Container::IndexIsCurrent() const {
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> marker, store_.Get(IndexMarkerKey()));
  return marker && *marker == IndexMarkerValue();
}

uint64_t Container::BeginIndexRebuild() {
  ContainerWriteState& state = *write_state_;
  // No write is in flight while the policy writers use changes.
  const std::vector<std::unique_lock<std::mutex>> stripes = HoldEveryStripe();
  std::lock_guard rebuild(state.rebuild_mutex);
  // Every entry is written again: counts of paths start over once the index is ready.
  state.presence.ForgetAll();
  state.write_policy = std::make_shared<const index::IndexingPolicy>(indexing_);
  state.write_computed = computed_;
  state.index_ready = false;
  state.reindex_percent = 0;
  return ++state.index_generation;
}

void Container::StopIndexRebuild() const {
  std::lock_guard rebuild(write_state_->rebuild_mutex);
  ++write_state_->index_generation;
}

bool Container::WaitForSpareThroughput(std::string_view epk, std::string_view id,
                                       std::string_view stored, uint64_t generation) const {
  ContainerWriteState& state = *write_state_;
  if (!state.throughput.enforced()) return true;
  std::optional<ItemRecordView> record = DecodeItemRecord(stored);
  if (!record) return true;
  double charge = 0;
  {
    std::shared_lock split_lock = EnterWrite();
    charge = throughput::kWritePerIndexTermCharge *
             static_cast<double>(IndexKeysOf(*record, epk, id).size());
  }
  const uint32_t partition = settings_.partitions.Owner(epk).number;
  while (!state.throughput.TakeSpare(partition, charge, std::chrono::steady_clock::now())) {
    if (state.index_generation.load() != generation) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

bool Container::WaitForRoom(uint64_t generation) const {
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    if (write_state_->index_generation.load() != generation) return false;
  } while (store_.OutOfSpace());
  return true;
}

Status Container::RebuildIndex(uint64_t generation) const {
  ContainerWriteState& state = *write_state_;
  // Writes `batch` unless the rebuild was superseded; false when it was (status ok) or
  // the write failed (status says why).
  Status status;
  const auto write_if_current = [&](storage::WriteBatch& batch) {
    std::lock_guard rebuild(state.rebuild_mutex);
    status = Status::Ok();
    if (state.index_generation.load() != generation) return false;
    status = store_.Write(batch);
    return status.ok();
  };
  // A write that found the disk full is written again once there is room, holding no
  // lock meanwhile: the rebuild outlives a full disk instead of leaving queries to scan
  // until a restart.
  const auto out_of_room = [&] { return status.code() == StatusCode::kInsufficientStorage; };

  storage::WriteBatch clear;
  clear.DeleteRange(index::ContainerBegin(settings_.number), index::ContainerEnd(settings_.number));
  while (!write_if_current(clear)) {
    if (!out_of_room()) return status;
    if (!WaitForRoom(generation)) return Status::Ok();
  }

  const std::string begin = storage::keys::ItemsFrom(settings_.number, "");
  const std::string end = storage::keys::ItemsEnd(settings_.number);
  size_t total = 0;
  ORRERY_RETURN_IF_ERROR(store_.Scan(begin, end, [&](std::string_view, std::string_view) {
    ++total;
    return true;
  }));
  size_t done = 0;
  bool finished = true;
  std::string from = begin;
  for (;;) {
    std::string stalled_at;  // the item whose write found the disk full
    ORRERY_RETURN_IF_ERROR(ForEachItemUnderLock(
        from, end,
        // The re-index runs on the partition's spare throughput, after user requests
        // (ru-model.md a.2 row 25), and waits (holding no lock) while there is none.
        [&](std::string_view epk, std::string_view id, std::string_view scanned) {
          finished = WaitForSpareThroughput(epk, id, scanned, generation);
          return finished;
        },
        // From the item's current version, so no entry of a stale version survives.
        [&](std::string_view epk, std::string_view id, const ItemRecordView& record) {
          storage::WriteBatch batch;
          AddIndexChanges(batch, {}, IndexKeysOf(record, epk, id));
          if (!write_if_current(batch)) {
            if (out_of_room()) {
              stalled_at = KeyFor(epk, id);
            } else {
              finished = false;
            }
            return false;
          }
          ++done;
          state.reindex_percent =
              static_cast<int>(std::min<size_t>(99, done * 100 / std::max<size_t>(total, 1)));
          return true;
        }));
    if (stalled_at.empty()) break;
    if (!WaitForRoom(generation)) return Status::Ok();
    from = std::move(stalled_at);
  }
  ORRERY_RETURN_IF_ERROR(status);
  if (!finished) return Status::Ok();

  storage::WriteBatch marker;
  marker.Put(IndexMarkerKey(), IndexMarkerValue());
  for (;;) {
    {
      // Ready only under the lock that a newer rebuild takes to begin.
      std::lock_guard rebuild(state.rebuild_mutex);
      if (state.index_generation.load() != generation) return Status::Ok();
      Status written = store_.WriteSynced(marker);
      if (written.ok()) {
        state.reindex_percent = 100;
        state.index_ready = true;
        return Status::Ok();
      }
      if (written.code() != StatusCode::kInsufficientStorage) return written;
    }
    if (!WaitForRoom(generation)) return Status::Ok();
  }
}

}  // namespace orrery::engine
