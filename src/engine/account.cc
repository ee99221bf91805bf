#include "engine/account.h"

#include <cmath>
#include <mutex>

#include "common/log.h"
#include "engine/computed_property_indexes.h"
#include "engine/container_definition.h"
#include "engine/creation_order.h"
#include "engine/etag.h"
#include "engine/expiry_index.h"
#include "engine/item_rules.h"
#include "engine/resource_id.h"
#include "engine/result_cursors.h"
#include "index/index_key.h"
#include "json/json.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

constexpr const char* kResourceNotFound =
    "Resource Not Found. Learn more: https://aka.ms/cosmosdb-tsg-not-found";
constexpr const char* kResourceExists = "Resource with specified id or name already exists.";
constexpr const char* kPreconditionFailed =
    "Operation cannot be performed because one of the specified precondition is not met.";
constexpr const char* kDatabaseCounter = "next-database-number";
constexpr const char* kContainerCounter = "next-container-number";
constexpr int64_t kDefaultContainerThroughput = 400;
// ru-model.md b.3: the containers that share a database's throughput.
constexpr size_t kMaxSharingContainers = 25;

const json::Value* VectorIndexesOf(const json::Value& resource) {
  const json::Value* indexing = resource.Find("indexingPolicy");
  return indexing != nullptr && indexing->is_object() ? indexing->Find("vectorIndexes") : nullptr;
}

bool IsNonEmptyList(const json::Value* v) {
  return v != nullptr && v->is_array() && !v->as_array().empty();
}

// Whether a (normalized) container definition declares vectors or vector indexes.
bool HasVectorPolicy(const json::Value& resource) {
  const json::Value* policy = resource.Find("vectorEmbeddingPolicy");
  return (policy != nullptr && policy->is_object() &&
          IsNonEmptyList(policy->Find("vectorEmbeddings"))) ||
         IsNonEmptyList(VectorIndexesOf(resource));
}

// Both are fixed at creation (the service's rule): an absent member equals an empty one.
bool SameVectorPolicies(const json::Value& current, const json::Value& replacement) {
  const auto embeddings = [](const json::Value& resource) {
    const json::Value* policy = resource.Find("vectorEmbeddingPolicy");
    const json::Value* list =
        policy != nullptr && policy->is_object() ? policy->Find("vectorEmbeddings") : nullptr;
    return IsNonEmptyList(list) ? *list : json::Value::MakeArray({});
  };
  const auto indexes = [](const json::Value& resource) {
    const json::Value* list = VectorIndexesOf(resource);
    return IsNonEmptyList(list) ? *list : json::Value::MakeArray({});
  };
  return embeddings(current) == embeddings(replacement) && indexes(current) == indexes(replacement);
}

std::string ItemNumbersKey(uint32_t container_number) {
  return storage::keys::Meta("item-numbers/" + std::to_string(container_number));
}

ThroughputRequest ThroughputFromJson(const json::Value* value) {
  ThroughputRequest out;
  if (value == nullptr) return out;
  if (const json::Value* manual = value->Find("manual"); manual && manual->is_number()) {
    out.manual = static_cast<int64_t>(manual->as_double());
  }
  if (const json::Value* max = value->Find("autoscaleMax"); max && max->is_number()) {
    out.autoscale_max = static_cast<int64_t>(max->as_double());
  }
  return out;
}

int64_t MaxOf(const ThroughputRequest& t) { return t.manual.value_or(t.autoscale_max.value_or(0)); }

// Records written before the highest throughput was kept: the current one.
int64_t HighestOf(const json::Value& record, const ThroughputRequest& current) {
  const json::Value* highest = record.Find("highestThroughput");
  return std::max(highest ? highest->as_int() : 0, MaxOf(current));
}

json::Value ThroughputToJson(const ThroughputRequest& t) {
  json::Value out = json::Value::MakeObject();
  if (t.manual) out.Set("manual", json::Value::Int(*t.manual));
  if (t.autoscale_max) out.Set("autoscaleMax", json::Value::Int(*t.autoscale_max));
  return out;
}

}  // namespace

