#include "engine/container.h"

#include <functional>

#include "common/encoding.h"
#include "engine/change_feed.h"
#include "engine/continuation_token.h"
#include "engine/creation_order.h"
#include "engine/etag.h"
#include "engine/expiry_index.h"
#include "engine/item_record.h"
#include "engine/item_rules.h"
#include "engine/resource_id.h"
#include "index/index_key.h"
#include "json/json.h"
#include "query/full_text_policy.h"
#include "query/vector_policy.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

constexpr const char* kPartitionKeyMismatch =
    "PartitionKey extracted from document doesn't match the one specified in the header. "
    "Learn more: https://aka.ms/CosmosDB/sql/errors/wrong-pk-value";
constexpr const char* kNotFound = "Entity with the specified id does not exist in the system.";
constexpr const char* kConflict = "Entity with the specified id already exists in the system.";
constexpr const char* kPreconditionFailed =
    "Operation cannot be performed because one of the specified precondition is not met.";

// The policy was validated when the container was created or replaced; a record
// that somehow fails to parse falls back to the default (index everything).
index::IndexingPolicy ParsePolicy(const json::Value& resource,
                                  const query::ComputedProperties& computed) {
  index::IndexingPolicy out;
  if (const json::Value* policy = resource.Find("indexingPolicy")) {
    Result<index::IndexingPolicy> parsed = index::IndexingPolicy::Parse(*policy);
    if (parsed.ok()) out = std::move(*parsed);
  }
  out.set_computed_properties(computed.names());
  return out;
}

// Validated when the container was created or replaced; a record that somehow fails
// to compile has none.
std::shared_ptr<const query::ComputedProperties> CompileComputedProperties(
    const json::Value& resource) {
  auto compiled = query::ComputedProperties::Compile(resource.Find("computedProperties"));
  return compiled.ok() ? std::move(*compiled) : std::make_shared<query::ComputedProperties>();
}

// Validated when the container was created (and it cannot be changed).
std::shared_ptr<const query::VectorPolicy> ParseVectorPolicy(const json::Value& resource) {
  const json::Value* indexing = resource.Find("indexingPolicy");
  auto parsed = query::VectorPolicy::Parse(
      resource.Find("vectorEmbeddingPolicy"),
      indexing != nullptr && indexing->is_object() ? indexing->Find("vectorIndexes") : nullptr);
  return parsed.ok() ? std::move(*parsed) : std::make_shared<query::VectorPolicy>();
}

// Validated when the container was created or replaced.
std::shared_ptr<const query::FullTextPolicy> ParseFullTextPolicy(const json::Value& resource) {
  const json::Value* indexing = resource.Find("indexingPolicy");
  auto parsed = query::FullTextPolicy::Parse(
      resource.Find("fullTextPolicy"),
      indexing != nullptr && indexing->is_object() ? indexing->Find("fullTextIndexes") : nullptr);
  return parsed.ok() ? std::move(*parsed) : std::make_shared<query::FullTextPolicy>();
}

// Validated when the container was created (and it cannot be replaced).
UniqueKeyPolicy ParseUniqueKeys(const json::Value& resource) {
  Result<UniqueKeyPolicy> parsed = UniqueKeyPolicy::Parse(resource.Find("uniqueKeyPolicy"));
  return parsed.ok() ? std::move(*parsed) : UniqueKeyPolicy();
}

// Validated when the container was created; it cannot be replaced.
spatial::CoordinateSystem CoordinateSystemOf(const json::Value& resource) {
  const json::Value* config = resource.Find("geospatialConfig");
  const json::Value* type =
      config != nullptr && config->is_object() ? config->Find("type") : nullptr;
  return type != nullptr && type->is_string() && type->as_string() == "Geometry"
             ? spatial::CoordinateSystem::kGeometry
             : spatial::CoordinateSystem::kGeography;
}

}  // namespace

