#pragma once

// The throughput budget of one physical partition (ru-model.md a.4): the container's
// provisioned RU/s divided evenly among its partitions, as a token bucket that refills
// continuously at that rate and holds at most one second of it. A request is admitted
// while the bucket is not in debt; its charge, known only after it ran, is then taken
// (the bucket may go below zero, which the following requests wait out). So a hot
// partition is throttled at its share while the others' budgets stay unused.
// Several partitions may draw from one budget (a database's shared throughput).
// Thread-safe.

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>

namespace orrery::throughput {

class PartitionBudget {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  PartitionBudget(double ru_per_second, TimePoint now);

  // nullopt when the request may run (an average charge is then reserved, which
  // Charge settles); else the milliseconds until it may: until the debt is paid, and
  // later for each request throttled just before, so that clients throttled together
  // come back one after another rather than all at once into the same debt (which
  // spends an SDK's retries in a few milliseconds). A request admitted and never
  // charged (it failed) keeps its reservation as its cost.
  std::optional<int64_t> Admit(TimePoint now);
  // The same for a low-priority request, which is admitted only while the budget holds
  // more than kLowPriorityReserve of a second's RU (request_class.h).
  std::optional<int64_t> AdmitLowPriority(TimePoint now);
  void Charge(double request_units, TimePoint now);
  // For requests that span several budgets (queries, feeds): whether the budget is in
  // debt (as Admit, but reserving nothing), and taking a charge no Admit reserved.
  std::optional<int64_t> Check(TimePoint now);
  std::optional<int64_t> CheckLowPriority(TimePoint now);
  void Spend(double request_units, TimePoint now);
  // Background work such as TTL purges runs on spare throughput only: takes
  // `request_units` if the budget holds that much, else nothing (work costing more than
  // the bucket holds takes a full bucket).
  bool TakeSpare(double request_units, TimePoint now);

  double ru_per_second() const;
  void SetRate(double ru_per_second, TimePoint now);

 private:
  void Refill(TimePoint now);
  // Admission while more than `floor_share` of a second's RU is left; reserves the
  // estimate when `reserve`.
  std::optional<int64_t> AdmitAbove(double floor_share, bool reserve, TimePoint now);
  int64_t WaitMillis() const;
  // The retry-after of a throttled request: the debt's payback, and after the requests
  // throttled before it (RetryAfter spaces them an average charge's refill apart).
  int64_t RetryAfter(TimePoint now);

  double rate_;
  mutable std::mutex mutex_;
  double tokens_;
  TimePoint last_;
  double estimate_ = 5;     // running average charge of this partition's requests
  TimePoint next_retry_{};  // when the next throttled request is told to come back
};

}  // namespace orrery::throughput
