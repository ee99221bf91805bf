#pragma once

// A container: its settings (immutable snapshot), its physical partitions and the
// item operations on them. Thread-safe: item operations run concurrently; writes to
// one item are serialized by a striped lock.

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "engine/batch.h"
#include "engine/composite_plan.h"
#include "engine/creation_order.h"
#include "engine/index_utilization.h"
#include "engine/item_result.h"
#include "engine/number_allocator.h"
#include "engine/partition/partition_key.h"
#include "engine/partition_map.h"
#include "engine/patch.h"
#include "engine/path_presence.h"
#include "engine/script_catalog.h"
#include "engine/throughput/throughput_ledger.h"
#include "engine/unique_keys.h"
#include "index/composite_key.h"
#include "index/indexing_policy.h"
#include "json/value.h"
#include "query/computed_properties.h"
#include "query/query.h"
#include "storage/store.h"

namespace orrery::engine {

class ApproximateVectorIndex;  // approximate_vector_index.h
class ResultCursors;           // result_cursors.h

struct ItemRecordView;  // item_record.h

struct ContainerSettings {
  std::string database_id;
  std::string id;
  uint32_t database_number = 0;
  uint32_t number = 0;  // account-wide, never reused; the key prefix of its items
  std::string rid;
  std::string self;  // "dbs/<dbrid>/colls/<rid>/"
  partition::PartitionKeyDefinition partition_key;
  PartitionMap partitions;
  json::Value resource;  // the body returned to clients
  // The container's own provisioned throughput (none when it shares its database's).
  std::optional<int64_t> manual_ru_per_second;
  std::optional<int64_t> autoscale_max_ru_per_second;
  // A replace beyond what the partitions serve (partitions x 10,000 RU/s), of the same
  // kind as the current throughput, waiting for splits; 0: none.
  int64_t pending_ru_per_second = 0;
  // The highest RU/s (or autoscale maximum) ever set: the floor of a replace is 1/100
  // of it (1/10 for autoscale).
  int64_t highest_ru_per_second = 0;
  // Set by the admin call; absent: the account's --enforce-throughput.
  std::optional<bool> enforce_throughput;
  // Set by the admin call (the service configures them in its control plane).
  std::vector<throughput::ThroughputBucket> throughput_buckets;
  // --logical-partition-max-bytes (not persisted: the account's option).
  uint64_t logical_partition_max_bytes = uint64_t{20} << 30;
};

enum class WriteKind { kCreate, kReplace, kUpsert };

struct ItemWriteRequest {
  WriteKind kind = WriteKind::kCreate;
  partition::PartitionKeyValue partition_key;  // from the header
  std::string_view url_id;                     // replace only
  std::string_view body;
  std::optional<std::string> if_match;
  // A create whose caller knows that its logical partition holds no item of that id (orrery
  // advise's loading, which checks its items itself): the store is not asked. Writing an
  // item that does exist this way replaces it without a word, so nothing serving clients
  // sets it.
  bool known_absent = false;
  // x-ms-indexing-directive: Include (true) or Exclude (false); nullopt: as the indexing
  // policy's `automatic` says. An item kept out of the index is still read by id and in
  // feeds, but queries that filter do not find it (item_record.h).
  std::optional<bool> indexing_directive;
};

// What a feed or query reads: an EPK range of the container, optionally one logical
// partition.
struct DecodedToken;  // continuation_token.h

struct ReadScope {
  EpkRange range;
  std::optional<std::string> exact_epk;  // a full partition key

  bool Contains(std::string_view epk) const {
    if (exact_epk) return epk == *exact_epk;
    return range.min <= epk && (range.max == "FF" || epk < range.max);
  }
};

// The service ends a page of a feed or query at 4 MB of documents (query-language.md
// §6); so does Orrery, after the document that crosses it: a page holds at least one.
inline constexpr size_t kMaxPageBytes = size_t{4} << 20;

struct FeedPage {
  std::vector<std::string> documents;  // JSON texts
  size_t document_bytes = 0;           // of `documents`