Container::Container(ContainerSettings settings, storage::Store& store, const Clock& clock,
                     std::shared_ptr<ContainerWriteState> write_state)
    : settings_(std::move(settings)),
      computed_(CompileComputedProperties(settings_.resource)),
      indexing_(ParsePolicy(settings_.resource, *computed_)),
      vectors_(ParseVectorPolicy(settings_.resource)),
      full_text_(ParseFullTextPolicy(settings_.resource)),
      coordinate_system_(CoordinateSystemOf(settings_.resource)),
      // Validated when the container was created; it cannot be replaced.
      unique_keys_(ParseUniqueKeys(settings_.resource)),
      default_ttl_(ParseDefaultTtl(settings_.resource)),
      store_(store),
      clock_(clock),
      write_state_(std::move(write_state)),
      partition_map_generation_(write_state_->partition_map_generation.load()),
      graphs_(MakeVectorGraphs(*vectors_)) {
  // A new container's first Container object: writers start with its policy. A
  // replaced container keeps the old policy until BeginIndexRebuild switches it.
  if (!write_state_->write_policy) {
    write_state_->write_policy = std::make_shared<const index::IndexingPolicy>(indexing_);
    write_state_->write_computed = computed_;
  }
  if (!write_state_->write_map) {
    write_state_->write_map = std::make_shared<const PartitionMap>(settings_.partitions);
  }
}

std::vector<const PhysicalPartition*> Container::PartitionsIn(const ReadScope& scope) const {
  std::vector<const PhysicalPartition*> out;
  for (const PhysicalPartition& p : settings_.partitions.partitions()) {
    if (Intersect(scope.range, EpkRange{p.min_inclusive, p.max_exclusive}).empty()) continue;
    if (scope.exact_epk && !p.Contains(*scope.exact_epk)) continue;
    out.push_back(&p);
  }
  return out;
}

size_t Container::StripeIndex(std::string_view key) const {
  return std::hash<std::string_view>{}(key) % write_state_->stripes.size();
}

std::mutex& Container::StripeFor(std::string_view key) const {
  return write_state_->stripes[StripeIndex(key)];
}

std::vector<std::unique_lock<std::mutex>> Container::HoldEveryStripe() const {
  std::vector<std::unique_lock<std::mutex>> held;
  held.reserve(write_state_->stripes.size());
  for (std::mutex& stripe : write_state_->stripes) held.emplace_back(stripe);
  return held;
}

std::string Container::KeyFor(std::string_view epk, std::string_view id) const {
  return storage::keys::Item(settings_.number, epk, id);
}

Result<std::string> Container::EpkOf(const partition::PartitionKeyValue& key) const {
  if (!partition::IsFullKey(settings_.partition_key, key)) {
    return Status::BadRequest(
        "Partition key provided either doesn't correspond to definition in the collection or "
        "doesn't match partition key field values specified in the document.",
        1001);
  }
  return partition::EffectivePartitionKey(settings_.partition_key, key);
}

Result<Container::CheckedWrite> Container::CheckWrite(const ItemWriteRequest& request) const {
  if (request.body.size() > kMaxItemBytes) {
    return Status::EntityTooLarge("Request size is too large");
  }
  CheckedWrite out;
  ORRERY_ASSIGN_OR_RETURN(out.item, json::Parse(request.body));
  ORRERY_ASSIGN_OR_RETURN(out.id, ValidateItemId(out.item));
  ORRERY_RETURN_IF_ERROR(ValidateItemTtl(out.item));
  if (request.kind == WriteKind::kReplace && out.id != request.url_id) {
    return Status::BadRequest(
        "The id of the item in the request body does not match the id in the request URL.");
  }
  ORRERY_ASSIGN_OR_RETURN(partition::PartitionKeyValue body_key,
                          partition::ExtractFromItem(out.item, settings_.partition_key));
  if (!(body_key == request.partition_key)) {
    return Status::BadRequest(kPartitionKeyMismatch, 1001);
  }
  ORRERY_ASSIGN_OR_RETURN(out.epk, EpkOf(request.partition_key));
  out.key = KeyFor(out.epk, out.id);
  return out;
}

Result<std::optional<std::string>> Container::StoredRecord(const std::string& key,
                                                           const PendingRecords* pending) const {
  if (pending != nullptr) {
    if (auto it = pending->find(key); it != pending->end()) return it->second;
  }
  return store_.Get(key);
}

