#include "engine/quantized_vectors.h"

#include <algorithm>
#include <cmath>
#include <queue>

namespace orrery::engine {

QuantizedVectors::QuantizedVectors(query::DistanceFunction distance, size_t dimensions)
    : ApproximateVectorIndex(distance),
      dimensions_(dimensions),
      low_(dimensions, 0),
      step_(dimensions, 0) {}

void QuantizedVectors::PutLocked(std::string_view item, std::span<const float> vector) {
  if (vector.size() != dimensions_) return;
  auto [it, added] = labels_.try_emplace(std::string(item), 0);
  if (added) {
    if (!free_.empty()) {
      it->second = free_.back();
      free_.pop_back();
    } else {
      it->second = items_.size();
      items_.emplace_back();
      codes_.resize(codes_.size() + dimensions_);
      norms_.push_back(0);
      if (!quantizing_) scanned_.resize(scanned_.size() + dimensions_);
    }
    items_[it->second] = std::string(item);
  }
  if (!quantizing_) {
    std::copy(vector.begin(), vector.end(),
              scanned_.begin() + static_cast<std::ptrdiff_t>(it->second * dimensions_));
    return;
  }
  Encode(it->second, vector);
}

void QuantizedVectors::RemoveLocked(std::string_view item) {
  auto it = labels_.find(std::string(item));
  if (it == labels_.end()) return;
  items_[it->second].clear();
  free_.push_back(it->second);
  labels_.erase(it);
}

void QuantizedVectors::ScanFinishedLocked() {
  const size_t slots = items_.size();
  std::vector<float> high(dimensions_, 0);
  bool first = true;
  for (size_t slot = 0; slot < slots; ++slot) {
    if (items_[slot].empty()) continue;
    const float* v = &scanned_[slot * dimensions_];
    for (size_t d = 0; d < dimensions_; ++d) {
      low_[d] = first ? v[d] : std::min(low_[d], v[d]);
      high[d] = first ? v[d] : std::max(high[d], v[d]);
    }
    first = false;
  }
  for (size_t d = 0; d < dimensions_; ++d) {
    // An empty or constant dimension still gets a range, for vectors written later.
    if (first) {
      low_[d] = -1;
      high[d] = 1;
    }
    step_[d] = high[d] > low_[d] ? (high[d] - low_[d]) / 255.0f : 1.0f / 255.0f;
  }
  quantizing_ = true;
  for (size_t slot = 0; slot < slots; ++slot) {
    if (items_[slot].empty()) continue;
    Encode(slot, std::span<const float>(&scanned_[slot * dimensions_], dimensions_));
  }
  scanned_.clear();
  scanned_.shrink_to_fit();
}

void QuantizedVectors::Encode(size_t slot, std::span<const float> vector) {
  uint8_t* code = &codes_[slot * dimensions_];
  double norm = 0;
  for (size_t d = 0; d < dimensions_; ++d) {
    const float q = std::round((vector[d] - low_[d]) / step_[d]);
    code[d] = static_cast<uint8_t>(std::clamp(q, 0.0f, 255.0f));
    const double decoded = low_[d] + code[d] * static_cast<double>(step_[d]);
    norm += decoded * decoded;
  }
  norms_[slot] = static_cast<float>(norm);
}

std::vector<std::pair<float, std::string>> QuantizedVectors::NearestLocked(
    std::span<const float> query, size_t count) const {
  if (query.size() != dimensions_ || count == 0) return {};
  // q . decoded(x) = sum q_d low_d + sum (q_d step_d) code_d: one pass of bytes per item.
  std::vector<float> scaled(dimensions_);
  double base = 0, query_norm = 0;
  for (size_t d = 0; d < dimensions_; ++d) {
    scaled[d] = query[d] * step_[d];
    base += static_cast<double>(query[d]) * low_[d];
    query_norm += static_cast<double>(query[d]) * query[d];
  }
  if (distance() == query::DistanceFunction::kCosine && query_norm == 0) return {};
  std::priority_queue<std::pair<float, size_t>> best;  // the worst kept on top
  for (size_t slot = 0; slot < items_.size(); ++slot) {
    if (items_[slot].empty()) continue;
    const uint8_t* code = &codes_[slot * dimensions_];
    float dot = 0;
    for (size_t d = 0; d < dimensions_; ++d) dot += scaled[d] * code[d];
    const double product = base + dot;
    double distance;
    switch (this->distance()) {
      case query::DistanceFunction::kCosine:
        if (norms_[slot] == 0) continue;
        distance = 1 - product / std::sqrt(query_norm * norms_[slot]);
        break;
      case query::DistanceFunction::kDotProduct:
        distance = 1 - product;
        break;
      case query::DistanceFunction::kEuclidean:
      default:
        distance = query_norm - 2 * product + norms_[slot];
        break;
    }
    if (best.size() < count) {
      best.emplace(static_cast<float>(distance), slot);
    } else if (distance < best.top().first) {
      best.pop();
      best.emplace(static_cast<float>(distance), slot);
    }
  }
  return Drain(best, items_);
}

}  // namespace orrery::engine
