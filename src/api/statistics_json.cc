#include "api/statistics_json.h"

#include "engine/throughput/cost_model.h"
#include "json/json.h"

namespace orrery::api {
namespace {

using json::Value;

int64_t KiB(int64_t bytes) { return (bytes + 1023) / 1024; }

// The partition key as a JSON value (the stored label is header JSON, an array).
Value PartitionKeyValue(const std::string& label) {
  Result<Value> parsed = json::Parse(label);
  return parsed.ok() ? std::move(*parsed) : Value::String(label);
}

}  // namespace

json::Value ServiceStatisticsJson(const engine::ContainerStatistics& stats) {
  Value out = Value::MakeArray();
  for (const engine::PhysicalPartitionStatistics& p : stats.partitions) {
    Value keys = Value::MakeArray();
    for (const auto& l : p.largest) {
      keys.as_array().push_back(Value::MakeObject({
          {"partitionKey", PartitionKeyValue(l.partition_key)},
          {"sizeInKB", Value::Int(KiB(l.bytes))},
      }));
    }
    out.as_array().push_back(Value::MakeObject({
        {"id", Value::String(p.partition.id)},
        {"sizeInKB", Value::Int(KiB(p.bytes))},
        {"documentCount", Value::Int(p.items)},
        {"sampledDistinctPartitionKeyCount", Value::Int(p.logical_partitions)},
        {"partitionKeys", std::move(keys)},
    }));
  }
  return out;
}

json::Value AdminStatisticsJson(const engine::ContainerStatistics& stats) {
  Value partitions = Value::MakeArray();
  for (const engine::PhysicalPartitionStatistics& p : stats.partitions) {
    Value largest = Value::MakeArray();
    for (const auto& l : p.largest) {
      largest.as_array().push_back(Value::MakeObject({
          {"partitionKey", PartitionKeyValue(l.partition_key)},
          {"itemCount", Value::Int(l.items)},
          {"sizeBytes", Value::Int(l.bytes)},
      }));
    }
    Value parents = Value::MakeArray();
    for (const std::string& parent : p.partition.parents) {
      parents.as_array().push_back(Value::String(parent));
    }
    partitions.as_array().push_back(Value::MakeObject({
        {"id", Value::String(p.partition.id)},
        {"minInclusive", Value::String(p.partition.min_inclusive)},
        {"maxExclusive", Value::String(p.partition.max_exclusive)},
        {"parents", std::move(parents)},
        {"itemCount", Value::Int(p.items)},
        {"sizeBytes", Value::Int(p.bytes)},
        {"logicalPartitions", Value::Int(p.logical_partitions)},
        {"ruPerSecond", Value::Double(p.ru_per_second)},
        {"requestCharge", Value::Double(throughput::RoundCharge(p.request_charge))},
        {"throttledRequests", Value::Int(p.throttled_requests)},
        {"largestLogicalPartitions", std::move(largest)},
    }));
  }
  return Value::MakeObject({
      {"itemCount", Value::Int(stats.items)},
      {"sizeBytes", Value::Int(stats.bytes)},
      {"logicalPartitions", Value::Int(stats.logical_partitions)},
      {"physicalPartitions", std::move(partitions)},
  });
}

std::string ResourceUsageHeader(const engine::ContainerStatistics& stats) {
  const std::string kb = std::to_string(KiB(stats.bytes));
  return "functions=0;storedProcedures=0;triggers=0;documentSize=" + kb + ";documentsSize=" + kb +
         ";documentsCount=" + std::to_string(stats.items) + ";collectionSize=" + kb + ";";
}

}  // namespace orrery::api
