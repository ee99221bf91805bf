// The size of every logical partition (key space 0x14: items and bytes per full
// partition key), kept in the same batch as each write: the 20 GB limit of a logical
// partition (403/1014, --logical-partition-max-bytes) and the partition statistics.

#include <algorithm>

#include "engine/container.h"
#include "engine/item_record.h"
#include "json/json.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

constexpr const char* kSizesMarkerPrefix = "logical-partition-sizes/";

std::string FormatBytes(uint64_t bytes) {
  if (bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + " GB";
  if (bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + " MB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

Status Container::AddSizeChange(std::string_view epk, const partition::PartitionKeyValue* new_key,
                                int64_t count_delta, int64_t bytes_delta,
                                storage::WriteBatch& batch, PendingRecords* pending) const {
  // A replace by a version of the same size changes nothing: no merge operand for the
  // memtable, the WAL and every later read of the counter to go through.
  if (count_delta == 0 && bytes_delta == 0 && new_key == nullptr) return Status::Ok();
  const std::string key = storage::keys::LogicalPartition(settings_.number, epk);
  storage::Counter delta{count_delta, bytes_delta,
                         new_key ? partition::ToHeaderJson(*new_key) : std::string()};
  const bool within_limit = bytes_delta <= 0 || CountGrowthWithinLimit(bytes_delta);
  if (!within_limit || pending != nullptr) {
    ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored, StoredRecord(key, pending));
    storage::Counter current =
        stored ? storage::DecodeCounter(*stored).value_or(storage::Counter{}) : storage::Counter{};
    if (bytes_delta > 0 &&
        current.bytes + bytes_delta > static_cast<int64_t>(settings_.logical_partition_max_bytes)) {
      return Status::Forbidden("Partition key reached maximum size of " +
                                   FormatBytes(settings_.logical_partition_max_bytes) +
                                   ". Learn more: https://aka.ms/CosmosDB/sql/errors/full-pk",
                               1014);
    }
    if (pending != nullptr) {
      // Later operations of the same batch see this one.
      current.count += count_delta;
      current.bytes += bytes_delta;
      (*pending)[key] = storage::EncodeCounter(current);
    }
  }
  batch.AddToCounter(key, delta);
  return Status::Ok();
}

bool Container::CountGrowthWithinLimit(int64_t bytes_delta) const {
  ContainerWriteState& state = *write_state_;
  // Counted before the check, so of two concurrent writes the later one sees both.
  const int64_t added = state.bytes_added_since_sizes_read.fetch_add(bytes_delta) + bytes_delta;
  const int64_t total = state.container_bytes_at_sizes_read.load();
  return total >= 0 &&
         static_cast<uint64_t>(total + added) <= settings_.logical_partition_max_bytes;
}

Result<std::vector<Container::LogicalPartitionSize>> Container::LogicalPartitionSizes() const {
  std::vector<LogicalPartitionSize> out;
  ORRERY_RETURN_IF_ERROR(
      store_.Scan(storage::keys::LogicalPartitionsBegin(settings_.number),
                  storage::keys::LogicalPartitionsEnd(settings_.number),
                  [&](std::string_view key, std::string_view value) {
                    std::optional<storage::Counter> c = storage::DecodeCounter(value);
                    if (c && c->count > 0) {
                      out.push_back({std::string(storage::keys::LogicalPartitionEpk(key)), c->count,
                                     c->bytes, std::move(c->label)});
                    }
                    return true;
                  }));
  return out;
}

std::string Container::SizesMarkerKey() const {
  return storage::keys::Meta(kSizesMarkerPrefix + std::to_string(settings_.number));
}

Status Container::EnsureSizesCounted() {
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> marker, store_.Get(SizesMarkerKey()));
  if (marker) return Status::Ok();
  // Data written before the sizes were kept: count them once, before any write runs.
  std::map<std::string, storage::Counter> sizes;
  ORRERY_RETURN_IF_ERROR(store_.Scan(
      storage::keys::ItemsFrom(settings_.number, ""), storage::keys::ItemsEnd(settings_.number),
      [&](std::string_view key, std::string_view value) {
        std::string_view epk, id;
        std::optional<ItemRecordView> record = DecodeItemRecord(value);
        if (!storage::keys::ParseItem(key, epk, id) || !record) return true;
        storage::Counter& c = sizes[std::string(epk)];
        if (c.label.empty()) {
          Result<json::Value> item = json::Parse(record->json);
          Result<partition::PartitionKeyValue> pk =
              item.ok() ? partition::ExtractFromItem(*item, settings_.partition_key)
                        : Result<partition::PartitionKeyValue>(item.status());
          if (pk.ok()) c.label = partition::ToHeaderJson(*pk);
        }
        ++c.count;
        c.bytes += static_cast<int64_t>(record->json.size());
        return true;
      },
      storage::Store::ScanMode::kBulk));
  storage::WriteBatch batch;
  batch.DeleteRange(storage::keys::LogicalPartitionsBegin(settings_.number),
                    storage::keys::LogicalPartitionsEnd(settings_.number));
  for (const auto& [epk, counter] : sizes) {
    batch.Put(storage::keys::LogicalPartition(settings_.number, epk),
              storage::EncodeCounter(counter));
  }
  batch.Put(SizesMarkerKey(), "1");
  return store_.WriteSynced(batch);
}

}  // namespace orrery::engine
