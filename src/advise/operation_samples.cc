#include "advise/operation_samples.h"

#include <algorithm>

#include "advise/random.h"
#include "engine/query_routing.h"
#include "engine/query_work.h"
#include "engine/throughput/cost_model.h"
#include "json/json.h"
#include "query/query.h"

namespace orrery::advise {
namespace {

// The SDK's default page size when the application sets none.
constexpr int kPageSize = 100;

// Every page of the query in one physical partition: the charge.
Result<double> RunInPartition(const engine::Container& container, const query::CompiledQuery& query,
                              const engine::ReadScope& scope) {
  double charge = 0;
  std::string continuation;
  do {
    ORRERY_ASSIGN_OR_RETURN(engine::FeedPage page,
                            container.Query(query, scope, kPageSize, continuation));
    charge += engine::FeedPageCharge(page, throughput::kQueryBaseCharge);
    continuation = page.continuation.value_or("");
  } while (!continuation.empty());
  return charge;
}

Result<OperationSample> RunQuery(const Operation& op, const Candidate& candidate,
                                 const engine::Container& container, const json::Value& item,
                                 engine::QueryRouting::Kind& routing) {
  ORRERY_ASSIGN_OR_RETURN(std::vector<query::Parameter> parameters, DrawParameters(op, item));
  ORRERY_ASSIGN_OR_RETURN(
      std::unique_ptr<query::CompiledQuery> compiled,
      query::Compile(op.query, std::move(parameters), container.computed_properties()));
  const QueryRoute route = RouteForCandidate(candidate, compiled->access_shape());
  routing = route.kind;
  OperationSample sample;
  for (const engine::PhysicalPartition& partition : container.settings().partitions.partitions()) {
    const std::optional<engine::ReadScope> part = ScopeIn(route.scope, partition);
    if (!part) continue;
    ORRERY_ASSIGN_OR_RETURN(double charge, RunInPartition(container, *compiled, *part));
    sample.partitions.emplace_back(partition.number, charge);
    sample.request_units += charge;
  }
  return sample;
}

Result<partition::PartitionKeyValue> KeyOf(const Candidate& candidate, const json::Value& item) {
  return partition::ExtractFromItem(item, candidate.definition());
}

Result<OperationSample> RunPointOperation(const Operation& op, uint64_t draw_number,
                                          const Candidate& candidate, engine::Container& container,
                                          json::Value item) {
  if (op.kind == Operation::Kind::kCreate) {
    item.Set("id", json::Value::String("advise-" + std::to_string(draw_number)));
  }
  candidate.Prepare(item);
  ORRERY_ASSIGN_OR_RETURN(partition::PartitionKeyValue key, KeyOf(candidate, item));
  const std::string epk = partition::EffectivePartitionKey(candidate.definition(), key);
  const uint32_t partition = container.settings().partitions.Owner(epk).number;
  double charge = 0;
  if (op.kind == Operation::Kind::kRead) {
    const json::Value* id = item.Find("id");
    // An item the load refused is a 404, charged as a read of nothing.
    Result<engine::Container::ReadResult> read = container.ReadItem(
        key, id != nullptr && id->is_string() ? id->as_string() : "", std::nullopt);
    charge = throughput::PointReadCharge(read.ok() ? read->item.bytes : 0);
  } else {
    const std::string body = json::Write(item);
    engine::ItemWriteRequest request;
    request.kind = op.kind == Operation::Kind::kCreate ? engine::WriteKind::kCreate
                                                       : engine::WriteKind::kUpsert;
    request.partition_key = key;
    request.body = body;
    ORRERY_ASSIGN_OR_RETURN(engine::ItemResult written, container.WriteItem(request));
    charge = written.created ? throughput::CreateCharge(written.bytes, written.index)
                             : throughput::ReplaceCharge(written.bytes, written.index);
  }
  OperationSample sample;
  sample.request_units = charge;
  sample.partitions.emplace_back(partition, charge);
  return sample;
}

}  // namespace

double Quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

const char* RoutingName(engine::QueryRouting::Kind kind) {
  switch (kind) {
    case engine::QueryRouting::Kind::kLogicalPartition:
      return "single partition";
    case engine::QueryRouting::Kind::kKeyPrefix:
      return "hierarchical prefix";
    case engine::QueryRouting::Kind::kFanOut:
      return "fan-out";
  }
  return "fan-out";
}

// How much of the container a routing reads: the widest is the one to report.
int RoutingWidth(engine::QueryRouting::Kind kind) {
  switch (kind) {
    case engine::QueryRouting::Kind::kLogicalPartition:
      return 0;
    case engine::QueryRouting::Kind::kKeyPrefix:
      return 1;
    case engine::QueryRouting::Kind::kFanOut:
      return 2;
  }
  return 2;
}

Result<std::vector<query::Parameter>> DrawParameters(const Operation& op, const json::Value& item) {
  std::vector<query::Parameter> parameters;
  for (const ParameterSource& source : op.parameters) {
    if (source.constant) {
      parameters.push_back({source.name, *source.constant});
      continue;
    }
    const json::Value* value = item.FindPath(source.path);
    parameters.push_back({source.name, value != nullptr ? *value : json::Value::Null()});
  }
  return parameters;
}

QueryRoute RouteForCandidate(const Candidate& candidate, const query::AccessShape& shape) {
  engine::QueryRouting routing = engine::RouteQuery(candidate.definition(), shape);
  if (std::optional<std::string> epk = candidate.SyntheticEpk(shape)) {
    routing.kind = engine::QueryRouting::Kind::kLogicalPartition;
    routing.epk = *epk;
  }
  return QueryRoute{routing.kind, engine::NarrowScope(engine::ReadScope{}, routing)};
}

std::optional<engine::ReadScope> ScopeIn(const engine::ReadScope& scope,
                                         const engine::PhysicalPartition& partition) {
  engine::ReadScope part = scope;
  part.range = engine::Intersect(
      scope.range, engine::EpkRange{partition.min_inclusive, partition.max_exclusive});
  if (scope.exact_epk ? !partition.Contains(*scope.exact_epk) : part.range.empty()) {
    return std::nullopt;
  }
  return part;
}

Result<SampledOperation> SampleRuns(const Operation& op, size_t op_index, const ItemSource& items,
                                    const StudyOptions& options, const RunOnce& run_once) {
  SampledOperation sampled;
  OperationMeasure& measure = sampled.measure;
  measure.name = op.name;
  measure.kind = op.kind;
  measure.share = op.share;
  Random draw(options.seed * 1000003 + op_index);
  std::vector<double> charges, touched;
  // The widest routing any parameter needed (point operations read one partition).
  engine::QueryRouting::Kind widest = engine::QueryRouting::Kind::kLogicalPartition;
  for (int s = 0; s < options.samples; ++s) {
    ORRERY_ASSIGN_OR_RETURN(json::Value item, items.Item(draw.Below(items.count())));
    engine::QueryRouting::Kind routing = engine::QueryRouting::Kind::kLogicalPartition;
    Result<OperationSample> sample = run_once(std::move(item), s, routing);
    if (!sample.ok() && op.kind == Operation::Kind::kQuery) {
      return Status::BadRequest("The workload's operation '" + op.name +
                                "' failed: " + sample.status().message());
    }
    ORRERY_RETURN_IF_ERROR(sample.status());
    if (RoutingWidth(routing) > RoutingWidth(widest)) widest = routing;
    charges.push_back(sample->request_units);
    touched.push_back(static_cast<double>(sample->partitions.size()));
    sampled.samples.push_back(std::move(*sample));
  }
  measure.routing = RoutingName(widest);
  measure.samples = options.samples;
  measure.ru_median = Quantile(charges, 0.5);
  measure.ru_p99 = Quantile(charges, 0.99);
  measure.partitions_touched = Quantile(touched, 0.5);
  return sampled;
}

Result<SampledOperation> SampleOperation(const Operation& op, size_t op_index,
                                         const Candidate& candidate, engine::Container& container,
                                         const ItemSource& items, const StudyOptions& options) {
  return SampleRuns(op, op_index, items, options,
                    [&](json::Value item, int run,
                        engine::QueryRouting::Kind& routing) -> Result<OperationSample> {
                      if (op.kind == Operation::Kind::kQuery) {
                        candidate.Prepare(item);
                        return RunQuery(op, candidate, container, item, routing);
                      }
                      const uint64_t draw_number =
                          options.seed * 1000000 + op_index * 10000 + static_cast<uint64_t>(run);
                      return RunPointOperation(op, draw_number, candidate, container,
                                               std::move(item));
                    });
}

}  // namespace orrery::advise
