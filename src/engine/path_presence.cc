#include "engine/path_presence.h"

namespace orrery::engine {

void PathPresence::StartEmpty(uint32_t partition) {
  const std::lock_guard lock(mutex_);
  Partition& p = partitions_[partition];
  p.every_path = true;
  p.items = 0;
  p.entries.clear();
  counted_.store(static_cast<int>(partitions_.size()), std::memory_order_release);
}

std::optional<bool> PathPresence::SomeItemLacks(uint32_t partition, std::string_view path) const {
  const std::lock_guard lock(mutex_);
  auto it = partitions_.find(partition);
  if (it == partitions_.end() || !it->second.items) return std::nullopt;
  const Partition& p = it->second;
  auto entries = p.entries.find(path);
  if (entries != p.entries.end()) return entries->second < *p.items;
  if (p.every_path) return *p.items > 0;
  return std::nullopt;
}

std::optional<int64_t> PathPresence::Entries(uint32_t partition, std::string_view path) const {
  const std::lock_guard lock(mutex_);
  auto it = partitions_.find(partition);
  if (it == partitions_.end() || !it->second.items) return std::nullopt;
  auto entries = it->second.entries.find(path);
  if (entries != it->second.entries.end()) return entries->second;
  if (it->second.every_path) return 0;
  return std::nullopt;
}

std::optional<int64_t> PathPresence::Items(uint32_t partition) const {
  const std::lock_guard lock(mutex_);
  auto it = partitions_.find(partition);
  return it == partitions_.end() ? std::nullopt : it->second.items;
}

void PathPresence::Learn(uint32_t partition, std::string_view path, int64_t entries,
                         int64_t items) {
  const std::lock_guard lock(mutex_);
  Partition& p = partitions_[partition];
  p.items = items;
  p.entries.insert_or_assign(std::string(path), entries);
  counted_.store(static_cast<int>(partitions_.size()), std::memory_order_release);
}

void PathPresence::Apply(uint32_t partition, std::string_view path, int64_t delta) {
  const std::lock_guard lock(mutex_);
  ApplyLocked(partition, path, delta);
}

void PathPresence::Apply(std::span<const Change> changes) {
  const std::lock_guard lock(mutex_);
  for (const Change& change : changes) ApplyLocked(change.partition, change.path, change.delta);
}

void PathPresence::ApplyLocked(uint32_t partition, std::string_view path, int64_t delta) {
  auto it = partitions_.find(partition);
  if (it == partitions_.end()) return;
  Partition& p = it->second;
  if (path.empty()) {
    if (p.items) *p.items += delta;
    return;
  }
  auto entries = p.entries.find(path);
  if (entries != p.entries.end()) {
    entries->second += delta;
  } else if (p.every_path) {
    if (p.entries.size() >= kMaxPathsPerPartition) {
      ForgetLocked(partition);
      return;
    }
    p.entries.emplace(std::string(path), delta);
  }
}

void PathPresence::Forget(uint32_t partition) {
  const std::lock_guard lock(mutex_);
  ForgetLocked(partition);
}

void PathPresence::ForgetLocked(uint32_t partition) {
  partitions_.erase(partition);
  counted_.store(static_cast<int>(partitions_.size()), std::memory_order_release);
}

void PathPresence::ForgetAll() {
  const std::lock_guard lock(mutex_);
  partitions_.clear();
  counted_.store(0, std::memory_order_release);
}

}  // namespace orrery::engine