Result<ItemResult> Container::AddWriteToBatch(const ItemWriteRequest& request, CheckedWrite write,
                                              const std::optional<std::string>& existing,
                                              storage::WriteBatch& batch, PendingRecords* pending) {
  std::optional<ItemRecordView> old;
  if (existing) {
    old = DecodeItemRecord(*existing);
    if (!old) return Status::Corruption("stored item record is malformed");
  }
  // An expired version is gone for the writer too; its index and unique-key entries
  // are still replaced below.
  const bool alive = old && !IsGone(write.epk, *old);
  switch (request.kind) {
    case WriteKind::kCreate:
      if (alive) return Status::Conflict(kConflict);
      break;
    case WriteKind::kReplace:
      if (!alive) return Status::NotFound(kNotFound);
      break;
    case WriteKind::kUpsert:
      break;
  }
  if (request.if_match && request.kind != WriteKind::kCreate &&
      (!alive || (*request.if_match != "*" && old->etag != *request.if_match))) {
    return Status::PreconditionFailed(kPreconditionFailed);
  }

  if (!unique_keys_.empty()) {
    std::optional<json::Value> old_item;
    if (old) {
      Result<json::Value> parsed = json::Parse(old->json);
      if (parsed.ok()) old_item = std::move(*parsed);
    }
    ORRERY_RETURN_IF_ERROR(AddUniqueKeyChanges(write.epk, write.id, old_item ? &*old_item : nullptr,
                                               &write.item, batch, pending));
  }

  ORRERY_ASSIGN_OR_RETURN(uint64_t number, AllocateLsn());
  ItemSystemProperties props;
  // An item keeps the _rid it was created with across replaces, as in the service.
  std::optional<std::string_view> old_rid = alive ? StoredItemRid(old->json) : std::nullopt;
  props.rid = old_rid ? std::string(*old_rid) : ItemRid(settings_.rid, number);
  props.self = settings_.self + "docs/" + props.rid + "/";
  props.etag = NewEtag();
  props.ts = clock_.NowSeconds();
  json::Value& item = write.item;
  StripSystemProperties(item);
  AppendSystemProperties(item, props);

  ItemResult result;
  result.json = json::Write(item);
  result.etag = props.etag;
  result.created = !alive;
  result.bytes = result.json.size();
  result.pkrange_id = write_state_->write_map->Owner(write.epk).id;
  result.lsn = number;
  const int64_t old_bytes = old ? static_cast<int64_t>(old->json.size()) : 0;
  ORRERY_RETURN_IF_ERROR(AddSizeChange(write.epk, old ? nullptr : &request.partition_key,
                                       old ? 0 : 1, static_cast<int64_t>(result.bytes) - old_bytes,
                                       batch, pending));

  // A container without an index (indexingMode none) keeps every item as indexed: a later
  // policy with an index covers them all.
  const index::IndexingPolicy& policy = *write_state_->write_policy;
  result.indexed = request.indexing_directive.value_or(policy.automatic() || !policy.enabled());
  batch.Put(write.key, EncodeItemRecord(props.etag, result.json, number, result.indexed));
  AddExpiryChanges(batch, write.epk, write.id,
                   old ? std::optional<std::string_view>(old->json) : std::nullopt, result.json);
  const std::vector<uint32_t> partitions = WritePartitionsOf(write.epk);
  for (uint32_t partition : partitions) {
    if (old && old->lsn != 0) batch.Delete(ChangeFeedKey(settings_.number, partition, old->lsn));
    // A new item is in the feed through its creation-order entry below, filed under the
    // same number (creation_order.h): one key less for every create.
    if (alive) {
      batch.Put(ChangeFeedKey(settings_.number, partition, number),
                storage::keys::ItemSuffix(write.epk, write.id));
    }
  }
  if (!alive) {
    // A new item: on the creation lists under its new number, and off them under the
    // number of an expired version it replaces.
    AddCreationChanges(batch, write.epk, write.id, old ? ItemNumberOfJson(old->json) : std::nullopt,
                       number);
  }
  const std::vector<std::string> new_terms = result.indexed
                                                 ? IndexKeysOf(item, write.epk, write.id)
                                                 : IdIndexKeysOf(item, write.epk, write.id);
  result.index = IndexWriteOf(new_terms, partitions.size());
  const std::vector<std::string> old_terms =
      old ? IndexKeysOf(*old, write.epk, write.id) : std::vector<std::string>{};
  AddIndexChanges(batch, old_terms, new_terms, write_state_.get());
  NoteGraphChanges(old_terms, new_terms);
  if (!old) NoteItemCountChange(partitions, +1);
  return result;
}

Result<ItemResult> Container::WriteItem(const ItemWriteRequest& request) {
  ORRERY_ASSIGN_OR_RETURN(CheckedWrite write, CheckWrite(request));
  const std::string key = write.key;
  std::shared_lock split_lock = EnterWrite();
  std::unique_lock partition_lock = LockLogicalPartition(write.epk);
  std::lock_guard lock(StripeFor(key));
  CommitScope commit(*this);
  std::optional<std::string> existing;
  if (!request.known_absent || request.kind != WriteKind::kCreate) {
    ORRERY_ASSIGN_OR_RETURN(existing, store_.Get(key));
  }
  storage::WriteBatch batch;
  ORRERY_ASSIGN_OR_RETURN(ItemResult result,
                          AddWriteToBatch(request, std::move(write), existing, batch, nullptr));
  ORRERY_RETURN_IF_ERROR(store_.Write(batch));
  commit.Committed();
  return result;
}

