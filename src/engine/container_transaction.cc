// Container::Transaction (container.h): the writes of one logical partition, made by a
// script, kept aside and written at once, as ExecuteBatch writes a batch.

#include <algorithm>
#include <cstdlib>

#include "engine/container.h"
#include "engine/item_record.h"
#include "engine/resource_id.h"
#include "json/json.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

constexpr const char* kNotFound = "Entity with the specified id does not exist in the system.";
// The service's words for a script's write to another logical partition.
constexpr const char* kOtherPartition =
    "Requests originating from scripts cannot reference partition keys other than the one for "
    "which client request was submitted.";

}  // namespace

void Container::SerializePartitionWrites() {
  if (write_state_->partition_writes_serialized.load()) return;
  // Every write holds the split lock shared from before it looks at the flag until it
  // is in the store: taking it exclusively once waits out the writes that saw it unset.
  std::unique_lock every_write(write_state_->split_mutex);
  write_state_->partition_writes_serialized.store(true);
}

Result<std::unique_ptr<Container::Transaction>> Container::BeginTransaction(
    const partition::PartitionKeyValue& key) {
  ORRERY_ASSIGN_OR_RETURN(std::string epk, EpkOf(key));
  SerializePartitionWrites();
  return std::unique_ptr<Transaction>(new Transaction(*this, key, std::move(epk)));
}

Container::Transaction::Transaction(Container& container, partition::PartitionKeyValue key,
                                    std::string epk)
    : container_(container), key_(std::move(key)), epk_(std::move(epk)) {
  scope_.exact_epk = epk_;
  scope_.range = EpkRange{epk_, epk_ + "\x01"};
  split_lock_ = container_.EnterWrite();
  partition_lock_ = container_.LockLogicalPartition(epk_);
  // One stripe held throughout: a policy change takes every stripe, so the policy the
  // operations index under stays (the stripes of the items written are taken at commit,
  // in ascending order, this one let go first).
  anchor_lock_ = std::unique_lock(container_.StripeFor(container_.KeyFor(epk_, "")));
  policy_ = container_.write_state_->write_policy;
  commit_.emplace(container_);
}

Container::Transaction::~Transaction() = default;

Result<ItemResult> Container::Transaction::Write(ItemWriteRequest request) {
  request.partition_key = key_;
  Result<CheckedWrite> checked = container_.CheckWrite(request);
  if (!checked.ok()) {
    // The item's own partition key value differs from the call's.
    if (checked.status().substatus() == 1001) return Status::BadRequest(kOtherPartition);
    return checked.status();
  }
  if (checked->epk != epk_) return Status::BadRequest(kOtherPartition);
  const std::string key = checked->key;
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                          container_.StoredRecord(key, &pending_));
  const size_t batch_before = batch_.count();
  Result<ItemResult> written =
      container_.AddWriteToBatch(request, std::move(*checked), stored, batch_, &pending_);
  if (!written.ok()) {
    PoisonIfChanged(batch_before, written.status());
    return written.status();
  }
  ItemResult result = std::move(*written);
  pending_[key] = EncodeItemRecord(result.etag, result.json, result.lsn, result.indexed);
  keys_.push_back(key);
  if (Result<json::Value> item = json::Parse(result.json); item.ok()) {
    if (const json::Value* rid = item->Find("_rid"); rid != nullptr && rid->is_string()) {
      const json::Value* id = item->Find("id");
      if (id != nullptr && id->is_string()) written_rids_[rid->as_string()] = id->as_string();
    }
  }
  return result;
}

Result<ItemResult> Container::Transaction::Delete(std::string_view id,
                                                  std::optional<std::string_view> if_match) {
  const std::string key = container_.KeyFor(epk_, id);
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                          container_.StoredRecord(key, &pending_));
  const size_t batch_before = batch_.count();
  Result<ItemResult> deleted =
      container_.AddDeleteToBatch(epk_, id, stored, if_match, batch_, &pending_);
  if (!deleted.ok()) {
    PoisonIfChanged(batch_before, deleted.status());
    return deleted.status();
  }
  ItemResult result = std::move(*deleted);
  pending_[key] = std::nullopt;
  keys_.push_back(key);
  return result;
}

Result<Container::ReadResult> Container::Transaction::Read(
    std::string_view id, std::optional<std::string_view> if_none_match) {
  const std::string key = container_.KeyFor(epk_, id);
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                          container_.StoredRecord(key, &pending_));
  std::optional<ItemRecordView> record = stored ? DecodeItemRecord(*stored) : std::nullopt;
  if (!record || container_.IsGone(epk_, *record)) return Status::NotFound(kNotFound);
  ReadResult out;
  out.item.etag = std::string(record->etag);
  out.item.json = std::string(record->json);
  out.item.bytes = record->json.size();
  out.item.pkrange_id = container_.write_state_->write_map->Owner(epk_).id;
  out.item.lsn = container_.current_lsn();
  out.not_modified = if_none_match && (*if_none_match == out.item.etag || *if_none_match == "*");
  return out;
}

// Continuations of pages read over the transaction's own writes: an offset.
constexpr std::string_view kOverlayContinuation = "orrery-tx:";

