#pragma once

// Account: the engine's root. Owns the store and the catalog of databases and
// containers (kept in memory, persisted in the store), and opens containers.
// Thread-safe.

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "engine/background_task.h"
#include "engine/container.h"
#include "engine/index_rebuilder.h"
#include "engine/number_allocator.h"
#include "engine/ttl_purger.h"
#include "json/value.h"
#include "storage/store.h"

namespace orrery::engine {

struct AccountOptions {
  storage::StoreOptions store;
  // Physical partitions for every new container; 0 = as many as the service would
  // create for the requested throughput (ru-model.md b.4).
  int initial_partitions = 0;
  const Clock* clock = &Clock::System();
  // Enforce each container's provisioned throughput per physical partition (429s),
  // as the service does; off by default, like the emulator.
  bool enforce_throughput = false;
  // Deletes expired items once a second (off in tests that purge by hand).
  bool background_ttl_purge = true;
  // A logical partition (one full partition key value) holds at most this many bytes
  // of items (403/1014 beyond), as the service's 20 GB.
  uint64_t logical_partition_max_bytes = uint64_t{20} << 30;
  // A physical partition whose items take more than this splits in two (the
  // service's 50 GB); splits also add partitions for throughput replaces beyond
  // partitions x 10,000 RU/s. `background_splits` off: only SplitWhereNeeded splits.
  uint64_t partition_split_bytes = uint64_t{50} << 30;
  bool background_splits = true;
};

// Throughput requested with a create (x-ms-offer-throughput or autoscale settings).
struct ThroughputRequest {
  std::optional<int64_t> manual;
  std::optional<int64_t> autoscale_max;
};

// What an offer read or replace answers: the offer, and whether a replace waits for
// partitions to be added (x-ms-offer-replace-pending).
struct OfferResult {
  json::Value offer;
  bool replace_pending = false;
  int64_t min_throughput = 400;  // x-ms-cosmos-min-throughput
};

// The lowest throughput a replace may set (ru-model.md b.3), from the highest ever set
// and the bytes stored (of a container, or of a shared database's containers).
int64_t MinimumThroughput(bool autoscale, int64_t highest, uint64_t stored_bytes);

// A physical partition serves at most this many RU/s (ru-model.md b.2): a replace
// beyond partitions x this waits for splits.
inline constexpr int64_t kMaxPartitionThroughput = 10000;

// The service's rules for throughput (manual 400..1,000,000 in steps of 100; autoscale
// maximum 1,000..1,000,000 in steps of 1,000; not both). Errors: BadRequest.
Status ValidateThroughput(const ThroughputRequest& throughput);

class Account {
 public:
  static Result<std::unique_ptr<Account>> Open(const AccountOptions& options);
  // Stops the background work, then saves the diskANN graphs (account_vector_graphs.cc).
  ~Account();

  // Databases. Bodies are the resources as returned to clients.
  Result<json::Value> CreateDatabase(json::Value body, const ThroughputRequest& throughput);
  Result<json::Value> ReadDatabase(std::string_view id) const;
  std::vector<json::Value> ListDatabases() const;
  Status DeleteDatabase(std::string_view id);

  // Containers.
  Result<json::Value> CreateContainer(std::string_view database_id, json::Value body,
                                      const ThroughputRequest& throughput);
  Result<std::shared_ptr<Container>> GetContainer(std::string_view database_id,
                                                  std::string_view id) const;
  Result<std::vector<json::Value>> ListContainers(std::string_view database_id) const;
  Result<json::Value> ReplaceContainer(std::string_view database_id, std::string_view id,
                                       json::Value body, std::optional<std::string> if_match);
  Status DeleteContainer(std::string_view database_id, std::string_view id);

  // Offers (account_offers.cc): one per container or database with its own
  // throughput, in the service's shape (wire-protocol.md §13).
  std::vector<json::Value> ListOffers() const;
  Result<OfferResult> ReadOffer(std::string_view id) const;
  // Replaces a container's or a database's throughput (same kind: manual stays
  // manual), effective at once up to partitions x 10,000 RU/s; beyond that the replace
  // is pending (the offer keeps its throughput until splits add partitions). Errors:
  // NotFound, BadRequest, Locked (a replace is already pending).
  Result<OfferResult> ReplaceOffer(std::string_view id, const json::Value& body);

  // Every container of every database (for /metrics).
  std::vector<std::shared_ptr<Container>> AllContainers() const;

  // Switches throughput enforcement for one container (the admin call), overriding
  // --enforce-throughput; kept across restarts. Errors: NotFound.
  Status SetThroughputEnforcement(std::string_view database_id, std::string_view id, bool enforced);
  // A container's throughput buckets (throughput/request_class.h), kept across restarts.
  // Errors: BadRequest for ids outside 1..5 or repeated, percentages outside (0, 100], more
  // than 5, or a container that shares its database's throughput (which the service
  // does not let have buckets).
  Status SetThroughputBuckets(std::string_view database_id, std::string_view id,
                              std::vector<throughput::ThroughputBucket> buckets);