  void Add(std::string document) {
    document_bytes += document.size();
    documents.push_back(std::move(document));
  }
  // Whether the page has reached kMaxPageBytes: no document may follow.
  bool full() const { return document_bytes >= kMaxPageBytes; }
  std::optional<std::string> continuation;
  size_t loaded_bytes = 0;  // items read from storage (query metrics: retrieved)
  size_t loaded_count = 0;
  size_t index_entries = 0;  // range-index entries read
  // A vector search's work (throughput::QueryWork): vector bytes scanned, bytes compared
  // at full precision; the entries and items it read that these stand for in the charge
  // (counted in index_entries and loaded_* for the metrics): its vector entries, and the
  // items loaded only to re-rank quantized candidates (the service re-ranks from its
  // index, not from documents).
  size_t vector_entries = 0;
  double scanned_vector_kb = 0;
  double candidate_vector_kb = 0;
  size_t reranked_count = 0;
  size_t reranked_bytes = 0;
  double plan_ms = 0;  // choosing the indexes (queryPhysicalPlanBuildTimeInMs)
  double index_lookup_ms = 0;
  double document_load_ms = 0;
  int partitions_touched = 1;
  std::vector<std::string> touched_partition_ids;  // of partitions_touched, in EPK order
  // The indexes the query used and those that would have helped (index metrics).
  IndexUtilization index_utilization;
};

struct ContainerStatistics;  // partition_statistics.h

// What survives a settings change (container replace): the item number allocator
// and the per-item write locks, shared by the old and the new Container object.
struct ContainerWriteState {
  std::unique_ptr<NumberAllocator> item_numbers;
  // Since the server started, for /metrics: physical partitions split, items the TTL
  // purge deleted.
  std::atomic<uint64_t> splits{0};
  std::atomic<uint64_t> ttl_purged_items{0};
  // Held across the store write, which under --sync-writes waits for a sync: two
  // writers of one stripe cannot share that sync. With 64 stripes, about 7 of 32
  // concurrent creates waited a whole extra sync behind another; with 256, about 2.
  std::array<std::mutex, 256> stripes;
  // Per logical partition (by EPK), taken before item stripes by writes to containers
  // with unique keys: two items of one partition must not claim one value at once.
  std::array<std::mutex, 16> partition_stripes;
  // LSNs handed out whose write is not in the store yet: the change feed reads only
  // below the lowest, so it never passes a write that lands later with a lower LSN.
  std::mutex lsn_mutex;
  std::multiset<uint64_t> in_flight_lsns;
  // Budgets and usage per physical partition (provisioned by the account).
  throughput::ThroughputLedger throughput;
  // Splits (container_split.cc). Every write holds split_mutex shared (SplitGate);
  // a split's commit holds it exclusively. write_map is the partition map writes file
  // their index and change-feed entries under, so that a Container object of before a
  // split writes under the map after it. `split` is set while a split copies its
  // parent's entries: writes to the parent then file them under the child too.
  struct SplitInProgress {
    uint32_t parent = 0;
    std::string at;  // the children's boundary
    uint32_t left = 0;
    uint32_t right = 0;
  };
  std::shared_mutex split_mutex;
  std::atomic<bool> split_commit_waiting{false};
  // Bumped by each split's commit before it drops the parent's entries: a Container
  // object opened before that reads a map whose partitions may have lost them.
  std::atomic<uint64_t> partition_map_generation{0};
  // Whether the creation-order lists (creation_order.h) hold every item.
  std::atomic<bool> creation_order_kept{false};
  std::shared_ptr<const PartitionMap> write_map;
  std::optional<SplitInProgress> split;
  // The policy writers index under. Replaced only while every stripe is held, so a
  // writer (which holds its item's stripe) indexes under one policy from start to end,
  // even when it still holds the Container object of before a policy change.
  std::shared_ptr<const index::IndexingPolicy> write_policy;
  // The computed properties whose values writers index, replaced with write_policy.
  std::shared_ptr<const query::ComputedProperties> write_computed;
  // False while the range index is rebuilt after an indexing-policy change; queries
  // then scan instead of trusting a partial index.
  std::atomic<bool> index_ready{true};
  std::atomic<int> reindex_percent{100};
  // Bumped by each policy change and by a stop; a rebuild that sees a newer one ends.
  // Checked and bumped under rebuild_mutex, so no rebuild write follows a stop.
  std::atomic<uint64_t> index_generation{0};
  std::mutex rebuild_mutex;
  // For the splitter (account_split.cc), which skips reading every logical partition's
  // size while no partition can have reached the split size: the largest partition's
  // bytes at its last reading (-1: not read yet), and the bytes that writes have added
  // since (growth only, so the sum bounds every partition from above).
  std::atomic<int64_t> largest_partition_bytes{-1};
  std::atomic<int64_t> bytes_added_since_sizes_read{0};
  // All logical partitions' bytes at that reading (-1: not read yet). Plus the bytes
  // added since, it bounds every logical partition, so a write that keeps the sum within
  // the logical partition limit needs no read of its partition's size.
  std::atomic<int64_t> container_bytes_at_sizes_read{-1};
  // Which paths every item of a partition has (path_presence.h), kept by committed
  // writes (CommitScope::Committed), forgotten by policy changes and splits.
  PathPresence presence;
  // Whether the expiry index (expiry_index.h) holds every item; the TTL purge reads it.
  std::atomic<bool> expiry_index_kept{false};
  // Whether writes keep that index: only while the container has TTL on, as the purge
  // is its one reader and each entry is a key every write would pay for. Switched
  // while every stripe is held (Container::SwitchExpiryIndex), so a writer keeps it or
  // not from start to end. Each switch bumps expiry_generation; the background build
  // that completes the index after TTL is turned on (BuildExpiryIndex) checks it under
  // expiry_mutex before each write, so no build write follows a switch off.
  std::atomic<bool> expiry_writes{false};
  std::atomic<uint64_t> expiry_generation{0};
  std::mutex expiry_mutex;
  // Partition-key deletes still running (container_partition_delete.cc), by EPK: the
  // LSN the delete was asked at. The versions of that logical partition at or below it
  // are gone at once for reads, queries and writes, and deleted in the background.
  std::mutex partition_deletes_mutex;
  std::map<std::string, uint64_t, std::less<>> partition_deletes;
  std::atomic<bool> has_partition_deletes{false};
  // Results kept between query pages (result_cursors.h), shared by the account's
  // containers; null: none kept.
  std::shared_ptr<ResultCursors> result_cursors;
  // Server-side scripts (container_scripts.cc).
  ScriptCatalog scripts;
  // Set once the container has a stored procedure or trigger (never unset): from then
  // on every write takes its logical partition's lock (LockLogicalPartition), which a
  // script's transaction holds for its whole run (container_transaction.cc).
  std::atomic<bool> partition_writes_serialized{false};
  // The partition statistics of a container with so many logical partitions that
  // reading their sizes took long (partition_statistics.cc): served again for a while,
  // so that a Data Explorer polling them, or a Prometheus scrape, does not reread them
  // all each time.
  struct KeptStatistics {
    std::mutex mutex;
    std::shared_ptr<const ContainerStatistics> statistics;
    std::chrono::steady_clock::time_point read_at;
    std::chrono::steady_clock::duration reading_took{};
  };
  KeptStatistics kept_statistics;
};

class Container {
 public:
  Container(ContainerSettings settings, storage::Store& store, const Clock& clock,
            std::shared_ptr<ContainerWriteState> write_state);
  // Stops and joins the building of approximate vector indexes (container_vector_graph.cc).
  ~Container();
  Container(const Container&) = delete;
  Container& operator=(const Container&) = delete;

  // The items in the approximate index (diskANN, quantizedFlat) of a physical
  // partition's vector index, or nullopt while it is not built (asking starts its build).
  // For tests and benchmarks.
  std::optional<size_t> VectorGraphSize(uint32_t partition, uint32_t vector_index) const;
  // How the approximate index of a partition's vector index was made (tests).
  enum class GraphOrigin { kNone, kBuilding, kScanned, kLoaded };
  GraphOrigin VectorGraphOrigin(uint32_t partition, uint32_t vector_index) const;

  // The built diskANN graphs, saved to `directory` at a clean shutdown (with no write
  // after it: the caller makes sure), and read back from it at the next start instead of
  // being built again: each partition's graph found there is loaded in the background
  // (writes meanwhile wait in its queue, queries scan exactly), or built from the entries
  // when its files do not load.
  Status SaveVectorGraphs(const std::string& directory) const;
  void LoadSavedVectorGraphs(const std::string& directory);

