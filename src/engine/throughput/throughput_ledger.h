#pragma once

// A container's throughput, per physical partition: the budget each partition draws
// from (its own share of the container's RU/s, or one of its database's shared
// budgets), whether requests beyond it are refused, and the RU consumed and 429s
// answered, kept whether or not throughput is enforced (partition statistics).
// Thread-safe; the partition set changes only when the container is re-provisioned.

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <vector>

#include "engine/throughput/partition_budget.h"
#include "engine/throughput/request_class.h"

namespace orrery::throughput {

struct PartitionUsage {
  uint32_t partition = 0;
  double ru_per_second = 0;  // the budget this partition draws from
  double charged = 0;        // RU consumed since start
  int64_t throttled = 0;     // requests answered 429 since start
};

class ThroughputLedger {
 public:
  using TimePoint = PartitionBudget::TimePoint;

  // Each partition its own budget of `ru_per_second` ÷ partitions.
  void Provision(const std::vector<uint32_t>& partitions, double ru_per_second, TimePoint now);
  // Partition i (in the given order) draws from shared[i mod shared.size()]: the
  // database's budgets, which other containers' partitions draw from too.
  void ProvisionShared(const std::vector<uint32_t>& partitions,
                       const std::vector<std::shared_ptr<PartitionBudget>>& shared);
  // A new rate for a container's own budgets, effective at once.
  void SetRate(double ru_per_second, TimePoint now);

  // The container's throughput buckets (request_class.h): each partition's bucket i may
  // spend max_percentage of its own budget's RU/s. Only for a container's own budgets.
  void SetBuckets(std::vector<ThroughputBucket> buckets, TimePoint now);

  void SetEnforced(bool enforced) { enforced_.store(enforced, std::memory_order_relaxed); }
  bool enforced() const { return enforced_.load(std::memory_order_relaxed); }

  // A request to one partition (point operations, batches): nullopt when it may run,
  // else the milliseconds to wait. Settle an admitted request with Charge.
  std::optional<int64_t> Admit(uint32_t partition, TimePoint now);
  void Charge(uint32_t partition, double request_units, TimePoint now);
  // The same for a request of a priority and a bucket: a 429's wait and substatus (3200
  // for the partition's budget, kThroughputBucketExceeded for the bucket's).
  struct Throttle {
    int64_t wait_ms = 0;
    int substatus = 3200;
  };
  std::optional<Throttle> Admit(uint32_t partition, TimePoint now, const RequestClass& request);
  void Charge(uint32_t partition, double request_units, TimePoint now, const RequestClass& request);
  std::optional<Throttle> AdmitAll(const std::vector<uint32_t>& partitions, TimePoint now,
                                   const RequestClass& request);
  void ChargeAll(const std::vector<uint32_t>& partitions, double request_units, TimePoint now,
                 const RequestClass& request);
  // A request over several partitions (queries, feeds): refused while any of them is
  // in debt; its charge is then split evenly among them.
  std::optional<int64_t> AdmitAll(const std::vector<uint32_t>& partitions, TimePoint now);
  void ChargeAll(const std::vector<uint32_t>& partitions, double request_units, TimePoint now);
  // Background work (TTL purges) on what the partition's budget has left: whether it
  // may spend `request_units` now (always when throughput is not enforced).
  bool TakeSpare(uint32_t partition, double request_units, TimePoint now);
  // Counts what background work charged to the container (partition-key deletes) as
  // consumed by the partition; its budget gave it through TakeSpare.
  void ChargeBackground(uint32_t partition, double request_units);

  std::vector<PartitionUsage> Usage() const;

 private:
  struct Entry {
    std::shared_ptr<PartitionBudget> budget;
    // Of the configured throughput buckets, by id - 1; null: not configured.
    std::array<std::unique_ptr<PartitionBudget>, kMaxThroughputBuckets> buckets;
    std::atomic<double> charged{0};
    std::atomic<int64_t> throttled{0};
  };
  Entry* Find(uint32_t partition) const;
  // Gives every entry budgets for buckets_ at its budget's rate. Call with mutex_ held
  // exclusively.
  void ProvisionBuckets(TimePoint now);
  static PartitionBudget* BucketOf(const Entry& entry, const RequestClass& request);
  // Admission of `request` to one partition: its bucket's, then its budget's for its
  // priority (reserving an average charge when `reserve`), counting a 429.
  static std::optional<Throttle> AdmitTo(Entry& entry, TimePoint now, const RequestClass& request,
                                         bool reserve);
  std::vector<ThroughputBucket> buckets_;

  mutable std::shared_mutex mutex_;  // guards the map, not the entries
  std::map<uint32_t, std::unique_ptr<Entry>> entries_;
  bool own_budgets_ = true;
  std::atomic<bool> enforced_{false};
};

}  // namespace orrery::throughput