Status ValidateThroughput(const ThroughputRequest& t) {
  if (t.manual && (*t.manual < 400 || *t.manual > 1000000 || *t.manual % 100 != 0)) {
    return Status::BadRequest("The offer throughput " + std::to_string(*t.manual) +
                              " is invalid: manual throughput must be between 400 and 1000000 "
                              "RU/s in increments of 100.");
  }
  if (t.autoscale_max &&
      (*t.autoscale_max < 1000 || *t.autoscale_max > 1000000 || *t.autoscale_max % 1000 != 0)) {
    return Status::BadRequest("The autoscale max throughput " + std::to_string(*t.autoscale_max) +
                              " is invalid: it must be between 1000 and 1000000 RU/s in "
                              "increments of 1000.");
  }
  if (t.manual && t.autoscale_max) {
    return Status::BadRequest("Manual and autoscale throughput cannot both be given.");
  }
  return Status::Ok();
}

Account::Account(AccountOptions options, std::unique_ptr<storage::Store> store)
    : options_(std::move(options)),
      store_(std::move(store)),
      result_cursors_(std::make_shared<ResultCursors>()) {}

Account::~Account() {
  // Nothing writes after the graphs are saved, or they would not be loaded again.
  ttl_purger_.reset();
  splitter_.reset();
  SaveVectorGraphs();
}

// After Load: the background work reads the catalog Load builds.
void Account::StartBackgroundWork() {
  if (options_.background_ttl_purge) {
    ttl_purger_ = std::make_unique<TtlPurger>(*store_, [this] { return AllContainers(); });
  }
  if (options_.background_splits) {
    splitter_ = std::make_unique<BackgroundTask>(std::chrono::milliseconds(200), [this] {
      // While the disk is full a split could not write; it runs once there is room.
      if (store_->OutOfSpace()) return;
      Status status = SplitWhereNeeded();
      // A full disk is logged by the store, once.
      if (!status.ok() && status.code() != StatusCode::kInsufficientStorage) {
        Log(LogLevel::kWarn, "partition split failed: " + status.ToString());
      }
    });
  }
}

Result<std::unique_ptr<Account>> Account::Open(const AccountOptions& options) {
  ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<storage::Store> store,
                          storage::Store::Open(options.store));
  std::unique_ptr<Account> account(new Account(options, std::move(store)));
  ORRERY_RETURN_IF_ERROR(account->Load());
  account->LoadSavedVectorGraphs();
  account->StartBackgroundWork();
  return account;
}

