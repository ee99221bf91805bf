#include "engine/throughput/partition_budget.h"

#include <algorithm>
#include <cmath>

#include "engine/throughput/request_class.h"

namespace orrery::throughput {

PartitionBudget::PartitionBudget(double ru_per_second, TimePoint now)
    : rate_(ru_per_second), tokens_(ru_per_second), last_(now) {}

void PartitionBudget::Refill(TimePoint now) {
  const double elapsed = std::chrono::duration<double>(now - last_).count();
  if (elapsed > 0) {
    tokens_ = std::min(rate_, tokens_ + elapsed * rate_);
    last_ = now;
  }
}

std::optional<int64_t> PartitionBudget::AdmitAbove(double floor_share, bool reserve,
                                                   TimePoint now) {
  std::lock_guard lock(mutex_);
  Refill(now);
  const double floor = floor_share * rate_;
  if (tokens_ > floor) {
    // Reserve what a request costs on average, so that many requests admitted at once
    // cannot together overdraw the budget before their charges are known.
    if (reserve) tokens_ -= estimate_;
    return std::nullopt;
  }
  if (tokens_ > 0 && rate_ > 0) {
    // Above zero but within the reserve: back once the budget has refilled past it.
    const double missing = floor - tokens_ + 0.01;
    return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(missing / rate_ * 1000)));
  }
  return RetryAfter(now);
}

std::optional<int64_t> PartitionBudget::Admit(TimePoint now) { return AdmitAbove(0, true, now); }

std::optional<int64_t> PartitionBudget::AdmitLowPriority(TimePoint now) {
  return AdmitAbove(kLowPriorityReserve, true, now);
}

int64_t PartitionBudget::RetryAfter(TimePoint now) {
  // No one is told to wait longer than this, however many were throttled before.
  constexpr auto kMaxWait = std::chrono::milliseconds(5000);
  const TimePoint paid = now + std::chrono::milliseconds(WaitMillis());
  const TimePoint at = std::min(std::max(paid, next_retry_), now + kMaxWait);
  if (rate_ > 0) {
    // A quarter more than an average request's refill: one that comes back at its time
    // behind another whose charge ran over the average, or that came back late, still
    // finds the budget out of debt rather than being throttled again (two writers over
    // a 400 RU/s container spent 3.x's 9 retries now and then when spaced exactly).
    constexpr double kSpacing = 1.25;
    next_retry_ = at + std::chrono::duration_cast<TimePoint::duration>(
                           std::chrono::duration<double>(kSpacing * estimate_ / rate_));
  }
  return std::max<int64_t>(1, std::chrono::ceil<std::chrono::milliseconds>(at - now).count());
}

int64_t PartitionBudget::WaitMillis() const {
  // Until the debt is paid back, at least 1 ms.
  if (rate_ <= 0) return 1000;
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil((-tokens_ + 0.01) / rate_ * 1000)));
}

std::optional<int64_t> PartitionBudget::Check(TimePoint now) { return AdmitAbove(0, false, now); }

std::optional<int64_t> PartitionBudget::CheckLowPriority(TimePoint now) {
  return AdmitAbove(kLowPriorityReserve, false, now);
}

void PartitionBudget::Spend(double request_units, TimePoint now) {
  std::lock_guard lock(mutex_);
  Refill(now);
  tokens_ -= request_units;
}

bool PartitionBudget::TakeSpare(double request_units, TimePoint now) {
  std::lock_guard lock(mutex_);
  Refill(now);
  // More than the bucket holds waits for a full bucket, not forever.
  request_units = std::min(request_units, rate_);
  if (tokens_ < request_units) return false;
  tokens_ -= request_units;
  return true;
}

void PartitionBudget::Charge(double request_units, TimePoint now) {
  std::lock_guard lock(mutex_);
  Refill(now);
  // Replaces the reservation Admit made by the real charge.
  tokens_ += estimate_ - request_units;
  // One outlier (a 2 MB write among 1 KB reads) moves the estimate by at most 60%, so
  // it does not inflate every reservation after it; a run of them still converges.
  estimate_ = 0.8 * estimate_ + 0.2 * std::min(request_units, 4 * estimate_);
}

double PartitionBudget::ru_per_second() const {
  std::lock_guard lock(mutex_);
  return rate_;
}

void PartitionBudget::SetRate(double ru_per_second, TimePoint now) {
  std::lock_guard lock(mutex_);
  Refill(now);
  rate_ = ru_per_second;
  tokens_ = std::min(tokens_, rate_);
}

}  // namespace orrery::throughput
