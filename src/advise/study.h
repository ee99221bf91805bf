#pragma once

// One `orrery advise` study (issue 19): the same items loaded into a container per
// candidate partition key, in an in-process in-memory account, then measured: logical
// and physical partitions at production scale, each workload operation's routing and
// charges, the workload played through the real throttling, and a ranking with
// reasons. Physical partitions come from the engine itself: the account splits at the
// service's 50 GB divided by the scale, so the sample splits as production would.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "advise/candidate.h"
#include "advise/workload.h"
#include "common/status.h"
#include "json/value.h"

namespace orrery::advise {

// The items studied: generated, or lines of a file.
class ItemSource {
 public:
  virtual ~ItemSource() = default;
  virtual uint64_t count() const = 0;
  // Errors: BadRequest for an item that is not a JSON object with a string id.
  virtual Result<json::Value> Item(uint64_t number) const = 0;
};

struct StudyOptions {
  std::vector<Candidate> candidates;
  Workload workload;
  std::optional<json::Value> indexing_policy;
  int64_t throughput = 10000;  // RU/s: manual, or the autoscale maximum
  bool autoscale = false;
  double scale = 1;                     // production holds scale x the items studied
  std::optional<double> yearly_growth;  // 1.0: production doubles every year
  int samples = 25;                     // parameter draws per operation
  uint64_t seed = 1;
  int threads = 2;
  // Called as work proceeds: phase ("loading /tenantId"), done, total.
  std::function<void(std::string_view, uint64_t, uint64_t)> progress;
};

// The service's limit of one logical partition, and what a physical partition holds
// before it splits.
inline constexpr double kLogicalPartitionLimitBytes = 20.0 * (uint64_t{1} << 30);
inline constexpr double kPhysicalPartitionSplitBytes = 50.0 * (uint64_t{1} << 30);

struct LogicalPartitionMeasure {
  int64_t count = 0;
  int64_t total_bytes = 0;
  // Sizes in the sample, in bytes of item JSON: quantiles and the largest.
  int64_t median_bytes = 0;
  int64_t p99_bytes = 0;
  int64_t largest_bytes = 0;
  std::string largest_key;   // as the partition key header, ["t-0","d-3"]
  double largest_share = 0;  // of all bytes
  // At --scale, and the growth factor after which the largest reaches 20 GB.
  double projected_largest_bytes = 0;
  double growth_to_limit = 0;
  std::optional<double> years_to_limit;  // with --growth
  // Sizes as a histogram of powers of two: bucket i counts partitions of
  // [2^i, 2^(i+1)) bytes.
  std::vector<int64_t> size_histogram;
};

struct PhysicalPartitionMeasure {
  std::string id;
  std::string min_epk, max_epk;
  int64_t items = 0;
  int64_t bytes = 0;
  double storage_share = 0;
  double projected_bytes = 0;
  // From the workload played at production rate.
  double ru_per_second_budget = 0;
  double request_units = 0;
  double request_share = 0;
  int64_t requests = 0;
  int64_t throttled = 0;
};

struct OperationMeasure {
  std::string name;
  Operation::Kind kind = Operation::Kind::kQuery;
  double share = 0;
  // "single partition", "hierarchical prefix" or "fan-out"
  std::string routing;
  double partitions_touched = 0;  // median over the samples
  double ru_median = 0;
  double ru_p99 = 0;
  int samples = 0;
};

struct CandidateResult {
  Candidate candidate;
  LogicalPartitionMeasure logical;
  std::vector<PhysicalPartitionMeasure> physical;
  int initial_partitions = 0;
  int splits = 0;
  int64_t items_loaded = 0;
  int64_t items_refused = 0;  // e.g. a duplicate id in one logical partition
  std::string first_refusal;
  std::vector<OperationMeasure> operations;
  double mean_ru = 0;        // per request, weighted by share
  double fan_out_share = 0;  // of requests
  double single_partition_share = 0;
  double throttled_fraction = 0;  // of requests
  int64_t requests_played = 0;
  bool exceeds_limit = false;
  double score = 0;  // lower is better
  std::vector<std::string> reasons;
};

struct StudyResult {
  std::string name;  // a demo's name, or "study"
  uint64_t items = 0;
  double scale = 1;
  int64_t throughput = 0;
  bool autoscale = false;
  double requests_per_second = 0;
  double seconds_played = 0;
  // Whether the physical partitions are those of production (split at 50 GB over the
  // scale), or an endpoint's own for the sample (`orrery advise --endpoint`).
  bool partitions_at_scale = true;
  // The policy the containers were created with: the given one, or the workload's
  // paths (indexing_policy.h); nullopt: the service's default.
  std::optional<json::Value> indexing_policy;
  std::vector<CandidateResult> ranking;  // best first
};

// Errors: BadRequest (bad items, a candidate the items do not fit), storage errors.
Result<StudyResult> RunStudy(const ItemSource& items, const StudyOptions& options);

// Ranks `result.ranking` in place and writes each candidate's score and reasons.
void RankCandidates(StudyResult& result);

}  // namespace orrery::advise
