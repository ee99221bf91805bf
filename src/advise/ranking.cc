// RankCandidates (study.h): a score from the measurements, lower is better, and the
// sentences that explain it, each built from a measured figure.

#include <algorithm>
#include <limits>

#include "advise/format.h"
#include "advise/study.h"

namespace orrery::advise {
namespace {

// A key whose largest logical partition passes 20 GB at scale cannot hold the data:
// it ranks after every key that can.
constexpr double kOverLimitPenalty = 100;
// Less than this much growth left before the limit is a risk worth a point.
constexpr double kTightGrowth = 2;
// Each throttled request counts as four times the cheapest request's charge would, and
// fan-out as half: its cost grows with every split, which the sample does not show.
constexpr double kThrottleWeight = 4;
constexpr double kFanOutWeight = 0.5;

std::string LogicalReason(const LogicalPartitionMeasure& logical, const StudyResult& study) {
  const std::string key = "logical partition " + logical.largest_key;
  const std::string at_scale =
      FormatBytes(logical.projected_largest_bytes) + " at scale " + FormatNumber(study.scale);
  if (logical.growth_to_limit > 0 && logical.growth_to_limit < 1) {
    return key + " passes the 20 GB limit: " + at_scale + " (" +
           FormatPercent(logical.largest_share) + " of all data under one key value)";
  }
  std::string reason =
      "largest " + key + " is " + at_scale + ", " +
      FormatPercent(logical.projected_largest_bytes / kLogicalPartitionLimitBytes) +
      " of the 20 GB limit; it reaches the limit at " + FormatNumber(logical.growth_to_limit) +
      "x growth";
  if (logical.years_to_limit) reason += " (in " + FormatNumber(*logical.years_to_limit) + " years)";
  return reason;
}

std::string RoutingReason(const CandidateResult& c) {
  if (c.fan_out_share <= 0) {
    return "no fan-out: every operation reads one logical partition" +
           std::string(c.single_partition_share < 1 ? " or one key prefix" : "");
  }
  std::string names;
  for (const OperationMeasure& op : c.operations) {
    if (op.routing != "fan-out") continue;
    names += (names.empty() ? "" : ", ") + ("'" + op.name + "'");
  }
  return "fan-out for " + FormatPercent(c.fan_out_share) + " of traffic (" + names + ")";
}

std::string ChargeReason(const CandidateResult& c, double cheapest) {
  std::string reason = FormatNumber(c.mean_ru) + " RU per request on average";
  if (cheapest > 0 && c.mean_ru > cheapest * 1.005) {
    reason += " (" + FormatNumber(c.mean_ru / cheapest) + "x the cheapest)";
  } else {
    reason += " (the cheapest)";
  }
  return reason;
}

std::string ThrottleReason(const CandidateResult& c, const StudyResult& study) {
  const PhysicalPartitionMeasure* hottest = nullptr;
  for (const PhysicalPartitionMeasure& p : c.physical) {
    if (hottest == nullptr || p.request_share > hottest->request_share) hottest = &p;
  }
  std::string reason = FormatPercent(c.throttled_fraction) + " of requests throttled at " +
                       FormatNumber(study.requests_per_second) + " requests/s and " +
                       FormatNumber(static_cast<double>(study.throughput)) + " RU/s";
  if (hottest != nullptr && c.physical.size() > 1) {
    reason += "; the hottest of " + std::to_string(c.physical.size()) + " physical partitions (" +
              hottest->id + ") takes " + FormatPercent(hottest->request_share) +
              " of the request units";
  }
  return reason;
}

std::string StorageReason(const CandidateResult& c, const StudyResult& study) {
  double largest = 0;
  for (const PhysicalPartitionMeasure& p : c.physical) largest = std::max(largest, p.storage_share);
  std::string reason =
      std::to_string(c.physical.size()) + " physical partition" +
      (c.physical.size() == 1 ? "" : "s") +
      (study.partitions_at_scale ? " at scale" : " on the endpoint, for the sample");
  if (c.splits > 0)
    reason += " after " + std::to_string(c.splits) + " split" + (c.splits == 1 ? "" : "s");
  if (c.physical.size() > 1)
    reason += ", the fullest holding " + FormatPercent(largest) + " of the data";
  return reason;
}

}  // namespace

void RankCandidates(StudyResult& study) {
  double cheapest = std::numeric_limits<double>::max();
  for (const CandidateResult& c : study.ranking) cheapest = std::min(cheapest, c.mean_ru);
  for (CandidateResult& c : study.ranking) {
    c.exceeds_limit = c.logical.growth_to_limit > 0 && c.logical.growth_to_limit < 1;
    c.score = (cheapest > 0 ? c.mean_ru / cheapest : 1) + kThrottleWeight * c.throttled_fraction +
              kFanOutWeight * c.fan_out_share;
    if (c.exceeds_limit) c.score += kOverLimitPenalty;
    if (!c.exceeds_limit && c.logical.growth_to_limit < kTightGrowth) c.score += 1;
    // The reasons that weigh most come first.
    std::vector<std::pair<double, std::string>> weighed = {
        {c.exceeds_limit ? kOverLimitPenalty
                         : (c.logical.growth_to_limit < kTightGrowth ? 1 : 0.01),
         LogicalReason(c.logical, study)},
        {kFanOutWeight * c.fan_out_share + 0.02, RoutingReason(c)},
        {cheapest > 0 ? c.mean_ru / cheapest - 1 + 0.015 : 0.015, ChargeReason(c, cheapest)},
        {kThrottleWeight * c.throttled_fraction + 0.011, ThrottleReason(c, study)},
        {0.001, StorageReason(c, study)},
    };
    std::stable_sort(weighed.begin(), weighed.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    c.reasons.clear();
    for (auto& [weight, reason] : weighed) c.reasons.push_back(std::move(reason));
    if (!c.items_refused) continue;
    c.reasons.push_back(std::to_string(c.items_refused) +
                        " items refused while loading: " + c.first_refusal);
  }
  std::stable_sort(
      study.ranking.begin(), study.ranking.end(),
      [](const CandidateResult& a, const CandidateResult& b) { return a.score < b.score; });
}

}  // namespace orrery::advise
