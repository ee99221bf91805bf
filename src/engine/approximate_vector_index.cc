#include "engine/approximate_vector_index.h"

namespace orrery::engine {

void ApproximateVectorIndex::Put(std::string_view item, std::span<const float> vector) {
  std::unique_lock lock(mutex_);
  if (!ready_) {
    queued_.push_back(Queued{std::string(item), std::vector<float>(vector.begin(), vector.end())});
    return;
  }
  PutLocked(item, vector);
}

void ApproximateVectorIndex::Remove(std::string_view item) {
  std::unique_lock lock(mutex_);
  if (!ready_) {
    queued_.push_back(Queued{std::string(item), {}});
    return;
  }
  RemoveLocked(item);
}

void ApproximateVectorIndex::AddFromScan(std::string_view item, std::span<const float> vector) {
  std::unique_lock lock(mutex_);
  PutLocked(item, vector);
}

Status ApproximateVectorIndex::AddFromFiles(const std::string& base) {
  std::unique_lock lock(mutex_);
  return LoadLocked(base);
}

Status ApproximateVectorIndex::Save(const std::string& base) const {
  std::shared_lock lock(mutex_);
  if (!ready_) return Status::Internal("the approximate vector index is not built");
  return SaveLocked(base);
}

Status ApproximateVectorIndex::SaveLocked(const std::string&) const {
  return Status::Internal("this kind of approximate vector index is not saved");
}

Status ApproximateVectorIndex::LoadLocked(const std::string&) {
  return Status::Internal("this kind of approximate vector index is not saved");
}

void ApproximateVectorIndex::FinishBuild() {
  std::unique_lock lock(mutex_);
  ScanFinishedLocked();
  for (const Queued& change : queued_) {
    if (change.vector.empty()) {
      RemoveLocked(change.item);
    } else {
      PutLocked(change.item, change.vector);
    }
  }
  queued_.clear();
  queued_.shrink_to_fit();
  ready_ = true;
}

bool ApproximateVectorIndex::ready() const {
  std::shared_lock lock(mutex_);
  return ready_;
}

std::vector<std::pair<float, std::string>> ApproximateVectorIndex::Nearest(
    std::span<const float> query, size_t count) const {
  std::shared_lock lock(mutex_);
  if (!ready_) return {};
  return NearestLocked(query, count);
}

size_t ApproximateVectorIndex::size() const {
  std::shared_lock lock(mutex_);
  return SizeLocked();
}

}  // namespace orrery::engine