  const ContainerSettings& settings() const { return settings_; }
  uint64_t current_lsn() const { return write_state_->item_numbers->last(); }
  // False once a split has committed since this object was opened: a query or change
  // feed read on it may have missed the parent partition's entries, and is read again
  // from the container the account now holds.
  bool partition_map_is_current() const {
    return write_state_->partition_map_generation.load() == partition_map_generation_;
  }
  const std::shared_ptr<ContainerWriteState>& write_state() const { return write_state_; }

  // Reading through a composite index (container_composite.cc).
  // Visits the entries of `partition` within `scope` that `use` selects, in its order
  // (backward when use.reverse), starting after `after` when given, until `visit`
  // returns false. Counts the entries read in `page`.
  Status ScanCompositeEntries(
      const CompositeUse& use, const PhysicalPartition& partition, const ReadScope& scope,
      const index::CompositePosition* after, FeedPage& page,
      const std::function<bool(const index::CompositeEntryView&)>& visit) const;
  // The same, with each entry's item (skipping those deleted or expired since), counted
  // as loaded in `page`: the items in composite order, for a resumable ORDER BY.
  using CompositeVisit =
      std::function<bool(const index::CompositeEntryView& entry, std::string_view json)>;
  Status VisitInCompositeOrder(const CompositeUse& use, const PhysicalPartition& partition,
                               const ReadScope& scope, const index::CompositePosition* after,
                               FeedPage& page, const CompositeVisit& visit) const;

  Result<ItemResult> WriteItem(const ItemWriteRequest& request);
  // Errors: NotFound; with if_none_match equal to the current etag, ok with
  // not_modified set.
  struct ReadResult {
    ItemResult item;
    bool not_modified = false;
  };
  Result<ReadResult> ReadItem(const partition::PartitionKeyValue& key, std::string_view id,
                              std::optional<std::string_view> if_none_match) const;
  // Partial document update (patch.h), atomic against concurrent writes of the item.
  // Errors: NotFound; PreconditionFailed when `if_match` or the condition fails;
  // BadRequest for an operation that cannot apply or one that changes the id or the
  // partition key (nothing is written).
  Result<ItemResult> PatchItem(const partition::PartitionKeyValue& key, std::string_view id,
                               const PatchRequest& patch, std::optional<std::string> if_match);
  // A transactional batch in one logical partition: every operation sees the ones
  // before it, and either all are written, in one atomic write, or none is. The results
  // are in operation order; when one fails, it carries its status and the ones after
  // it are not run (their results stay default, for the caller to answer 424).
  // Errors: only those of the whole request (storage).
  Result<std::vector<BatchOperationResult>> ExecuteBatch(const partition::PartitionKeyValue& key,
                                                         const std::vector<BatchOperation>& ops);
  Result<ItemResult> DeleteItem(const partition::PartitionKeyValue& key, std::string_view id,
                                std::optional<std::string_view> if_match);

  // Server-side scripts (container_scripts.cc). Errors: BadRequest (id, body, trigger
  // type or operation, or a body that does not compile: the message says where),
  // Conflict, NotFound, PreconditionFailed (if_match), Forbidden (past the container's
  // limit for the type).
  Result<json::Value> CreateScript(ScriptType type, json::Value body, bool upsert);
  Result<json::Value> ReadScript(ScriptType type, std::string_view id) const;
  Result<json::Value> ReplaceScript(ScriptType type, std::string_view id, json::Value body,
                                    std::optional<std::string> if_match);
  Status DeleteScript(ScriptType type, std::string_view id, std::optional<std::string> if_match);
  // In creation order.
  Result<std::vector<json::Value>> ListScripts(ScriptType type) const;
  Result<std::optional<std::string>> ScriptIdOfRid(ScriptType type, std::string_view rid) const;
  size_t ScriptCount(ScriptType type) const;
  // The user-defined functions, for query::Compile.
  Result<std::shared_ptr<const query::UserFunctions>> UserFunctionsForQueries() const;

  // A transaction of one logical partition, what a script's execution writes through
  // (container_transaction.cc).
  class Transaction;
  Result<std::unique_ptr<Transaction>> BeginTransaction(const partition::PartitionKeyValue& key);
  // A lookup through a composite: the item key suffixes of the entries `use` selects,
  // sorted, those after `resume_after` only.
  Status CollectCompositeKeys(const CompositeUse& use, const ReadScope& scope,
                              std::string_view resume_after, FeedPage& page,
                              std::vector<std::string>& keys) const;

  // Items of the scope in EPK order, resuming after `continuation`.
  Result<FeedPage> ReadFeed(const ReadScope& scope, int max_items,
                            std::string_view continuation) const;
  Result<FeedPage> Query(const query::CompiledQuery& query, const ReadScope& scope, int max_items,
                         std::string_view continuation) const;

  // The scope of a whole container, or of one physical partition.
  ReadScope FullScope() const { return ReadScope{}; }

  // Removes the container's items and index (part of deleting the container), and
  // stops a rebuild of its index.
  void AddDropToBatch(storage::WriteBatch& batch) const;

  const index::IndexingPolicy& indexing_policy() const { return indexing_; }
  // The container's computed properties (none: empty), for compiling its queries.
  const std::shared_ptr<const query::ComputedProperties>& computed_properties() const {
    return computed_;
  }
  // The container's vectorEmbeddingPolicy and vector indexes (none: empty).
  const query::VectorPolicy& vector_policy() const { return *vectors_; }
  // The container's fullTextPolicy (none: every path en-US).
  const query::FullTextPolicy& full_text_policy() const { return *full_text_; }
  // Its geospatialConfig type: how its queries' spatial functions measure.
  spatial::CoordinateSystem coordinate_system() const { return coordinate_system_; }

