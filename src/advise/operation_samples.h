#pragma once

// What one run of a workload operation cost against one candidate's container, and the
// sampling of those runs (operation_samples.cc): a query is run the way an SDK runs it,
// one partition at a time, page by page, and charged as the service charges each page.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "advise/candidate.h"
#include "advise/study.h"
#include "advise/workload.h"
#include "common/status.h"
#include "engine/container.h"
#include "engine/query_routing.h"
#include "query/query.h"

namespace orrery::advise {

struct OperationSample {
  double request_units = 0;
  // The physical partitions the run read or wrote (by number), each with its charge.
  std::vector<std::pair<uint32_t, double>> partitions;
};

struct SampledOperation {
  OperationMeasure measure;
  std::vector<OperationSample> samples;
};

// The q-quantile (0..1) of `values`, nearest rank; 0 when empty.
double Quantile(std::vector<double> values, double q);
// "single partition", "hierarchical prefix" or "fan-out".
const char* RoutingName(engine::QueryRouting::Kind kind);
// How much of a container a routing reads (0: one logical partition): the widest of an
// operation's runs is the one reported.
int RoutingWidth(engine::QueryRouting::Kind kind);
// The query parameters of one run of `op`, drawn from `item`.
Result<std::vector<query::Parameter>> DrawParameters(const Operation& op, const json::Value& item);

// A query's route under a candidate: how its WHERE routes it (a synthetic key pinned by
// its parts routes to one logical partition) and the scope of the container it reads.
struct QueryRoute {
  engine::QueryRouting::Kind kind = engine::QueryRouting::Kind::kFanOut;
  engine::ReadScope scope;
};
QueryRoute RouteForCandidate(const Candidate& candidate, const query::AccessShape& shape);
// The part of `scope` inside `partition`; nullopt when the scope reads nothing there.
std::optional<engine::ReadScope> ScopeIn(const engine::ReadScope& scope,
                                         const engine::PhysicalPartition& partition);

// One run of an operation wherever the study measures (in process or at an endpoint):
// given the drawn item (not yet prepared for the candidate) and the run's number, its
// sample; for a query, also its routing.
using RunOnce = std::function<Result<OperationSample>(json::Value item, int run,
                                                      engine::QueryRouting::Kind& routing)>;
// Runs `op` options.samples times, each on an item drawn from `items` with a random
// stream of the operation's own, and measures the runs: charge median and p99,
// partitions touched, the widest routing. Errors: a query that fails (its message names
// the operation), and those of `run_once`.
Result<SampledOperation> SampleRuns(const Operation& op, size_t op_index, const ItemSource& items,
                                    const StudyOptions& options, const RunOnce& run_once);

// SampleRuns against `container`, the in-process study's.
Result<SampledOperation> SampleOperation(const Operation& op, size_t op_index,
                                         const Candidate& candidate, engine::Container& container,
                                         const ItemSource& items, const StudyOptions& options);

}  // namespace orrery::advise