Result<Container::ReadResult> Container::ReadItem(
    const partition::PartitionKeyValue& key, std::string_view id,
    std::optional<std::string_view> if_none_match) const {
  ORRERY_ASSIGN_OR_RETURN(std::string epk, EpkOf(key));
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored, store_.Get(KeyFor(epk, id)));
  if (!stored) {
    return Status::NotFound(kNotFound);
  }
  std::optional<ItemRecordView> record = DecodeItemRecord(*stored);
  if (!record) return Status::Corruption("stored item record is malformed");
  if (IsGone(epk, *record)) return Status::NotFound(kNotFound);
  ReadResult out;
  out.item.etag = std::string(record->etag);
  out.item.bytes = record->json.size();
  out.item.pkrange_id = settings_.partitions.Owner(epk).id;
  out.item.lsn = current_lsn();
  if (if_none_match && (*if_none_match == record->etag || *if_none_match == "*")) {
    out.not_modified = true;
    return out;
  }
  // The JSON is the record's tail: cut the header off in place rather than copy the
  // item into a second string.
  const size_t json_at = static_cast<size_t>(record->json.data() - stored->data());
  stored->erase(0, json_at);
  out.item.json = std::move(*stored);
  return out;
}

Result<ItemResult> Container::AddDeleteToBatch(std::string_view epk, std::string_view id,
                                               const std::optional<std::string>& stored,
                                               std::optional<std::string_view> if_match,
                                               storage::WriteBatch& batch, PendingRecords* pending,
                                               bool allow_gone) {
  if (!stored) {
    return Status::NotFound(kNotFound);
  }
  std::optional<ItemRecordView> record = DecodeItemRecord(*stored);
  if (!record) return Status::Corruption("stored item record is malformed");
  if (!allow_gone && IsGone(epk, *record)) return Status::NotFound(kNotFound);
  if (if_match && *if_match != "*" && *if_match != record->etag) {
    return Status::PreconditionFailed(kPreconditionFailed);
  }
  ItemResult result;
  result.bytes = record->json.size();
  result.pkrange_id = write_state_->write_map->Owner(epk).id;
  ORRERY_ASSIGN_OR_RETURN(result.lsn, AllocateLsn());
  ORRERY_RETURN_IF_ERROR(
      AddSizeChange(epk, nullptr, -1, -static_cast<int64_t>(result.bytes), batch, pending));
  batch.Delete(KeyFor(epk, id));
  const std::vector<uint32_t> partitions = WritePartitionsOf(epk);
  if (record->lsn != 0) {
    for (uint32_t partition : partitions) {
      batch.Delete(ChangeFeedKey(settings_.number, partition, record->lsn));
    }
  }
  AddCreationChanges(batch, epk, id, ItemNumberOfJson(record->json), std::nullopt);
  AddExpiryChanges(batch, epk, id, record->json, std::nullopt);
  const std::vector<std::string> old_terms = IndexKeysOf(*record, epk, id);
  result.index = IndexWriteOf(old_terms, partitions.size());
  AddIndexChanges(batch, old_terms, {}, write_state_.get());
  NoteGraphChanges(old_terms, {});
  NoteItemCountChange(partitions, -1);
  if (!unique_keys_.empty()) {
    Result<json::Value> old_item = json::Parse(record->json);
    if (old_item.ok()) {
      ORRERY_RETURN_IF_ERROR(AddUniqueKeyChanges(epk, id, &*old_item, nullptr, batch, pending));
    }
  }
  return result;
}

Result<ItemResult> Container::DeleteItem(const partition::PartitionKeyValue& key,
                                         std::string_view id,
                                         std::optional<std::string_view> if_match) {
  ORRERY_ASSIGN_OR_RETURN(std::string epk, EpkOf(key));
  const std::string storage_key = KeyFor(epk, id);
  std::shared_lock split_lock = EnterWrite();
  std::lock_guard lock(StripeFor(storage_key));
  CommitScope commit(*this);
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored, store_.Get(storage_key));
  storage::WriteBatch batch;
  ORRERY_ASSIGN_OR_RETURN(ItemResult result,
                          AddDeleteToBatch(epk, id, stored, if_match, batch, nullptr));
  ORRERY_RETURN_IF_ERROR(store_.Write(batch));
  commit.Committed();
  return result;
}