  // Index maintenance (container_index.cc). The index of a container is complete for
  // its policy when the index marker (a meta key holding the policy's JSON) says so;
  // a policy change removes the marker in the same write as the new container record,
  // so a crash in the middle of a rebuild is followed by a new rebuild on start.
  std::string IndexMarkerKey() const;
  std::string IndexMarkerValue() const;
  // Whether the stored marker matches this container's policy.
  Result<bool> IndexIsCurrent() const;
  // Makes writers index under this container's policy and marks the index as being
  // rebuilt; returns the generation to pass to RebuildIndex.
  uint64_t BeginIndexRebuild();
  // Rebuilds the whole range index under the current policy, reporting progress in
  // write_state()->reindex_percent, alongside writes; then writes the marker. Ends
  // early, leaving the index not ready, when a newer change or StopIndexRebuild came.
  Status RebuildIndex(uint64_t generation) const;
  // Ends a running rebuild: when this returns, it writes nothing more.
  void StopIndexRebuild() const;
  // Whether the range index may serve a page read through a ReadView: taken before the
  // view (ReadinessBeforeView) and checked after it (IndexServesView). Read after the
  // view instead, a rebuild that ends while the view waits for writes in flight (its
  // own among them) would make the page trust an index its snapshot holds only part of;
  // and a rebuild that began (and cleared the index) before the snapshot bumps the
  // generation.
  struct IndexReadiness {
    bool ready = false;
    uint64_t generation = 0;
  };
  IndexReadiness ReadinessBeforeView() const;
  bool IndexServesView(const IndexReadiness& before) const;
  // The change feed, latest-version mode (container_change_feed.cc): the items of
  // `scope` modified after `after_lsn` (and, when given, at or after `since_ts`), in
  // modification order, each with its `_lsn`, at most `max_items`. `last_lsn` is the
  // continuation: everything up to it has been seen.
  struct ChangeFeedPage {
    std::vector<std::string> documents;
    uint64_t last_lsn = 0;
    size_t loaded_bytes = 0;
  };
  Result<ChangeFeedPage> ReadChangeFeed(const ReadScope& scope, uint64_t after_lsn,
                                        std::optional<int64_t> since_ts, int max_items) const;
  // The highest LSN below which every write is in the store ("start from now").
  uint64_t StableLsn() const;

  // Throughput (container_throughput.cc): admits a request to the physical partition
  // of `key`, or to every partition a scope reads (TooManyRequests with the wait when
  // a budget is spent; always admitted when throughput is not enforced), and records
  // the charge of one that ran.
  // `request` is its priority and throughput bucket (throughput/request_class.h): a
  // request over its bucket's share gets 429 with substatus 3212.
  Status AdmitRequest(const partition::PartitionKeyValue& key,
                      const throughput::RequestClass& request = {}) const;
  void ChargeRequest(const partition::PartitionKeyValue& key, double request_units,
                     const throughput::RequestClass& request = {}) const;
  Status AdmitScope(const ReadScope& scope, const throughput::RequestClass& request = {}) const;
  void ChargeScope(const ReadScope& scope, double request_units,
                   const throughput::RequestClass& request = {}) const;
  throughput::ThroughputLedger& throughput_ledger() const { return write_state_->throughput; }
  std::vector<uint32_t> PartitionNumbers() const;
  // About how many bytes its items and index entries take in the store.
  uint64_t ApproximateStoredBytes() const;

  // Logical partition sizes (container_sizes.cc): items and bytes (of the items' JSON)
  // per full partition key, with the key as header JSON, in EPK order.
  struct LogicalPartitionSize {
    std::string epk;
    int64_t items = 0;
    int64_t bytes = 0;
    std::string partition_key;
  };
  Result<std::vector<LogicalPartitionSize>> LogicalPartitionSizes() const;
  // Counts the sizes of data written before they were kept (once; call before writes).
  Status EnsureSizesCounted();
  // The meta key that says the sizes are complete.
  std::string SizesMarkerKey() const;

  // Creation order (container_creation_order.cc, creation_order.h): lists the items of
  // data written before they were kept (once; call before writes), and the meta key
  // that says they are complete. Without it (a read-only store of such data), queries
  // read in key order.
  Status EnsureCreationOrderKept();
  std::string CreationMarkerKey() const;
  // The id of the item whose _rid is `rid` (its rid link, dbs/<rid>/colls/<rid>/docs/<rid>,
  // addresses it as its id does), from the creation lists; nullopt when no item of this
  // container has it (deleted since, another container's, not an item rid).
  Result<std::optional<std::string>> ItemIdOfRid(std::string_view rid) const;

  // Time to live (container_ttl.cc). The background purge: reads up to `max_items`
  // entries of the expiry index that are due and deletes their items; what it read
  // and deleted.
  struct PurgeCount {
    size_t purged = 0;
    size_t entries_read = 0;  // expiry-index entries
    size_t items_read = 0;
  };
  Result<PurgeCount> PurgeExpired(size_t max_items);
  // The expiry index (container_expiry.cc, expiry_index.h), kept while TTL is on. At
  // open (call before writes): with TTL on, lists the items of data written without
  // it; with TTL off, drops an index left from when it was on. The meta key says it is
  // complete; without it (a read-only store of such data) nothing is purged.
  Status EnsureExpiryIndexKept();
  // After a replace turned TTL on or off: writes start or stop keeping the index; off
  // drops it at once, on leaves it to BuildExpiryIndex (the purge calls it).
  Status SwitchExpiryIndex(bool on);
  // Lists every item in the index, under each item's lock, while writes keep it, and
  // marks it complete; ends early (ok) if TTL is switched off meanwhile.
  Status BuildExpiryIndex();
  // Stops keeping the expiry index and ends a BuildExpiryIndex that is running, before
  // it writes again (a container drop; if the drop fails, SwitchExpiryIndex(true)).
  void StopExpiryIndexBuild() const;
  std::string ExpiryMarkerKey() const;
  bool ttl_enabled() const { return default_ttl_.has_value(); }

  // Partition-key delete (container_partition_delete.cc): every item of the logical
  // partition `key` that exists now is gone at once for reads, queries and writes (a new
  // item of the same id may be created right away), and deleted in the background by
  // PurgeDeletedPartitions on the partition's spare throughput, at most a tenth of its
  // RU/s, as the service does. Kept across restarts (LoadPartitionDeletes, at open).
  Status DeleteLogicalPartition(const partition::PartitionKeyValue& key);
  Result<PurgeCount> PurgeDeletedPartitions(size_t max_items);
  Status LoadPartitionDeletes();
  // Whether partition-key deletes are still running (tests).
  bool partition_deletes_running() const { return write_state_->has_partition_deletes.load(); }

