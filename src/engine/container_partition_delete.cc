// Partition-key delete ("delete items by partition key value",
// how-to-delete-by-partition-key.md): "an asynchronous, background operation ... the
// effects are available immediately, as the documents to be deleted don't appear in the
// results of queries or read operations", "you can write a new document with the same ID
// and partition key ... without resulting in a conflict", "any new documents that come in
// aren't in scope", and it "aims to consume at most 10% of the total available RU/s".
//
// So a delete is a mark: the logical partition's EPK and the LSN at the time of the
// request. Every version of that partition at or below the LSN is gone (IsGone) from
// then on; versions written later are not. PurgeDeletedPartitions deletes the marked
// versions in the background, through the ordinary delete (index, change feed, sizes),
// and drops the mark once none is left and no write below its LSN is still in flight.
// The marks are meta keys, so a restart carries on where the purge was.

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>

#include "engine/container.h"
#include "engine/item_record.h"
#include "engine/throughput/cost_model.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

constexpr std::string_view kMarkPrefix = "partition-delete/";

// The share of a partition's RU/s the purge may spend, per second of its rounds.
constexpr double kShareOfThroughput = 0.1;

std::string MarkPrefix(uint32_t container) {
  return std::string(kMarkPrefix) + std::to_string(container) + "/";
}

}  // namespace

std::string Container::PartitionDeleteKey(std::string_view epk) const {
  return storage::keys::Meta(MarkPrefix(settings_.number) + std::string(epk));
}

void Container::AddPartitionDeletesDropToBatch(storage::WriteBatch& batch) const {
  const std::string begin = storage::keys::Meta(MarkPrefix(settings_.number));
  std::string end = begin;
  end.back() = static_cast<char>('/' + 1);
  batch.DeleteRange(begin, end);
}

bool Container::InDeletedPartition(std::string_view epk, uint64_t lsn) const {
  ContainerWriteState& state = *write_state_;
  if (!state.has_partition_deletes.load(std::memory_order_acquire)) return false;
  const std::lock_guard lock(state.partition_deletes_mutex);
  auto it = state.partition_deletes.find(epk);
  return it != state.partition_deletes.end() && lsn <= it->second;
}

bool Container::IsGone(std::string_view epk, const ItemRecordView& record) const {
  return IsExpired(record.json) || InDeletedPartition(epk, record.lsn);
}

Status Container::DeleteLogicalPartition(const partition::PartitionKeyValue& key) {
  ORRERY_ASSIGN_OR_RETURN(std::string epk, EpkOf(key));
  ContainerWriteState& state = *write_state_;
  // Every version written so far: the LSNs handed out up to now.
  const uint64_t lsn = current_lsn();
  const std::lock_guard lock(state.partition_deletes_mutex);
  auto it = state.partition_deletes.find(epk);
  const uint64_t mark = it == state.partition_deletes.end() ? lsn : std::max(it->second, lsn);
  storage::WriteBatch batch;
  batch.Put(PartitionDeleteKey(epk), std::to_string(mark));
  // Marked in the store first: a delete acknowledged is one a restart carries on.
  ORRERY_RETURN_IF_ERROR(store_.Write(batch));
  state.partition_deletes[epk] = mark;
  state.has_partition_deletes.store(true, std::memory_order_release);
  return Status::Ok();
}

Status Container::LoadPartitionDeletes() {
  ContainerWriteState& state = *write_state_;
  const std::string begin = storage::keys::Meta(MarkPrefix(settings_.number));
  std::string end = begin;
  end.back() = static_cast<char>('/' + 1);  // every key that starts with `begin`
  const std::lock_guard lock(state.partition_deletes_mutex);
  ORRERY_RETURN_IF_ERROR(store_.Scan(begin, end, [&](std::string_view key, std::string_view value) {
    uint64_t lsn = 0;
    const auto [at, error] = std::from_chars(value.data(), value.data() + value.size(), lsn);
    if (error == std::errc() && at == value.data() + value.size()) {
      state.partition_deletes[std::string(key.substr(begin.size()))] = lsn;
    }
    return true;
  }));
  state.has_partition_deletes.store(!state.partition_deletes.empty(), std::memory_order_release);
  return Status::Ok();
}