Status Account::Load() {
  // A store opened read-only on a full disk cannot undo a split; the children it would
  // drop are read by nothing, and the next start with room, or the next split of the
  // container, drops them.
  if (!store_->ReadOnly()) ORRERY_RETURN_IF_ERROR(UndoUnfinishedSplits());
  Status parse_status;
  ORRERY_RETURN_IF_ERROR(
      store_->Scan(storage::keys::DatabasesBegin(), storage::keys::DatabasesEnd(),
                   [&](std::string_view, std::string_view value) {
                     Result<json::Value> record = json::Parse(value);
                     if (!record.ok() || !record->Find("resource") || !record->Find("number")) {
                       parse_status = Status::Corruption("unreadable database record");
                       return false;
                     }
                     DatabaseEntry entry{static_cast<uint32_t>(record->Find("number")->as_double()),
                                         *record->Find("resource"),
                                         ThroughputFromJson(record->Find("throughput"))};
                     if (const json::Value* pending = record->Find("pendingThroughput")) {
                       entry.pending_ru_per_second = pending->as_int();
                     }
                     entry.highest_ru_per_second = HighestOf(*record, entry.shared_throughput);
                     entry.shared_budgets = SharedBudgets(entry.shared_throughput);
                     databases_.emplace(entry.resource.Find("id")->as_string(), std::move(entry));
                     return true;
                   }));
  ORRERY_RETURN_IF_ERROR(parse_status);

  std::vector<ContainerSettings> loaded;
  ORRERY_RETURN_IF_ERROR(store_->Scan(
      std::string(1, storage::keys::kContainerSpace),
      std::string(1, storage::keys::kContainerSpace + 1),
      [&](std::string_view, std::string_view value) {
        Result<json::Value> record = json::Parse(value);
        const json::Value* resource = record.ok() ? record->Find("resource") : nullptr;
        const json::Value* partitions = record.ok() ? record->Find("partitions") : nullptr;
        std::optional<PartitionMap> map =
            partitions ? PartitionMap::FromJson(*partitions) : std::nullopt;
        Result<partition::PartitionKeyDefinition> pk =
            resource && resource->Find("partitionKey")
                ? partition::ParseDefinition(*resource->Find("partitionKey"))
                : Result<partition::PartitionKeyDefinition>(Status::Corruption("no key"));
        if (!resource || !map || !pk.ok()) {
          parse_status = Status::Corruption("unreadable container record");
          return false;
        }
        ContainerSettings s;
        s.database_id = record->Find("databaseId")->as_string();
        s.id = resource->Find("id")->as_string();
        s.database_number = static_cast<uint32_t>(record->Find("databaseNumber")->as_double());
        s.number = static_cast<uint32_t>(record->Find("number")->as_double());
        s.rid = resource->Find("_rid")->as_string();
        s.self = resource->Find("_self")->as_string();
        s.partition_key = *pk;
        s.partitions = std::move(*map);
        const ThroughputRequest own = ThroughputFromJson(record->Find("throughput"));
        s.manual_ru_per_second = own.manual;
        s.autoscale_max_ru_per_second = own.autoscale_max;
        if (const json::Value* pending = record->Find("pendingThroughput")) {
          s.pending_ru_per_second = pending->as_int();
        }
        s.highest_ru_per_second = HighestOf(*record, own);
        if (const json::Value* enforce = record->Find("enforceThroughput")) {
          s.enforce_throughput = enforce->as_bool();
        }
        if (const json::Value* buckets = record->Find("throughputBuckets");
            buckets && buckets->is_array()) {
          for (const json::Value& b : buckets->as_array()) {
            s.throughput_buckets.push_back(
                throughput::ThroughputBucket{static_cast<int>(b.Find("id")->as_double()),
                                             b.Find("maxThroughputPercentage")->as_double()});
          }
        }
        s.resource = *resource;
        loaded.push_back(std::move(s));
        return true;
      }));
  ORRERY_RETURN_IF_ERROR(parse_status);
  for (auto& settings : loaded) {
    ContainerKey key{settings.database_id, settings.id};
    auto db = databases_.find(settings.database_id);
    if (db == databases_.end()) return Status::Corruption("a container without its database");
    ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<Container> container,
                            OpenContainer(std::move(settings)));
    ProvisionThroughput(*container, db->second);
    // Counting writes; a read-only store takes no writes, and counts at the next start.
    if (!store_->ReadOnly()) ORRERY_RETURN_IF_ERROR(container->EnsureSizesCounted());
    ORRERY_RETURN_IF_ERROR(container->EnsureCreationOrderKept());
    ORRERY_RETURN_IF_ERROR(container->EnsureExpiryIndexKept());
    ORRERY_RETURN_IF_ERROR(container->LoadPartitionDeletes());
    // A policy change whose rebuild did not finish before the last stop (or data
    // written before the range index existed): rebuild now.
    ORRERY_ASSIGN_OR_RETURN(bool index_current, container->IndexIsCurrent());
    if (!index_current) index_rebuilder_.Start(container);
    containers_.emplace(std::move(key), std::move(container));
  }
  return Status::Ok();
}

Result<std::shared_ptr<Container>> Account::OpenContainer(
    ContainerSettings settings, std::shared_ptr<ContainerWriteState> write_state) {
  settings.logical_partition_max_bytes = options_.logical_partition_max_bytes;
  if (!write_state) {
    write_state = std::make_shared<ContainerWriteState>();
    ORRERY_ASSIGN_OR_RETURN(write_state->item_numbers,
                            NumberAllocator::Open(*store_, ItemNumbersKey(settings.number)));
  }
  if (!write_state->result_cursors) write_state->result_cursors = result_cursors_;
  return std::make_shared<Container>(std::move(settings), *store_, *options_.clock,
                                     std::move(write_state));
}

void Account::ResumeStoppedRebuild(const std::shared_ptr<Container>& container) {
  if (!container->write_state()->index_ready) index_rebuilder_.Start(container);
  // Writes keep the expiry index again; the purge lists the items written meanwhile.
  if (container->ttl_enabled()) (void)container->SwitchExpiryIndex(true);
}

std::vector<std::shared_ptr<Container>> Account::AllContainers() const {
  std::shared_lock lock(mutex_);
  std::vector<std::shared_ptr<Container>> out;
  for (const auto& [key, container] : containers_) out.push_back(container);
  return out;
}