  // Percent of the items indexed under the current policy: 100 unless a rebuild runs.
  int IndexTransformationProgress() const { return write_state_->reindex_percent.load(); }

 private:
  // Takes the index charge of one stored item from its partition's spare budget,
  // waiting while there is none; false when the rebuild was superseded meanwhile.
  bool WaitForSpareThroughput(std::string_view epk, std::string_view id, std::string_view stored,
                              uint64_t generation) const;
  // Sleeps while the disk is full (storage::Store::OutOfSpace), at least one poll
  // interval; false when the rebuild was superseded meanwhile.
  bool WaitForRoom(uint64_t generation) const;
  std::mutex& StripeFor(std::string_view key) const;
  // Every stripe, in index order (no writer takes two): while held, no item write is in
  // flight, so what writers decide per write (policy, expiry index) can change.
  std::vector<std::unique_lock<std::mutex>> HoldEveryStripe() const;
  // Walks the items of [begin, end) for work that rewrites what is filed for each (the
  // index rebuild, a split's copy). `admit` (may be empty) sees the scanned version with
  // no lock held; then `visit` sees the item's current version under its write lock, so a
  // concurrent write either came before (and is what `visit` sees) or waits for it.
  // Items deleted since the scan saw them are skipped. Either callback ends the walk by
  // returning false.
  using ItemAdmit =
      std::function<bool(std::string_view epk, std::string_view id, std::string_view scanned)>;
  using LockedItemVisit =
      std::function<bool(std::string_view epk, std::string_view id, const ItemRecordView& current)>;
  Status ForEachItemUnderLock(std::string_view begin, std::string_view end, const ItemAdmit& admit,
                              const LockedItemVisit& visit) const;
  // Like ForEachItemUnderLock without `admit`, but `visit` adds what it files to a write
  // batch that up to `items_per_batch` items share, and each item's write lock is held
  // until that batch is in the store. For walks whose per-item cost is mostly the write
  // itself (a split's copy).
  using BatchedItemVisit =
      std::function<void(std::string_view epk, std::string_view id, const ItemRecordView& current,
                         storage::WriteBatch& batch)>;
  Status ForEachItemInLockedBatches(std::string_view begin, std::string_view end,
                                    size_t items_per_batch, const BatchedItemVisit& visit) const;
  // Held by every write for its whole duration (see ContainerWriteState::split_mutex);
  // waits while a split commits.
  std::shared_lock<std::shared_mutex> EnterWrite() const;
  // The partitions a write of `epk` files its index and change-feed entries under: its
  // owner in write_map and, while that partition splits, the child that will own it.
  // Call inside EnterWrite.
  std::vector<uint32_t> WritePartitionsOf(std::string_view epk) const;

 public:
  // Splits (container_split.cc; account_split.cc runs them). REQUIRES: the write
  // state's `split` is set. Files every item of `parent` under its child.
  Status CopyForSplit(uint32_t parent) const;
  // Deletes the index and change-feed entries filed under `partition`.
  void AddPartitionDropToBatch(uint32_t partition, storage::WriteBatch& batch) const;

 private:
  // The steps of a write, shared by single writes and transactional batches: checks
  // that need no lock; then, under the item's stripe, the write added to `batch` given
  // the item's current record (nullopt: absent).
  struct CheckedWrite {
    json::Value item;
    std::string id;
    std::string epk;
    std::string key;
  };
  Result<CheckedWrite> CheckWrite(const ItemWriteRequest& request) const;
  // Records a batch has written but not committed yet, by key (nullopt: deleted):
  // items and unique-key entries. Single writes pass none.
  using PendingRecords = std::map<std::string, std::optional<std::string>>;
  Result<ItemResult> AddWriteToBatch(const ItemWriteRequest& request, CheckedWrite write,
                                     const std::optional<std::string>& existing,
                                     storage::WriteBatch& batch, PendingRecords* pending);
  // `allow_gone`: the purges delete expired items and those of deleted partitions, which
  // to everyone else are gone.
  Result<ItemResult> AddDeleteToBatch(std::string_view epk, std::string_view id,
                                      const std::optional<std::string>& stored,
                                      std::optional<std::string_view> if_match,
                                      storage::WriteBatch& batch, PendingRecords* pending,
                                      bool allow_gone = false);
  static std::optional<int64_t> ParseDefaultTtl(const json::Value& resource);
  // When an item version (its JSON) expires, in seconds since the epoch; nullopt: never.
  std::optional<int64_t> ExpiresAt(std::string_view json) const;
  // Replaces the expiry-index entry of an item's old version (nullopt: none) by its new
  // one's in `batch`.
  void AddExpiryChanges(storage::WriteBatch& batch, std::string_view epk, std::string_view id,
                        std::optional<std::string_view> old_json,
                        std::optional<std::string_view> new_json) const;
  // Drops every entry of the expiry index and its marker.
  void AddExpiryIndexDropToBatch(storage::WriteBatch& batch) const;
  bool IsExpired(std::string_view json) const;
  // Whether a stored version is gone for readers and writers: expired, or in a logical
  // partition whose delete is running.
  bool IsGone(std::string_view epk, const ItemRecordView& record) const;
  bool InDeletedPartition(std::string_view epk, uint64_t lsn) const;
  std::string PartitionDeleteKey(std::string_view epk) const;
  void AddPartitionDeletesDropToBatch(storage::WriteBatch& batch) const;
  // Errors: BadRequest for an invalid ttl member (when the container has TTL on).
  Status ValidateItemTtl(const json::Value& item) const;
  // Checks the unique keys of a new item version against the other items of its
  // logical partition and replaces the old version's entries by its own in `batch`.
  // Errors: Conflict on a violation.
  Status AddUniqueKeyChanges(std::string_view epk, std::string_view id, const json::Value* old_item,
                             const json::Value* new_item, storage::WriteBatch& batch,
                             PendingRecords* pending);
  // Held by writers of containers with unique keys (an empty lock otherwise).
  std::unique_lock<std::mutex> LockLogicalPartition(std::string_view epk) const;
  // From now on every write takes its logical partition's lock (waits, once, for the
  // writes in flight that did not). container_transaction.cc.
  void SerializePartitionWrites();
  // container_scripts.cc. REQUIRES: write_state_->scripts.mutex held.
  Status LoadScripts() const;
  // The script a replace or delete changes. Errors: NotFound, PreconditionFailed.
  // REQUIRES: write_state_->scripts.mutex held.
  Result<const json::Value*> ScriptToChange(ScriptType type, std::string_view id,
                                            const std::optional<std::string>& if_match) const;
  Result<json::Value> StoreScript(ScriptType type, const std::string& id, const std::string& rid,
                                  json::Value body, ScriptCatalog& catalog);
  // Counts growth for the splitter's bound (ContainerWriteState); true when the bound
  // shows that no logical partition can pass the limit with it.
  bool CountGrowthWithinLimit(int64_t bytes_delta) const;
  // Adds a write's change of its logical partition's size to `batch`; Forbidden/1014
  // when it would take the partition past its limit. `new_key` labels a new partition.
  Status AddSizeChange(std::string_view epk, const partition::PartitionKeyValue* new_key,
                       int64_t count_delta, int64_t bytes_delta, storage::WriteBatch& batch,
                       PendingRecords* pending) const;
  // The text of `current` (an item version with `current_etag`) after `patch`.
  // Errors: PreconditionFailed (if_match, condition), BadRequest (operations, or a
  // change of id or partition key).
  Result<std::string> PatchedBody(const PatchRequest& patch, std::string_view current,
                                  std::string_view current_etag,
                                  const std::optional<std::string>& if_match,
                                  const partition::PartitionKeyValue& key,
                                  std::string_view id) const;
  size_t StripeIndex(std::string_view key) const;
  // The physical partitions that hold items of `scope`.
  std::vector<const PhysicalPartition*> PartitionsIn(const ReadScope& scope) const;
  // Hands out the next LSN and records it as in flight until the CommitScope of this
  // thread that is open ends (after the write reached the store, or failed).
  Result<uint64_t> AllocateLsn();
  class CommitScope {
   public:
    explicit CommitScope(const Container& container);
    ~CommitScope();
    CommitScope(const CommitScope&) = delete;
    CommitScope& operator=(const CommitScope&) = delete;
    // After the write reached the store: applies the changes noted for PathPresence
    // (container_presence.cc). Call with the write's split lock still held; changes
    // not committed are dropped when the scope ends.
    void Committed();

