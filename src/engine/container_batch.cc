// Container::ExecuteBatch: a transactional batch (wire-protocol.md §8.1). Every item it
// touches is locked first (stripes in ascending order, as every multi-stripe lock
// takes them), the operations run in order against the store plus what the earlier
// operations wrote, and the whole batch is one RocksDB write — or, when one operation
// fails, nothing is written.

#include <algorithm>

#include "engine/container.h"
#include "engine/item_record.h"

namespace orrery::engine {
namespace {

constexpr const char* kNotFound = "Entity with the specified id does not exist in the system.";

bool HasBody(BatchOperation::Kind kind) {
  return kind == BatchOperation::Kind::kCreate || kind == BatchOperation::Kind::kUpsert ||
         kind == BatchOperation::Kind::kReplace;
}

WriteKind WriteKindOf(BatchOperation::Kind kind) {
  switch (kind) {
    case BatchOperation::Kind::kUpsert:
      return WriteKind::kUpsert;
    case BatchOperation::Kind::kReplace:
    case BatchOperation::Kind::kPatch:
      return WriteKind::kReplace;
    default:
      return WriteKind::kCreate;
  }
}

}  // namespace

Result<std::vector<BatchOperationResult>> Container::ExecuteBatch(
    const partition::PartitionKeyValue& key, const std::vector<BatchOperation>& ops) {
  ORRERY_ASSIGN_OR_RETURN(std::string epk, EpkOf(key));
  std::vector<BatchOperationResult> results(ops.size());

  // The checks that need no lock, and the key of every item the batch touches.
  std::vector<std::optional<CheckedWrite>> checked(ops.size());
  std::vector<std::string> keys(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    if (!HasBody(ops[i].kind)) {
      keys[i] = KeyFor(epk, ops[i].id);
      continue;
    }
    ItemWriteRequest request{.kind = WriteKindOf(ops[i].kind),
                             .partition_key = key,
                             .url_id = ops[i].id,
                             .body = ops[i].body};
    Result<CheckedWrite> write = CheckWrite(request);
    if (!write.ok()) {
      // Reported when the batch reaches it; no later operation runs.
      results[i].status = write.status();
      continue;
    }
    keys[i] = write->key;
    checked[i] = std::move(*write);
  }
  std::vector<size_t> stripes;
  for (const std::string& k : keys) {
    if (!k.empty()) stripes.push_back(StripeIndex(k));
  }
  std::sort(stripes.begin(), stripes.end());
  stripes.erase(std::unique(stripes.begin(), stripes.end()), stripes.end());
  std::shared_lock split_lock = EnterWrite();
  std::unique_lock partition_lock = LockLogicalPartition(epk);
  std::vector<std::unique_lock<std::mutex>> locks;
  for (size_t s : stripes) locks.emplace_back(write_state_->stripes[s]);

  CommitScope commit(*this);
  PendingRecords pending;
  storage::WriteBatch batch;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (!results[i].status.ok()) return results;
    const BatchOperation& op = ops[i];
    ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored, StoredRecord(keys[i], &pending));
    Result<ItemResult> outcome = Status::BadRequest("Unknown batch operation.");
    switch (op.kind) {
      case BatchOperation::Kind::kRead: {
        std::optional<ItemRecordView> record = stored ? DecodeItemRecord(*stored) : std::nullopt;
        if (!record || IsGone(epk, *record)) {
          outcome = Status::NotFound(kNotFound);
          break;
        }
        ItemResult read;
        read.etag = std::string(record->etag);
        read.json = std::string(record->json);
        read.bytes = record->json.size();
        read.pkrange_id = write_state_->write_map->Owner(epk).id;
        read.lsn = current_lsn();
        results[i].not_modified =
            op.if_none_match && (*op.if_none_match == read.etag || *op.if_none_match == "*");
        outcome = std::move(read);
        break;
      }
      case BatchOperation::Kind::kDelete:
        outcome = AddDeleteToBatch(epk, op.id, stored, op.if_match, batch, &pending);
        if (outcome.ok()) pending[keys[i]] = std::nullopt;
        break;
      case BatchOperation::Kind::kPatch: {
        std::optional<ItemRecordView> record = stored ? DecodeItemRecord(*stored) : std::nullopt;
        if (!record || IsGone(epk, *record)) {
          outcome = Status::NotFound(kNotFound);
          break;
        }
        Result<std::string> body =
            PatchedBody(op.patch, record->json, record->etag, op.if_match, key, op.id);
        if (!body.ok()) {
          outcome = body.status();
          break;
        }
        ItemWriteRequest request{
            .kind = WriteKind::kReplace, .partition_key = key, .url_id = op.id, .body = *body};
        Result<CheckedWrite> write = CheckWrite(request);
        outcome = write.ok() ? AddWriteToBatch(request, std::move(*write), stored, batch, &pending)
                             : Result<ItemResult>(write.status());
        break;
      }
      default: {
        ItemWriteRequest request{.kind = WriteKindOf(op.kind),
                                 .partition_key = key,
                                 .url_id = op.id,
                                 .body = op.body,
                                 .if_match = op.if_match};
        outcome = AddWriteToBatch(request, std::move(*checked[i]), stored, batch, &pending);
        break;
      }
    }
    if (!outcome.ok()) {
      results[i].status = outcome.status();
      return results;
    }
    if (op.kind != BatchOperation::Kind::kRead && op.kind != BatchOperation::Kind::kDelete) {
      pending[keys[i]] =
          EncodeItemRecord(outcome->etag, outcome->json, outcome->lsn, outcome->indexed);
    }
    results[i].item = std::move(*outcome);
  }
  ORRERY_RETURN_IF_ERROR(store_.Write(batch));
  commit.Committed();
  return results;
}

}  // namespace orrery::engine