  // Splits (account_split.cc). Splits live partition `number` of a container at EPK
  // `at`, online and crash-safe: the children replace it in one synced commit, and an
  // interrupted split is undone on start. Errors: NotFound, BadRequest (`at` not inside
  // the partition), and storage errors.
  Status SplitPartition(std::string_view database_id, std::string_view id, uint32_t number,
                        const std::string& at);
  // One round of the background splitter: every partition past partition_split_bytes
  // with more than one logical partition splits where it halves its data, and
  // containers with a pending throughput replace split until they can serve it.
  Status SplitWhereNeeded();

  // Brings the store to its compacted steady state at once (storage::Store::CompactAll).
  Status CompactStorage() { return store_->CompactAll(); }

  // Test-only: called before each catalog write of a database or container create,
  // replace or delete goes to the store, with the catalog lock (mutex_) not held.
  void TEST_SetCatalogWriteHook(std::function<void()> hook) {
    catalog_write_hook_ = std::move(hook);
  }

 private:
  struct DatabaseEntry {
    uint32_t number = 0;
    json::Value resource;
    ThroughputRequest shared_throughput;  // throughput provisioned on the database
    int64_t pending_ru_per_second = 0;    // a replace waiting for partitions
    int64_t highest_ru_per_second = 0;    // the highest ever set (the replace floor)
    // The budgets of shared throughput, which its containers' partitions draw from.
    std::vector<std::shared_ptr<throughput::PartitionBudget>> shared_budgets;
  };
  using ContainerKey = std::pair<std::string, std::string>;

  Account(AccountOptions options, std::unique_ptr<storage::Store> store);
  void LoadSavedVectorGraphs();
  void SaveVectorGraphs();
  Status Load();
  // Opens a container; a replaced container keeps the write state of its predecessor.
  Result<std::shared_ptr<Container>> OpenContainer(
      ContainerSettings settings, std::shared_ptr<ContainerWriteState> write_state = nullptr);
  // Adds the bump of `counter` to `batch`, which must be written before the next call.
  // REQUIRES: catalog_write_mutex_ held.
  Result<uint32_t> NextNumber(std::string_view counter, storage::WriteBatch& batch);
  // Writes a catalog change, synced. REQUIRES: catalog_write_mutex_ held, mutex_ not.
  Status WriteCatalog(storage::WriteBatch& batch);
  // A drop stops the container's index rebuild (and its expiry index) before its
  // write; when the write fails (a full disk), the container stays and both resume.
  void ResumeStoppedRebuild(const std::shared_ptr<Container>& container);
  // account_throughput.cc: the budgets of a container (its own, or its database's
  // shared ones) and whether they are enforced; the budgets of a shared database.
  void ProvisionThroughput(Container& container, const DatabaseEntry& database) const;
  std::vector<std::shared_ptr<throughput::PartitionBudget>> SharedBudgets(
      const ThroughputRequest& throughput) const;
  static json::Value DatabaseRecord(const DatabaseEntry& database);
  // account_split.cc: undoes splits a crash interrupted (on start); applies a pending
  // throughput replace once the partitions can serve it.
  Status UndoUnfinishedSplits();
  void StartBackgroundWork();
  Status ApplyPendingThroughput(std::string_view database_id, std::string_view id);
  // Writes the container's record with `change` applied to its settings and publishes
  // the container anew, its throughput ledger set from them.
  Status ChangeThroughputSettings(std::string_view database_id, std::string_view id,
                                  const std::function<Status(ContainerSettings&)>& change);
  Status SplitContainerWhereNeeded(const std::shared_ptr<Container>& container);
  Status GrowSharedThroughput();
  // Containers of the database without throughput of their own, and their stored
  // bytes. Call with mutex_ held.
  size_t SharingContainers(std::string_view database_id) const;
  uint64_t SharedBytes(std::string_view database_id) const;
  int PartitionCountFor(const ThroughputRequest& throughput,
                        const ThroughputRequest& database_throughput) const;
  static json::Value ContainerRecord(const ContainerSettings& settings);

  AccountOptions options_;
  std::unique_ptr<storage::Store> store_;
  // Catalog writes (databases, containers, offers, a split's commit) take
  // catalog_write_mutex_ for their whole run, one at a time, then mutex_ as they need
  // it: shared to prepare, exclusive to publish. Creates, replaces and deletes hold
  // neither form of mutex_ while their write syncs, so data requests, which take it
  // shared to find their container, do not wait for a disk flush. Since every change
  // to databases_ and containers_ holds catalog_write_mutex_, what a writer prepared
  // still holds when it publishes; readers see the catalog before or after it.
  std::mutex catalog_write_mutex_;
  std::function<void()> catalog_write_hook_;  // TEST_SetCatalogWriteHook
  mutable std::shared_mutex mutex_;
  std::map<std::string, DatabaseEntry, std::less<>> databases_;
  std::map<ContainerKey, std::shared_ptr<Container>> containers_;
  // Query results kept between pages, bounded for all containers together.
  std::shared_ptr<ResultCursors> result_cursors_;
  // Its destructor stops and joins the rebuilds before the store goes away.
  IndexRebuilder index_rebuilder_;
  // Last, for the same reason: the background deletion of expired items.
  std::unique_ptr<TtlPurger> ttl_purger_;
  std::mutex split_mutex_;  // one split at a time
  std::unique_ptr<BackgroundTask> splitter_;
};

}  // namespace orrery::engine