Status Container::ScanScope(const ReadScope& scope, std::string_view resume_after,
                            const std::function<bool(std::string_view, std::string_view)>& visit,
                            bool indexed_only) const {
  const uint32_t n = settings_.number;
  std::string begin, end;
  if (scope.exact_epk) {
    const std::string& epk = *scope.exact_epk;
    if (epk < scope.range.min || (scope.range.max != "FF" && epk >= scope.range.max)) {
      return Status::Ok();  // the logical partition lies outside the requested range
    }
    begin = storage::keys::ItemsFrom(n, *scope.exact_epk) + '\0';
    end = storage::keys::ItemsFrom(n, *scope.exact_epk) + '\x01';
  } else {
    begin = storage::keys::ItemsFrom(n, scope.range.min);
    end = scope.range.max == "FF" ? storage::keys::ItemsEnd(n)
                                  : storage::keys::ItemsFrom(n, scope.range.max);
  }
  if (!resume_after.empty()) {
    std::string resume = storage::keys::ItemsFrom(n, "") + std::string(resume_after) + '\0';
    if (resume < begin || resume > end) {
      return Status::BadRequest(kInvalidContinuation);
    }
    begin = std::move(resume);
  }
  const size_t prefix = storage::keys::ItemsFrom(n, "").size();
  return store_.Scan(
      begin, end,
      [&](std::string_view key, std::string_view value) {
        std::optional<ItemRecordView> record = DecodeItemRecord(value);
        if (!record) return true;  // unreadable records are skipped, never served
        if (ttl_enabled() || write_state_->has_partition_deletes.load()) {
          std::string_view epk, id;
          if (storage::keys::ParseItem(key, epk, id) && IsGone(epk, *record)) return true;
        }
        if (indexed_only && !record->indexed) return true;
        return visit(key.substr(prefix), record->json);
      },
      storage::Store::ScanMode::kBulk);
}

Result<FeedPage> Container::ReadFeed(const ReadScope& scope, int max_items,
                                     std::string_view continuation) const {
  const storage::Store::ReadView view(store_);  // every write in the page whole
  DecodedToken token;
  if (!continuation.empty()) {
    ORRERY_ASSIGN_OR_RETURN(token, DecodeToken(continuation));
    if (token.kind != DecodedToken::Kind::kKey) return TokenOfAnotherQuery();
  }
  FeedPage page;
  page.touched_partition_ids = settings_.partitions.OverlappingIds(scope.range);
  page.partitions_touched = static_cast<int>(page.touched_partition_ids.size());
  std::string last_key;
  bool more = false;
  ORRERY_RETURN_IF_ERROR(
      ScanScope(scope, token.key_suffix, [&](std::string_view key, std::string_view json) {
        if (static_cast<int>(page.documents.size()) >= max_items || page.full()) {
          more = true;
          return false;
        }
        page.Add(std::string(json));
        page.loaded_bytes += json.size();
        ++page.loaded_count;
        last_key.assign(key);
        return true;
      }));
  if (more) {
    page.continuation = EncodeKeyToken(last_key, 0);
  }
  return page;
}

void Container::AddDropToBatch(storage::WriteBatch& batch) const {
  batch.DeleteRange(storage::keys::ItemsFrom(settings_.number, ""),
                    storage::keys::ItemsEnd(settings_.number));
  batch.DeleteRange(index::ContainerBegin(settings_.number), index::ContainerEnd(settings_.number));
  batch.DeleteRange(ChangeFeedContainerBegin(settings_.number),
                    ChangeFeedContainerEnd(settings_.number));
  batch.DeleteRange(UniqueKeyPolicy::ContainerBegin(settings_.number),
                    UniqueKeyPolicy::ContainerEnd(settings_.number));
  batch.DeleteRange(storage::keys::LogicalPartitionsBegin(settings_.number),
                    storage::keys::LogicalPartitionsEnd(settings_.number));
  batch.DeleteRange(CreationContainerBegin(settings_.number),
                    CreationContainerEnd(settings_.number));
  batch.DeleteRange(storage::keys::ScriptsBegin(settings_.number),
                    storage::keys::ScriptsEnd(settings_.number));
  batch.Delete(IndexMarkerKey());
  batch.Delete(SizesMarkerKey());
  batch.Delete(CreationMarkerKey());
  AddExpiryIndexDropToBatch(batch);
  AddPartitionDeletesDropToBatch(batch);
  // A rebuild or listing still running would write entries after the drop.
  StopIndexRebuild();
  StopExpiryIndexBuild();
}

}  // namespace orrery::engine