Result<uint32_t> Account::NextNumber(std::string_view counter, storage::WriteBatch& batch) {
  const std::string key = storage::keys::Meta(counter);
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored, store_->Get(key));
  uint32_t next = stored ? static_cast<uint32_t>(std::stoul(*stored)) : 1;
  batch.Put(key, std::to_string(next + 1));
  return next;
}

Status Account::WriteCatalog(storage::WriteBatch& batch) {
  if (catalog_write_hook_) catalog_write_hook_();
  return store_->WriteSynced(batch);
}

int Account::PartitionCountFor(const ThroughputRequest& throughput,
                               const ThroughputRequest& database_throughput) const {
  if (options_.initial_partitions > 0) {
    return options_.initial_partitions;
  }
  // ru-model.md b.4: manual ceil(RU/s / 6,000); autoscale and shared (database)
  // throughput ceil(max RU/s / 10,000); no throughput at all: one partition.
  auto ceil_div = [](int64_t a, double b) {
    return std::max<int>(1, static_cast<int>(std::ceil(static_cast<double>(a) / b)));
  };
  if (throughput.manual) return ceil_div(*throughput.manual, 6000.0);
  if (throughput.autoscale_max) return ceil_div(*throughput.autoscale_max, 10000.0);
  if (database_throughput.manual) return ceil_div(*database_throughput.manual, 10000.0);
  if (database_throughput.autoscale_max) {
    return ceil_div(*database_throughput.autoscale_max, 10000.0);
  }
  return 1;
}

Result<json::Value> Account::CreateDatabase(json::Value body, const ThroughputRequest& throughput) {
  ORRERY_RETURN_IF_ERROR(ValidateResourceId(body));
  ORRERY_RETURN_IF_ERROR(ValidateThroughput(throughput));
  const std::string id = body.Find("id")->as_string();
  const std::lock_guard writer(catalog_write_mutex_);
  {
    std::shared_lock lock(mutex_);
    if (databases_.count(id) != 0) {
      return Status::Conflict(kResourceExists);
    }
  }
  storage::WriteBatch batch;
  ORRERY_ASSIGN_OR_RETURN(uint32_t number, NextNumber(kDatabaseCounter, batch));
  const std::string rid = DatabaseRid(number);
  json::Value resource = json::Value::MakeObject({
      {"id", json::Value::String(id)},
      {"_rid", json::Value::String(rid)},
      {"_self", json::Value::String("dbs/" + rid + "/")},
      {"_etag", json::Value::String(NewEtag())},
      {"_colls", json::Value::String("colls/")},
      {"_users", json::Value::String("users/")},
      {"_ts", json::Value::Int(options_.clock->NowSeconds())},
  });
  DatabaseEntry entry{number, resource, throughput};
  entry.highest_ru_per_second = MaxOf(throughput);
  batch.Put(storage::keys::Database(id), json::Write(DatabaseRecord(entry)));
  ORRERY_RETURN_IF_ERROR(WriteCatalog(batch));
  entry.shared_budgets = SharedBudgets(throughput);
  std::unique_lock lock(mutex_);
  databases_.emplace(id, std::move(entry));
  return resource;
}

Result<json::Value> Account::ReadDatabase(std::string_view id) const {
  std::shared_lock lock(mutex_);
  auto it = databases_.find(id);
  if (it == databases_.end()) {
    return Status::NotFound(kResourceNotFound);
  }
  return it->second.resource;
}

std::vector<json::Value> Account::ListDatabases() const {
  std::shared_lock lock(mutex_);
  std::vector<json::Value> out;
  for (const auto& [id, entry] : databases_) {
    out.push_back(entry.resource);
  }
  return out;
}

Status Account::DeleteDatabase(std::string_view id) {
  const std::lock_guard writer(catalog_write_mutex_);
  storage::WriteBatch batch;
  std::vector<std::pair<ContainerKey, std::shared_ptr<Container>>> dropped;
  {
    std::shared_lock lock(mutex_);
    if (databases_.find(id) == databases_.end()) {
      return Status::NotFound(kResourceNotFound);
    }
    batch.Delete(storage::keys::Database(id));
    batch.DeleteRange(storage::keys::ContainersBegin(id), storage::keys::ContainersEnd(id));
    for (const auto& [key, container] : containers_) {
      if (key.first == id) {
        container->AddDropToBatch(batch);
        dropped.emplace_back(key, container);
      }
    }
  }
  if (Status written = WriteCatalog(batch); !written.ok()) {
    for (const auto& [key, container] : dropped) ResumeStoppedRebuild(container);
    return written;
  }
  std::unique_lock lock(mutex_);
  for (const auto& [key, container] : dropped) containers_.erase(key);
  databases_.erase(databases_.find(id));
  return Status::Ok();
}

