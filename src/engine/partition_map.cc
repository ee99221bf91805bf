#include "engine/partition_map.h"

#include <algorithm>

namespace orrery::engine {
namespace {

// "FF" is the open end of the key space: larger than every EPK.
bool LessBound(std::string_view a, std::string_view b) {
  if (a == "FF") return false;
  if (b == "FF") return true;
  return a < b;
}

}  // namespace

EpkRange Intersect(const EpkRange& a, const EpkRange& b) {
  EpkRange out;
  out.min = std::max(a.min, b.min);
  out.max = LessBound(a.max, b.max) ? a.max : b.max;
  return out;
}

PartitionMap::PartitionMap(std::vector<PhysicalPartition> partitions,
                           std::vector<PhysicalPartition> retired)
    : partitions_(std::move(partitions)), retired_(std::move(retired)) {
  std::sort(partitions_.begin(), partitions_.end(),
            [](const PhysicalPartition& a, const PhysicalPartition& b) {
              return a.min_inclusive < b.min_inclusive;
            });
}

PartitionMap PartitionMap::FromBoundaries(const std::vector<std::string>& boundaries) {
  std::vector<PhysicalPartition> partitions;
  for (size_t i = 0; i + 1 < boundaries.size(); ++i) {
    PhysicalPartition p;
    p.number = static_cast<uint32_t>(i);
    p.id = std::to_string(i);
    p.min_inclusive = boundaries[i];
    p.max_exclusive = boundaries[i + 1];
    partitions.push_back(std::move(p));
  }
  return PartitionMap(std::move(partitions));
}

const PhysicalPartition& PartitionMap::Owner(std::string_view epk) const {
  // The last partition whose min is <= epk.
  auto it = std::upper_bound(
      partitions_.begin(), partitions_.end(), epk,
      [](std::string_view key, const PhysicalPartition& p) { return key < p.min_inclusive; });
  return *(it == partitions_.begin() ? it : it - 1);
}

const PhysicalPartition* PartitionMap::FindById(std::string_view id) const {
  for (const auto* list : {&partitions_, &retired_}) {
    for (const auto& p : *list) {
      if (p.id == id) return &p;
    }
  }
  return nullptr;
}

int PartitionMap::CountOverlapping(const EpkRange& range) const {
  return static_cast<int>(OverlappingIds(range).size());
}

std::vector<std::string> PartitionMap::OverlappingIds(const EpkRange& range) const {
  std::vector<std::string> ids;
  for (const auto& p : partitions_) {
    if (!Intersect(range, EpkRange{p.min_inclusive, p.max_exclusive}).empty()) ids.push_back(p.id);
  }
  return ids;
}

uint32_t PartitionMap::NextNumber() const {
  uint32_t next = 0;
  for (const auto* list : {&partitions_, &retired_}) {
    for (const PhysicalPartition& p : *list) next = std::max(next, p.number + 1);
  }
  return next;
}

PartitionMap PartitionMap::Split(uint32_t number, const std::string& at, uint32_t left,
                                 uint32_t right) const {
  std::vector<PhysicalPartition> live;
  std::vector<PhysicalPartition> retired = retired_;
  for (const PhysicalPartition& p : partitions_) {
    if (p.number != number) {
      live.push_back(p);
      continue;
    }
    PhysicalPartition low = p;
    low.number = left;
    low.id = std::to_string(left);
    low.max_exclusive = at;
    low.parents.push_back(p.id);
    PhysicalPartition high = low;
    high.number = right;
    high.id = std::to_string(right);
    high.min_inclusive = at;
    high.max_exclusive = p.max_exclusive;
    live.push_back(std::move(low));
    live.push_back(std::move(high));
    retired.push_back(p);
  }
  return PartitionMap(std::move(live), std::move(retired));
}

json::Value PartitionMap::ToJson() const {
  json::Array array;
  for (const auto* list : {&partitions_, &retired_}) {
    for (const auto& p : *list) {
      json::Array parents;
      for (const auto& parent : p.parents) parents.push_back(json::Value::String(parent));
      json::Value entry = json::Value::MakeObject({
          {"id", json::Value::String(p.id)},
          {"number", json::Value::Int(p.number)},
          {"min", json::Value::String(p.min_inclusive)},
          {"max", json::Value::String(p.max_exclusive)},
          {"parents", json::Value::MakeArray(std::move(parents))},
      });
      if (list == &retired_) entry.Set("retired", json::Value::Bool(true));
      array.push_back(std::move(entry));
    }
  }
  return json::Value::MakeArray(std::move(array));
}

std::optional<PartitionMap> PartitionMap::FromJson(const json::Value& value) {
  if (!value.is_array()) return std::nullopt;
  std::vector<PhysicalPartition> partitions;
  std::vector<PhysicalPartition> retired;
  for (const auto& entry : value.as_array()) {
    const json::Value* id = entry.Find("id");
    const json::Value* number = entry.Find("number");
    const json::Value* min = entry.Find("min");
    const json::Value* max = entry.Find("max");
    if (!id || !number || !min || !max || !id->is_string() || !number->is_number() ||
        !min->is_string() || !max->is_string()) {
      return std::nullopt;
    }
    PhysicalPartition p;
    p.id = id->as_string();
    p.number = static_cast<uint32_t>(number->as_double());
    p.min_inclusive = min->as_string();
    p.max_exclusive = max->as_string();
    if (const json::Value* parents = entry.Find("parents"); parents && parents->is_array()) {
      for (const auto& parent : parents->as_array()) {
        if (parent.is_string()) p.parents.push_back(parent.as_string());
      }
    }
    const json::Value* is_retired = entry.Find("retired");
    (is_retired && is_retired->is_bool() && is_retired->as_bool() ? retired : partitions)
        .push_back(std::move(p));
  }
  return PartitionMap(std::move(partitions), std::move(retired));
}

}  // namespace orrery::engine
