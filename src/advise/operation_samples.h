#pragma once

// What one run of a workload operation cost against one candidate's container, and the
// sampling of those runs (operation_samples.cc): a query is run the way an SDK runs it,
// one partition at a time, page by page, and charged as the service charges each page.

#include <cstdint>
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

// Runs `op` options.samples times against `container`, drawing parameters (and items)
// from `items` with a random stream of its own. Errors: a query that fails to run (its
// message names the operation), storage errors.
Result<SampledOperation> SampleOperation(const Operation& op, size_t op_index,
                                         const Candidate& candidate, engine::Container& container,
                                         const ItemSource& items, const StudyOptions& options);

}  // namespace orrery::advise
