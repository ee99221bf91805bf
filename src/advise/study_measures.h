#pragma once

// The measurements a study makes of each candidate from what it loaded and ran, shared by
// the in-process study (study.cc) and the one against an endpoint (cli/advise_endpoint.cc).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "advise/operation_samples.h"
#include "advise/study.h"
#include "advise/traffic_replay.h"
#include "engine/container.h"

namespace orrery::advise {

// Count, quantiles, the largest and its projection at scale, and the histogram, from the
// sizes of the logical partitions (those with items).
LogicalPartitionMeasure MeasureLogicalSizes(
    const std::vector<engine::Container::LogicalPartitionSize>& sizes, const StudyOptions& options);

// The replay's requests, 429s and request units per physical partition (`numbers`: the
// number the replay knows each partition id by), and the candidate's totals.
void AddReplay(const ReplayResult& replay, const std::map<std::string, uint32_t>& numbers,
               double ru_per_second, CandidateResult& result);

// The requests per second the workload is played at, the same for every candidate (the
// application's traffic does not depend on its key): the workload's own, or what spends
// 80% of the throughput with the cheapest candidate that can hold the data (its largest
// logical partition below 20 GB at scale; any candidate when none can).
double OfferedLoad(const Workload& workload,
                   const std::vector<std::vector<SampledOperation>>& sampled,
                   const std::vector<CandidateResult>& results, double ru_per_second);

// Each operation's measure, and the mean charge and routing shares weighted by share.
void SummarizeOperations(const std::vector<SampledOperation>& sampled, CandidateResult& result);

}  // namespace orrery::advise