   private:
    size_t first_;
    size_t first_presence_;
  };
  // The record of `key` as a batch sees it: pending first, then the store.
  Result<std::optional<std::string>> StoredRecord(const std::string& key,
                                                  const PendingRecords* pending) const;
  std::string KeyFor(std::string_view epk, std::string_view id) const;
  Result<std::string> EpkOf(const partition::PartitionKeyValue& key) const;
  // `indexed_only`: items kept out of the index are passed over (a query that filters).
  Status ScanScope(const ReadScope& scope, std::string_view resume_after,
                   const std::function<bool(std::string_view key, std::string_view json)>& visit,
                   bool indexed_only = false) const;

  // Index entries of an item version (empty when the text is not an item).
  // Call with the item's stripe held: they read write_state()->write_policy.
  std::vector<std::string> IndexKeysOf(std::string_view json, std::string_view epk,
                                       std::string_view id) const;
  std::vector<std::string> IndexKeysOf(const json::Value& item, std::string_view epk,
                                       std::string_view id) const;
  // The entries of an item kept out of the index (item_record.h): its id's only, which
  // every policy indexes, so that queries by id find it as the service's do.
  std::vector<std::string> IdIndexKeysOf(const json::Value& item, std::string_view epk,
                                         std::string_view id) const;
  // Those of a stored version, kept out of the index or not.
  std::vector<std::string> IndexKeysOf(const ItemRecordView& record, std::string_view epk,
                                       std::string_view id) const;
  // What a version's index entries (of IndexKeysOf, filed under `partitions` physical
  // partitions) cost to write: its terms and the vectors its vector indexes hold.
  throughput::IndexWrite IndexWriteOf(const std::vector<std::string>& keys,
                                      size_t partitions) const;
  // Replaces the old version's index entries by the new one's in `batch`; with
  // `presence`, notes the changes for PathPresence (applied once committed).
  static void AddIndexChanges(storage::WriteBatch& batch, const std::vector<std::string>& old_keys,
                              const std::vector<std::string>& new_keys,
                              ContainerWriteState* presence = nullptr);
  // container_presence.cc: a change to note for PathPresence until the CommitScope of
  // this thread commits or ends. `path` empty: the item count.
  static void NotePresenceChange(ContainerWriteState& state, uint32_t partition,
                                 std::string_view path, int64_t delta);
  // The same for an index entry added (+1) or removed (-1), when it is a path's.
  static void NoteEntryChange(ContainerWriteState& state, std::string_view entry_key,
                              int64_t delta);
  // +delta items in each of `partitions` (a create's, or a delete's -1).
  void NoteItemCountChange(const std::vector<uint32_t>& partitions, int64_t delta) const;
  // The changes noted on this thread: how many, and applying or dropping those from a mark.
  static size_t PresenceMark();
  static void ApplyPresence(size_t from);
  static void DropPresence(size_t from);

  // An item an index entry names, counted as loaded; nullopt if deleted or expired.
  Result<std::optional<std::string>> LoadIndexedItem(std::string_view epk, std::string_view id,
                                                     FeedPage& page) const;