json::Value Account::ContainerRecord(const ContainerSettings& settings) {
  ThroughputRequest throughput;
  throughput.manual = settings.manual_ru_per_second;
  throughput.autoscale_max = settings.autoscale_max_ru_per_second;
  json::Value record = json::Value::MakeObject({
      {"throughput", ThroughputToJson(throughput)},
      {"databaseId", json::Value::String(settings.database_id)},
      {"databaseNumber", json::Value::Int(settings.database_number)},
      {"number", json::Value::Int(settings.number)},
      {"resource", settings.resource},
      {"partitions", settings.partitions.ToJson()},
  });
  if (settings.pending_ru_per_second > 0) {
    record.Set("pendingThroughput", json::Value::Int(settings.pending_ru_per_second));
  }
  record.Set("highestThroughput",
             json::Value::Int(std::max(settings.highest_ru_per_second, MaxOf(throughput))));
  if (settings.enforce_throughput) {
    record.Set("enforceThroughput", json::Value::Bool(*settings.enforce_throughput));
  }
  if (!settings.throughput_buckets.empty()) {
    json::Value buckets = json::Value::MakeArray();
    for (const throughput::ThroughputBucket& b : settings.throughput_buckets) {
      buckets.as_array().push_back(json::Value::MakeObject({
          {"id", json::Value::Int(b.id)},
          {"maxThroughputPercentage", json::Value::Double(b.max_percentage)},
      }));
    }
    record.Set("throughputBuckets", std::move(buckets));
  }
  return record;
}

json::Value Account::DatabaseRecord(const DatabaseEntry& database) {
  json::Value record = json::Value::MakeObject({
      {"number", json::Value::Int(database.number)},
      {"resource", database.resource},
      {"throughput", ThroughputToJson(database.shared_throughput)},
  });
  if (database.pending_ru_per_second > 0) {
    record.Set("pendingThroughput", json::Value::Int(database.pending_ru_per_second));
  }
  record.Set("highestThroughput", json::Value::Int(std::max(database.highest_ru_per_second,
                                                            MaxOf(database.shared_throughput))));
  return record;
}