Result<FeedPage> Container::Transaction::ReadFeed(int max_items,
                                                  std::string_view continuation) const {
  if (!WroteItems() && !continuation.starts_with(kOverlayContinuation)) {
    return container_.ReadFeed(scope_, max_items, continuation);
  }
  ORRERY_ASSIGN_OR_RETURN(std::vector<std::string> documents, DocumentsAsWritten());
  return PageOf(std::move(documents), max_items, continuation);
}

Result<FeedPage> Container::Transaction::Query(const query::CompiledQuery& query, int max_items,
                                               std::string_view continuation) const {
  if (!WroteItems() && !continuation.starts_with(kOverlayContinuation)) {
    return container_.Query(query, scope_, max_items, continuation);
  }
  // The partition as this transaction has written it, each item evaluated in turn.
  ORRERY_ASSIGN_OR_RETURN(std::vector<std::string> documents, DocumentsAsWritten());
  std::vector<query::Row> rows;
  size_t loaded_bytes = 0;
  for (const std::string& text : documents) {
    loaded_bytes += text.size();
    ORRERY_ASSIGN_OR_RETURN(json::Value document, json::Parse(text));
    ORRERY_RETURN_IF_ERROR(query.EvaluateDocument(document, rows));
  }
  ORRERY_ASSIGN_OR_RETURN(std::vector<json::Value> results, query.Finish(std::move(rows)));
  std::vector<std::string> texts;
  texts.reserve(results.size());
  for (const json::Value& result : results) texts.push_back(json::Write(result));
  ORRERY_ASSIGN_OR_RETURN(FeedPage page, PageOf(std::move(texts), max_items, continuation));
  page.loaded_count = documents.size();
  page.loaded_bytes = loaded_bytes;
  return page;
}

bool Container::Transaction::WroteItems() const { return !keys_.empty(); }

Result<std::vector<std::string>> Container::Transaction::DocumentsAsWritten() const {
  // In creation order (the rid's number), as the service returns a partition's items.
  std::map<uint64_t, std::string> by_number;
  const std::string prefix = storage::keys::ItemsFrom(container_.settings_.number, "");
  const auto add = [&](std::string_view json) {
    Result<json::Value> item = json::Parse(json);
    if (!item.ok()) return;
    const json::Value* rid = item->Find("_rid");
    if (rid == nullptr || !rid->is_string()) return;
    by_number.emplace(RidOrder(rid->as_string()), std::string(json));
  };
  ORRERY_RETURN_IF_ERROR(
      container_.ScanScope(scope_, "", [&](std::string_view suffix, std::string_view json) {
        if (pending_.count(prefix + std::string(suffix)) == 0) add(json);
        return true;
      }));
  for (const std::string& key : keys_) {
    auto it = pending_.find(key);
    if (it == pending_.end() || !it->second) continue;
    std::optional<ItemRecordView> record = DecodeItemRecord(*it->second);
    if (record) add(record->json);
  }
  std::vector<std::string> out;
  out.reserve(by_number.size());
  for (auto& [number, json] : by_number) out.push_back(std::move(json));
  return out;
}

Result<FeedPage> Container::Transaction::PageOf(std::vector<std::string> results, int max_items,
                                                std::string_view continuation) {
  size_t offset = 0;
  if (continuation.starts_with(kOverlayContinuation)) {
    offset = static_cast<size_t>(std::strtoull(
        std::string(continuation.substr(kOverlayContinuation.size())).c_str(), nullptr, 10));
  }
  FeedPage page;
  const size_t end = std::min(results.size(), offset + static_cast<size_t>(std::max(max_items, 1)));
  for (size_t i = offset; i < end; ++i) page.Add(std::move(results[i]));
  if (end < results.size())
    page.continuation = std::string(kOverlayContinuation) + std::to_string(end);
  return page;
}

Result<std::optional<std::string>> Container::Transaction::IdOfRid(std::string_view rid) const {
  auto written = written_rids_.find(std::string(rid));
  if (written != written_rids_.end()) return std::optional<std::string>(written->second);
  return container_.ItemIdOfRid(rid);
}

void Container::Transaction::PoisonIfChanged(size_t batch_count_before, const Status& failure) {
  // An operation that failed after adding to the batch (a logical partition's size limit,
  // checked after its unique keys) leaves it half-made: the script may go on, but the
  // transaction cannot be committed.
  if (batch_.count() != batch_count_before && poisoned_.ok()) poisoned_ = failure;
}

Status Container::Transaction::Commit() {
  if (committed_) return Status::Ok();
  committed_ = true;
  ORRERY_RETURN_IF_ERROR(poisoned_);
  if (keys_.empty()) return Status::Ok();
  std::vector<size_t> stripes;
  for (const std::string& key : keys_) stripes.push_back(container_.StripeIndex(key));
  std::sort(stripes.begin(), stripes.end());
  stripes.erase(std::unique(stripes.begin(), stripes.end()), stripes.end());
  anchor_lock_.unlock();
  std::vector<std::unique_lock<std::mutex>> locks;
  for (size_t s : stripes) locks.emplace_back(container_.write_state_->stripes[s]);
  if (container_.write_state_->write_policy != policy_) {
    return Status::RetryWith(
        "The container's indexing policy changed while the script ran; run it again.");
  }
  ORRERY_RETURN_IF_ERROR(container_.store_.Write(batch_));
  commit_->Committed();
  return Status::Ok();
}

}  // namespace orrery::engine