  // Query execution (container_query.cc).
  struct QueryRun;
  // Whether some item of `partition` lacks `path_prefix` (index::PathPrefix), from the
  // counts of PathPresence, counting the path first (while no write runs) when needed;
  // what that reads is charged to the run. True when it cannot tell.
  Result<bool> SomeItemLacks(QueryRun& run, uint32_t partition,
                             const std::string& path_prefix) const;
  Result<int64_t> CountPartitionItems(uint32_t partition) const;
  // What PathPresence keeps of `path` in `partition` (its entries, or a full-text path's
  // words) and the partition's items, counting them first when needed: `count` then runs
  // while no write does, reading the latest state, and what is read is charged to
  // `page`. nullopt while the partition splits away or the index is rebuilt.
  struct PresenceCount {
    int64_t entries = 0;
    int64_t items = 0;
  };
  Result<std::optional<PresenceCount>> CountPresence(
      uint32_t partition, std::string_view path, FeedPage& page,
      const std::function<Result<int64_t>()>& count) const;
  // How many items `scope` holds (one logical partition's counter, or the physical
  // partitions' counts of path_presence.h), or nullopt when not counted.
  Result<std::optional<int64_t>> ItemsIn(const ReadScope& scope) const;
  // The row of a FullTextScore ranking's statistics query counted from the full-text
  // index (container_full_text_statistics.cc), added to `page`; false when the index
  // cannot tell (the query is then evaluated).
  Result<bool> AnswerFullTextStatistics(const query::FullTextStatisticsQuery& statistics,
                                        const ReadScope& scope, bool index_ready,
                                        FeedPage& page) const;
  // For an equality and one ORDER BY key: whether streaming the ORDER BY path reads less
  // than seeking the equality's matches on every page; for a full-text filter, whether
  // walking the items in creation order does. Counts the matches (charged).
  Result<bool> StreamingReadsLess(const ReadScope& scope, const query::PathPredicate& equality,
                                  int max_items, FeedPage& page) const;
  // Visits the items of `partition` within the run's scope in the order of `path`'s
  // values (container_query_streams.cc), after the position `after` (an encoded value
  // and key suffix; nullptr: from the start), until `visit` returns false.
  using PositionedVisit = std::function<bool(std::string_view value, std::string_view key_suffix,
                                             const json::Value& doc)>;
  // The index entries under `prefix` the run may read (its order bound), after the
  // position `after` (nullptr: all) in the direction of the scan.
  index::KeyRange IndexRangeAfter(const QueryRun& run, const std::string& prefix,
                                  const std::string* after, bool descending) const;
  // The first `wanted` distinct encoded values under `path` in `partition` after `after`
  // (a group token's position) in the direction of the scan, from index keys alone,
  // charged as entries read.
  Result<std::vector<std::string>> NextIndexedValues(QueryRun& run,
                                                     const PhysicalPartition& partition,
                                                     const query::DocumentPath& path,
                                                     const std::string* after, bool descending,
                                                     size_t wanted) const;
  Status VisitInIndexOrder(QueryRun& run, const PhysicalPartition& partition,
                           const query::DocumentPath& path, bool descending,
                           const std::string* after, const PositionedVisit& visit) const;
  // The entries of a path in `range`, in the order of their values: `on_entry` gets
  // each entry in scope, except those of a bounded string (index_key.h), whose group's
  // rows go to `in_group` in the order of the items' own values (VisitBoundedGroup).
  // Either returns whether to go on.
  Status ScanInValueOrder(QueryRun& run, const query::DocumentPath& path, const std::string& prefix,
                          index::KeyRange range, bool descending, const std::string* after,
                          const std::function<bool(const index::EntryView&)>& on_entry,
                          const PositionedVisit& in_group) const;
  // The entries of one bounded string (index_key.h) of an ordered read: the items'
  // rows in the order of their own values after `after`; sets go_on false once `visit`
  // does.
  Status VisitBoundedGroup(QueryRun& run, const query::DocumentPath& path,
                           const std::string& prefix, const std::string& group, bool descending,
                           const std::string* after, const PositionedVisit& visit,
                           bool& go_on) const;
  // The same for the plan's ORDER BY: its range-index path, or its composite index.
  Status VisitInOrder(QueryRun& run, const PhysicalPartition& partition, const std::string* after,
                      const PositionedVisit& visit) const;
  // One page of an ORDER BY (IndexPlan::kOrdered, kComposite) or group (kGrouped) stream,
  // resumed
  // from `token` (nullptr: the first page).
  Status StreamOrdered(QueryRun& run, const DecodedToken* token, int max_items) const;
  // ORDER BY VectorDistance through a vector index (container_vector_search.cc): the
  // index position of the vector index on `ranking`'s path, if there is one, and the
  // rows of the items nearest first, as many as the query can show (and a few more, as
  // the index holds float32 and the rows are sorted again by their exact scores).
  std::optional<uint32_t> VectorIndexOn(const query::VectorRanking& ranking) const;
  // The approximate index (a diskANN graph, quantizedFlat's quantized vectors) of a
  // partition's vector index when it is built, else null (and its build is started); null
  // too for flat indexes.
  std::shared_ptr<ApproximateVectorIndex> ReadyGraph(uint32_t partition,
                                                     uint32_t vector_index) const;
  // Registers the approximate index of (partition, vector index) and queues its build,
  // from `load_from` (saved files) when not empty. Call with graphs_->mutex held.
  void StartGraphBuildLocked(uint32_t partition, uint32_t vector_index,
                             std::string load_from) const;
  void BuildVectorGraphs() const;  // the builder thread
  void SetGraphOrigin(std::pair<uint32_t, uint32_t> key, GraphOrigin origin) const;
  // Keeps the built graphs current with a write's vector-index entries (both sorted).
  void NoteGraphChanges(const std::vector<std::string>& old_keys,
                        const std::vector<std::string>& new_keys) const;
  Status CollectNearest(QueryRun& run, const query::VectorRanking& ranking, uint32_t vector_index,
                        const std::function<bool(std::string_view json)>& evaluate) const;
  Status StreamGroups(QueryRun& run, const DecodedToken* token, int max_items) const;
  // The index-key ranges a lookup by `predicate` reads in one partition, after their
  // common prefix (the path's, or its full-text index's for a kFullText predicate).
  struct LookupRanges {
    std::string prefix;
    std::vector<index::KeyRange> ranges;
  };
  LookupRanges LookupRangesIn(uint32_t partition, const query::PathPredicate& predicate) const;
  Status CollectCandidateKeys(QueryRun& run, std::string_view resume_after,
                              std::vector<std::string>& keys) const;
  Result<std::optional<std::string>> LoadItem(QueryRun& run, std::string_view key_suffix) const;
  // The item of an index entry parsed for the query, for a visitor of entries; nullopt
  // when it is gone or unreadable, or when loading failed, which leaves the error in
  // `status` (the visitor then stops: it returns status.ok()).
  std::optional<json::Value> LoadForQuery(QueryRun& run, std::string_view key_suffix,
                                          Status& status) const;
  // The items of several (number, key suffix) pairs in one batch, nullopt for those
  // deleted or expired; not counted as loaded (the caller counts those it uses).
  Result<std::vector<std::optional<std::string>>> LoadItems(
      QueryRun& run, const std::vector<std::pair<uint64_t, std::string>>& items) const;