Result<json::Value> Account::CreateContainer(std::string_view database_id, json::Value body,
                                             const ThroughputRequest& requested) {
  ORRERY_ASSIGN_OR_RETURN(ContainerDefinition definition,
                          NormalizeContainerDefinition(std::move(body)));
  ORRERY_RETURN_IF_ERROR(ValidateThroughput(requested));
  // Prepared under the catalog lock held shared, written with no catalog lock (data
  // requests take it to find their container), published under it held exclusively.
  // The writers' lock keeps the catalog as prepared until then.
  const std::lock_guard writer(catalog_write_mutex_);
  std::shared_lock lock(mutex_);
  auto db = databases_.find(database_id);
  if (db == databases_.end()) {
    return Status::NotFound(kResourceNotFound, 1003);
  }
  // A container of a database without shared throughput gets the service's default
  // of 400 RU/s when it asks for none.
  ThroughputRequest throughput = requested;
  const ThroughputRequest& shared = db->second.shared_throughput;
  if (!throughput.manual && !throughput.autoscale_max && !shared.manual && !shared.autoscale_max) {
    throughput.manual = kDefaultContainerThroughput;
  }
  const std::string id = definition.body.Find("id")->as_string();
  ContainerKey key{std::string(database_id), id};
  if (!throughput.manual && !throughput.autoscale_max && containers_.count(key) == 0 &&
      SharingContainers(database_id) >= kMaxSharingContainers) {
    return Status::BadRequest(
        "A database with shared throughput holds at most " + std::to_string(kMaxSharingContainers) +
        " containers that share it; give this container its own throughput or use another "
        "database.");
  }
  if (containers_.count(key) != 0) {
    return Status::Conflict(kResourceExists);
  }
  if (!throughput.manual && !throughput.autoscale_max && HasVectorPolicy(definition.body)) {
    return Status::BadRequest(
        "Vector search is not supported on containers that share their database's "
        "throughput: give the container its own throughput.");
  }
  storage::WriteBatch batch;
  ORRERY_ASSIGN_OR_RETURN(uint32_t number, NextNumber(kContainerCounter, batch));
  ContainerSettings settings;
  settings.database_id = std::string(database_id);
  settings.id = id;
  settings.database_number = db->second.number;
  settings.number = number;
  settings.rid = ContainerRid(db->second.number, number);
  settings.self = "dbs/" + DatabaseRid(db->second.number) + "/colls/" + settings.rid + "/";
  settings.partition_key = definition.partition_key;
  settings.partitions = PartitionMap::FromBoundaries(partition::InitialBoundaries(
      definition.partition_key, PartitionCountFor(throughput, db->second.shared_throughput)));
  settings.resource = std::move(definition.body);
  AppendContainerSystemProperties(settings.resource, settings.rid, settings.self, NewEtag(),
                                  options_.clock->NowSeconds());
  settings.manual_ru_per_second = throughput.manual;
  settings.autoscale_max_ru_per_second = throughput.autoscale_max;
  settings.highest_ru_per_second = MaxOf(throughput);
  json::Value record = ContainerRecord(settings);

  json::Value resource = settings.resource;
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<Container> container, OpenContainer(std::move(settings)));
  ProvisionThroughput(*container, db->second);
  lock.unlock();
  // A container number is never reused, but clear its key ranges in case a crashed
  // earlier run left items or index entries under it. The empty index is complete.
  batch.DeleteRange(storage::keys::ItemsFrom(number, ""), storage::keys::ItemsEnd(number));
  batch.DeleteRange(index::ContainerBegin(number), index::ContainerEnd(number));
  batch.DeleteRange(storage::keys::LogicalPartitionsBegin(number),
                    storage::keys::LogicalPartitionsEnd(number));
  batch.Put(container->IndexMarkerKey(), container->IndexMarkerValue());
  batch.Put(container->SizesMarkerKey(), "1");
  batch.DeleteRange(CreationContainerBegin(number), CreationContainerEnd(number));
  batch.Put(container->CreationMarkerKey(), "1");
  batch.DeleteRange(ExpiryContainerBegin(number), ExpiryContainerEnd(number));
  // The expiry index is kept only while TTL is on (container.h expiry_writes).
  if (container->ttl_enabled()) batch.Put(container->ExpiryMarkerKey(), "1");
  batch.Put(storage::keys::Container(database_id, id), json::Write(record));
  ORRERY_RETURN_IF_ERROR(WriteCatalog(batch));
  container->write_state()->creation_order_kept.store(true);
  container->write_state()->expiry_writes.store(container->ttl_enabled());
  container->write_state()->expiry_index_kept.store(container->ttl_enabled());
  for (uint32_t partition : container->PartitionNumbers()) {
    container->write_state()->presence.StartEmpty(partition);
  }
  std::unique_lock publish(mutex_);
  containers_.emplace(std::move(key), std::move(container));
  return resource;
}

Result<std::shared_ptr<Container>> Account::GetContainer(std::string_view database_id,
                                                         std::string_view id) const {
  std::shared_lock lock(mutex_);
  auto it = containers_.find(ContainerKey{std::string(database_id), std::string(id)});
  if (it == containers_.end()) {
    return Status::NotFound(kResourceNotFound);
  }
  return it->second;
}

Result<std::vector<json::Value>> Account::ListContainers(std::string_view database_id) const {
  std::shared_lock lock(mutex_);
  if (databases_.find(database_id) == databases_.end()) {
    return Status::NotFound(kResourceNotFound);
  }
  std::vector<json::Value> out;
  for (const auto& [key, container] : containers_) {
    if (key.first == database_id) out.push_back(container->settings().resource);
  }
  return out;
}

