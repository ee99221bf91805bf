#include "engine/throughput/throughput_ledger.h"

#include <algorithm>
#include <mutex>

namespace orrery::throughput {

void ThroughputLedger::Provision(const std::vector<uint32_t>& partitions, double ru_per_second,
                                 TimePoint now) {
  const double share = partitions.empty() ? 0 : ru_per_second / partitions.size();
  std::unique_lock lock(mutex_);
  own_budgets_ = true;
  std::map<uint32_t, std::unique_ptr<Entry>> entries;
  for (uint32_t number : partitions) {
    auto entry = std::make_unique<Entry>();
    if (auto old = entries_.find(number); old != entries_.end()) {
      // Kept across a re-provisioning: the counters of partitions that still exist.
      entry->charged.store(old->second->charged.load());
      entry->throttled.store(old->second->throttled.load());
    }
    entry->budget = std::make_shared<PartitionBudget>(share, now);
    entries.emplace(number, std::move(entry));
  }
  entries_ = std::move(entries);
  ProvisionBuckets(now);
}

void ThroughputLedger::SetBuckets(std::vector<ThroughputBucket> buckets, TimePoint now) {
  std::unique_lock lock(mutex_);
  buckets_ = std::move(buckets);
  ProvisionBuckets(now);
}

void ThroughputLedger::ProvisionBuckets(TimePoint now) {
  for (auto& [number, entry] : entries_) {
    for (auto& bucket : entry->buckets) bucket.reset();
    if (!own_budgets_ || entry->budget == nullptr) continue;
    for (const ThroughputBucket& bucket : buckets_) {
      if (bucket.id < 1 || bucket.id > kMaxThroughputBuckets) continue;
      entry->buckets[bucket.id - 1] = std::make_unique<PartitionBudget>(
          entry->budget->ru_per_second() * bucket.max_percentage / 100, now);
    }
  }
}

PartitionBudget* ThroughputLedger::BucketOf(const Entry& entry, const RequestClass& request) {
  if (request.bucket < 1 || request.bucket > kMaxThroughputBuckets) return nullptr;
  return entry.buckets[request.bucket - 1].get();
}

void ThroughputLedger::ProvisionShared(
    const std::vector<uint32_t>& partitions,
    const std::vector<std::shared_ptr<PartitionBudget>>& shared) {
  std::unique_lock lock(mutex_);
  own_budgets_ = false;
  std::map<uint32_t, std::unique_ptr<Entry>> entries;
  for (size_t i = 0; i < partitions.size(); ++i) {
    auto entry = std::make_unique<Entry>();
    if (auto old = entries_.find(partitions[i]); old != entries_.end()) {
      entry->charged.store(old->second->charged.load());
      entry->throttled.store(old->second->throttled.load());
    }
    entry->budget = shared.empty() ? nullptr : shared[i % shared.size()];
    entries.emplace(partitions[i], std::move(entry));
  }
  entries_ = std::move(entries);
}

void ThroughputLedger::SetRate(double ru_per_second, TimePoint now) {
  std::shared_lock lock(mutex_);
  if (!own_budgets_ || entries_.empty()) return;
  const double share = ru_per_second / entries_.size();
  for (auto& [number, entry] : entries_) {
    entry->budget->SetRate(share, now);
    for (const ThroughputBucket& bucket : buckets_) {
      if (PartitionBudget* budget = BucketOf(*entry, RequestClass{.bucket = bucket.id})) {
        budget->SetRate(share * bucket.max_percentage / 100, now);
      }
    }
  }
}

ThroughputLedger::Entry* ThroughputLedger::Find(uint32_t partition) const {
  auto it = entries_.find(partition);
  return it == entries_.end() ? nullptr : it->second.get();
}

std::optional<int64_t> ThroughputLedger::Admit(uint32_t partition, TimePoint now) {
  std::optional<Throttle> throttle = Admit(partition, now, RequestClass{});
  return throttle ? std::optional<int64_t>(throttle->wait_ms) : std::nullopt;
}

void ThroughputLedger::Charge(uint32_t partition, double request_units, TimePoint now) {
  Charge(partition, request_units, now, RequestClass{});
}

std::optional<ThroughputLedger::Throttle> ThroughputLedger::Admit(uint32_t partition, TimePoint now,
                                                                  const RequestClass& request) {
  if (!enforced()) return std::nullopt;
  std::shared_lock lock(mutex_);
  Entry* entry = Find(partition);
  if (entry == nullptr || entry->budget == nullptr) return std::nullopt;
  return AdmitTo(*entry, now, request, /*reserve=*/true);
}

std::optional<ThroughputLedger::Throttle> ThroughputLedger::AdmitTo(Entry& entry, TimePoint now,
                                                                    const RequestClass& request,
                                                                    bool reserve) {
  // The bucket first: it reserves nothing, where the partition's admission may.
  std::optional<Throttle> throttle;
  if (PartitionBudget* bucket = BucketOf(entry, request)) {
    if (std::optional<int64_t> wait = bucket->Check(now)) {
      throttle = Throttle{*wait, kThroughputBucketExceeded};
    }
  }
  if (!throttle) {
    const bool low = request.priority == PriorityLevel::kLow;
    std::optional<int64_t> wait =
        reserve ? (low ? entry.budget->AdmitLowPriority(now) : entry.budget->Admit(now))
                : (low ? entry.budget->CheckLowPriority(now) : entry.budget->Check(now));
    if (wait) throttle = Throttle{*wait};
  }
  if (throttle) entry.throttled.fetch_add(1, std::memory_order_relaxed);
  return throttle;
}

void ThroughputLedger::Charge(uint32_t partition, double request_units, TimePoint now,
                              const RequestClass& request) {
  std::shared_lock lock(mutex_);
  Entry* entry = Find(partition);
  if (entry == nullptr) return;
  entry->charged.fetch_add(request_units, std::memory_order_relaxed);
  if (!enforced() || entry->budget == nullptr) return;
  entry->budget->Charge(request_units, now);
  if (PartitionBudget* bucket = BucketOf(*entry, request)) bucket->Spend(request_units, now);
}

std::optional<int64_t> ThroughputLedger::AdmitAll(const std::vector<uint32_t>& partitions,
                                                  TimePoint now) {
  std::optional<Throttle> throttle = AdmitAll(partitions, now, RequestClass{});
  return throttle ? std::optional<int64_t>(throttle->wait_ms) : std::nullopt;
}

void ThroughputLedger::ChargeAll(const std::vector<uint32_t>& partitions, double request_units,
                                 TimePoint now) {
  ChargeAll(partitions, request_units, now, RequestClass{});
}

std::optional<ThroughputLedger::Throttle> ThroughputLedger::AdmitAll(
    const std::vector<uint32_t>& partitions, TimePoint now, const RequestClass& request) {
  if (!enforced()) return std::nullopt;
  std::shared_lock lock(mutex_);
  std::optional<Throttle> longest;
  for (uint32_t number : partitions) {
    Entry* entry = Find(number);
    if (entry == nullptr || entry->budget == nullptr) continue;
    std::optional<Throttle> throttle = AdmitTo(*entry, now, request, /*reserve=*/false);
    if (throttle && (!longest || throttle->wait_ms > longest->wait_ms)) longest = throttle;
  }
  return longest;
}

void ThroughputLedger::ChargeAll(const std::vector<uint32_t>& partitions, double request_units,
                                 TimePoint now, const RequestClass& request) {
  if (partitions.empty()) return;
  const double share = request_units / partitions.size();
  std::shared_lock lock(mutex_);
  for (uint32_t number : partitions) {
    Entry* entry = Find(number);
    if (entry == nullptr) continue;
    entry->charged.fetch_add(share, std::memory_order_relaxed);
    if (!enforced() || entry->budget == nullptr) continue;
    entry->budget->Spend(share, now);
    if (PartitionBudget* bucket = BucketOf(*entry, request)) bucket->Spend(share, now);
  }
}

bool ThroughputLedger::TakeSpare(uint32_t partition, double request_units, TimePoint now) {
  if (!enforced()) return true;
  std::shared_lock lock(mutex_);
  Entry* entry = Find(partition);
  if (entry == nullptr || entry->budget == nullptr) return true;
  return entry->budget->TakeSpare(request_units, now);
}

void ThroughputLedger::ChargeBackground(uint32_t partition, double request_units) {
  std::shared_lock lock(mutex_);
  if (Entry* entry = Find(partition)) {
    entry->charged.fetch_add(request_units, std::memory_order_relaxed);
  }
}

std::vector<PartitionUsage> ThroughputLedger::Usage() const {
  std::shared_lock lock(mutex_);
  std::vector<PartitionUsage> out;
  for (const auto& [number, entry] : entries_) {
    out.push_back(PartitionUsage{
        .partition = number,
        .ru_per_second = entry->budget ? entry->budget->ru_per_second() : 0,
        .charged = entry->charged.load(std::memory_order_relaxed),
        .throttled = entry->throttled.load(std::memory_order_relaxed),
    });
  }
  return out;
}

}  // namespace orrery::throughput