Result<Container::PurgeCount> Container::PurgeDeletedPartitions(size_t max_items) {
  PurgeCount count;
  ContainerWriteState& state = *write_state_;
  if (!state.has_partition_deletes.load() || store_.ReadOnly()) return count;
  std::map<std::string, uint64_t, std::less<>> marks;
  {
    const std::lock_guard lock(state.partition_deletes_mutex);
    marks = state.partition_deletes;
  }
  const uint32_t n = settings_.number;
  for (const auto& entry : marks) {
    // Named copies: clang 14 lets no lambda capture a structured binding (C++20 does).
    const std::string& epk = entry.first;
    const uint64_t mark = entry.second;
    // Every write below the mark is in the store: what the scan misses is not there.
    const bool settled = StableLsn() >= mark;
    const uint32_t partition = settings_.partitions.Owner(epk).number;
    double spendable = std::numeric_limits<double>::infinity();
    if (state.throughput.enforced()) {
      for (const throughput::PartitionUsage& usage : state.throughput.Usage()) {
        if (usage.partition == partition) spendable = kShareOfThroughput * usage.ru_per_second;
      }
    }
    std::vector<std::string> ids;
    ORRERY_RETURN_IF_ERROR(store_.Scan(
        storage::keys::ItemsFrom(n, epk) + '\0', storage::keys::ItemsFrom(n, epk) + '\x01',
        [&](std::string_view key, std::string_view value) {
          std::string_view item_epk, id;
          std::optional<ItemRecordView> record = DecodeItemRecord(value);
          if (record && record->lsn <= mark && storage::keys::ParseItem(key, item_epk, id)) {
            ids.emplace_back(id);
          }
          return count.items_read + ids.size() < max_items;
        },
        storage::Store::ScanMode::kBulk));
    if (ids.empty() && settled) {
      const std::lock_guard lock(state.partition_deletes_mutex);
      auto it = state.partition_deletes.find(epk);
      if (it != state.partition_deletes.end() && it->second == mark) {
        storage::WriteBatch batch;
        batch.Delete(PartitionDeleteKey(epk));
        ORRERY_RETURN_IF_ERROR(store_.Write(batch));
        state.partition_deletes.erase(it);
        state.has_partition_deletes.store(!state.partition_deletes.empty(),
                                          std::memory_order_release);
      }
      continue;
    }
    for (const std::string& id : ids) {
      const std::string key = KeyFor(epk, id);
      std::shared_lock split_lock = EnterWrite();
      std::unique_lock partition_lock = LockLogicalPartition(epk);
      std::lock_guard lock(StripeFor(key));
      CommitScope commit(*this);
      ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored, store_.Get(key));
      ++count.items_read;
      std::optional<ItemRecordView> record = stored ? DecodeItemRecord(*stored) : std::nullopt;
      if (!record || record->lsn > mark) continue;  // deleted or written again since
      const double charge = throughput::DeleteCharge(record->json.size(), 0);
      if (spendable < charge ||
          !state.throughput.TakeSpare(partition, charge, std::chrono::steady_clock::now())) {
        return count;  // the rest in a later round
      }
      spendable -= charge;
      storage::WriteBatch batch;
      Result<ItemResult> deleted =
          AddDeleteToBatch(epk, id, stored, std::nullopt, batch, nullptr, /*allow_gone=*/true);
      if (!deleted.ok()) continue;
      ORRERY_RETURN_IF_ERROR(store_.Write(batch));
      commit.Committed();
      state.throughput.ChargeBackground(partition, charge);
      ++count.purged;
    }
    if (count.items_read >= max_items) break;
  }
  return count;
}

}  // namespace orrery::engine