Result<json::Value> Account::ReplaceContainer(std::string_view database_id, std::string_view id,
                                              json::Value body,
                                              std::optional<std::string> if_match) {
  ORRERY_ASSIGN_OR_RETURN(ContainerDefinition definition,
                          NormalizeContainerDefinition(std::move(body)));
  if (definition.body.Find("id")->as_string() != id) {
    return Status::BadRequest(
        "The id of the container in the request body does not match the id in the URL.");
  }
  const std::lock_guard writer(catalog_write_mutex_);
  std::shared_lock lock(mutex_);
  auto it = containers_.find(ContainerKey{std::string(database_id), std::string(id)});
  if (it == containers_.end()) {
    return Status::NotFound(kResourceNotFound);
  }
  const std::shared_ptr<Container> previous = it->second;
  lock.unlock();
  const ContainerSettings& current = previous->settings();
  const json::Value* current_etag = current.resource.Find("_etag");
  if (if_match && *if_match != "*" && current_etag->as_string() != *if_match) {
    return Status::PreconditionFailed(kPreconditionFailed);
  }
  // The Go SDK's PartitionKeyDefinition has no systemKey, so a replace through it drops
  // the member: a systemKey container keeps its key.
  if (current.partition_key.system_key && !definition.partition_key.system_key) {
    definition.partition_key.system_key = true;
    definition.body.Set("partitionKey", partition::DefinitionToJson(definition.partition_key));
  }
  if (!(partition::DefinitionToJson(definition.partition_key) ==
        partition::DefinitionToJson(current.partition_key))) {
    return Status::BadRequest("The partition key of a container cannot be changed.");
  }
  const json::Value* old_unique = current.resource.Find("uniqueKeyPolicy");
  const json::Value* new_unique = definition.body.Find("uniqueKeyPolicy");
  if ((old_unique == nullptr) != (new_unique == nullptr) ||
      (old_unique && !(*old_unique == *new_unique))) {
    return Status::BadRequest("The unique key policy of a container cannot be changed.");
  }
  ORRERY_RETURN_IF_ERROR(CheckRemovedComputedProperties(current.resource, definition.body));
  if (!SameVectorPolicies(current.resource, definition.body)) {
    return Status::BadRequest(
        "The vector embedding policy and the vector indexes of a container cannot be changed "
        "after it is created.");
  }
  ContainerSettings settings = current;
  settings.resource = std::move(definition.body);
  AppendContainerSystemProperties(settings.resource, settings.rid, settings.self, NewEtag(),
                                  options_.clock->NowSeconds());
  json::Value resource = settings.resource;
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<Container> replaced,
                          OpenContainer(std::move(settings), previous->write_state()));
  const bool reindex = replaced->IndexMarkerValue() != previous->IndexMarkerValue();
  storage::WriteBatch batch;
  batch.Put(storage::keys::Container(database_id, id),
            json::Write(ContainerRecord(replaced->settings())));
  // Until the rebuild writes the new marker, a restart rebuilds again.
  if (reindex) batch.Delete(replaced->IndexMarkerKey());
  ORRERY_RETURN_IF_ERROR(WriteCatalog(batch));
  // Online, as in the service: the new policy applies to writes at once, and queries
  // scan until the index is complete (index_ready is false before the swap).
  if (reindex) index_rebuilder_.Start(replaced);
  if (replaced->ttl_enabled() != previous->ttl_enabled()) {
    // Turned off: an index left behind is dropped again at the next start.
    if (Status switched = replaced->SwitchExpiryIndex(replaced->ttl_enabled()); !switched.ok()) {
      Log(LogLevel::kWarn, "dropping the expiry index of container " + std::string(id) +
                               " failed: " + switched.ToString());
    }
  }
  std::unique_lock publish(mutex_);
  containers_[ContainerKey{std::string(database_id), std::string(id)}] = std::move(replaced);
  return resource;
}

Status Account::DeleteContainer(std::string_view database_id, std::string_view id) {
  const std::lock_guard writer(catalog_write_mutex_);
  const ContainerKey key{std::string(database_id), std::string(id)};
  std::shared_ptr<Container> container;
  {
    std::shared_lock lock(mutex_);
    auto it = containers_.find(key);
    if (it == containers_.end()) {
      return Status::NotFound(kResourceNotFound);
    }
    container = it->second;
  }
  storage::WriteBatch batch;
  batch.Delete(storage::keys::Container(database_id, id));
  container->AddDropToBatch(batch);
  if (Status written = WriteCatalog(batch); !written.ok()) {
    ResumeStoppedRebuild(container);
    return written;
  }
  std::unique_lock lock(mutex_);
  containers_.erase(key);
  return Status::Ok();
}

}  // namespace orrery::engine