  using CreationVisit = std::function<bool(const CreationPosition& position,
                                           std::string_view key_suffix, std::string_view json)>;
  bool creation_order_kept() const { return write_state_->creation_order_kept.load(); }
  // Visits the items of the run's scope as the service returns them without ORDER BY:
  // physical partitions in EPK order, each in creation order, after `resume` (a
  // continuation's positions; nullptr: from the start).
  // `whole`, when given, is offered each partition the scan starts at its beginning
  // (with the scope within it): it may read the partition in key order, which is much
  // cheaper, and return true when it produced the partition's rows itself (setting
  // go_on); false hands the partition to the creation-order walk.
  using WholePartitionRead = std::function<Result<bool>(const PhysicalPartition& partition,
                                                        const ReadScope& scope, bool& go_on)>;
  Status ScanInCreationOrder(QueryRun& run, const std::vector<CreationPosition>* resume,
                             const CreationVisit& visit,
                             const std::unordered_set<std::string_view>* only = nullptr,
                             const WholePartitionRead* whole = nullptr) const;
  // The same for the item keys an index lookup found.
  Status VisitInCreationOrder(QueryRun& run, const std::vector<std::string>& keys,
                              const std::vector<CreationPosition>* resume,
                              const CreationVisit& visit) const;
  // Visits, in batches, the items a ranking by one BM25 score puts first
  // (container_full_text_ranking.cc) until the run holds `rows_wanted` rows. false, with
  // nothing visited, when the index cannot score the ranking (a phrase term, a path or
  // language it does not index, creation order not kept).
  Result<bool> RankByTermFrequencies(QueryRun& run, const query::FullTextRanking& ranking,
                                     int64_t rows_wanted, const CreationVisit& visit) const;
  // Moves an item between the creation lists in `batch`: off them under `removed`, on
  // them under `added` (an item's number, from its _rid).
  void AddCreationChanges(storage::WriteBatch& batch, std::string_view epk, std::string_view id,
                          std::optional<uint64_t> removed, std::optional<uint64_t> added) const;

  ContainerSettings settings_;
  std::shared_ptr<const query::ComputedProperties> computed_;
  index::IndexingPolicy indexing_;
  std::shared_ptr<const query::VectorPolicy> vectors_;
  std::shared_ptr<const query::FullTextPolicy> full_text_;
  spatial::CoordinateSystem coordinate_system_;
  UniqueKeyPolicy unique_keys_;
  std::optional<int64_t> default_ttl_;  // nullopt: TTL off
  storage::Store& store_;
  const Clock& clock_;
  std::shared_ptr<ContainerWriteState> write_state_;
  uint64_t partition_map_generation_ = 0;
  // Approximate vector indexes by (partition, vector index) and the thread that builds
  // them; null without a diskANN or quantizedFlat index.
  struct VectorGraphs;
  static std::shared_ptr<VectorGraphs> MakeVectorGraphs(const query::VectorPolicy& policy);
  std::shared_ptr<VectorGraphs> graphs_;
};

// The writes of one logical partition made together: a stored procedure's, or an item
// operation's with its triggers. Each operation sees the transaction's earlier writes;
// nothing is in the store until Commit, and a transaction destroyed uncommitted leaves
// nothing. While it is open it holds its logical partition's lock, which every write
// to the partition takes once the container has scripts (SerializePartitionWrites),
// and one item stripe, without which the indexing policy cannot change under it.
// Begun, used and committed on one thread (its LSNs are this thread's CommitScope's).
class Container::Transaction {
 public:
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  const partition::PartitionKeyValue& partition_key() const { return key_; }
  const Container& container() const { return container_; }
  // Create, upsert or replace (request.kind) of an item of the partition. Errors: as
  // WriteItem's, and BadRequest for an item of another partition.
  Result<ItemResult> Write(ItemWriteRequest request);
  Result<ItemResult> Delete(std::string_view id, std::optional<std::string_view> if_match);
  Result<ReadResult> Read(std::string_view id, std::optional<std::string_view> if_none_match);
  // Feeds and queries see the transaction's own writes, as the documented bulk-delete
  // sample needs (it queries again after deleting what a query found). Before the first
  // write they are the container's own; after it, they evaluate the partition's items
  // one by one (no index), paged by position.
  Result<FeedPage> ReadFeed(int max_items, std::string_view continuation) const;
  Result<FeedPage> Query(const query::CompiledQuery& query, int max_items,
                         std::string_view continuation) const;
  // The item's id of `rid`, if it is an item of this partition.
  Result<std::optional<std::string>> IdOfRid(std::string_view rid) const;
  // Writes everything at once. Errors: storage; RetryWith when the container's indexing
  // policy changed meanwhile (the client runs the request again).
  Status Commit();

 private:
  friend class Container;
  Transaction(Container& container, partition::PartitionKeyValue key, std::string epk);
  void PoisonIfChanged(size_t batch_count_before, const Status& failure);
  bool WroteItems() const;
  // The partition's items as the transaction has written them, in creation order.
  Result<std::vector<std::string>> DocumentsAsWritten() const;
  static Result<FeedPage> PageOf(std::vector<std::string> results, int max_items,
                                 std::string_view continuation);

  Container& container_;
  partition::PartitionKeyValue key_;
  std::string epk_;
  ReadScope scope_;
  std::shared_lock<std::shared_mutex> split_lock_;
  std::unique_lock<std::mutex> partition_lock_;
  std::unique_lock<std::mutex> anchor_lock_;
  std::shared_ptr<const index::IndexingPolicy> policy_;
  std::optional<CommitScope> commit_;
  PendingRecords pending_;
  storage::WriteBatch batch_;
  std::vector<std::string> keys_;  // of the items written, for their stripes at commit
  std::map<std::string, std::string> written_rids_;  // rid -> id of the items written
  Status poisoned_;  // the failure that left the batch half-made (PoisonIfChanged)
  bool committed_ = false;
};

}  // namespace orrery::engine
