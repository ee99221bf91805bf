#include "engine/quantized_vectors.h"

#include <algorithm>
#include <cmath>

namespace orrery::engine {

constexpr std::string_view kQuantizedMagic = "orrery-quantized-vectors 1\n";

QuantizedVectors::QuantizedVectors(query::DistanceFunction distance, size_t dimensions)
    : QuantizedSlots(distance, dimensions, dimensions, kQuantizedMagic),
      low_(dimensions, 0),
      step_(dimensions, 0) {}

void QuantizedVectors::Learn(const std::vector<size_t>& slots) {
  std::vector<float> high(dimensions_, 0);
  bool first = true;
  for (size_t slot : slots) {
    const float* v = Scanned(slot);
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
}

void QuantizedVectors::Encode(size_t slot, std::span<const float> vector) {
  uint8_t* code = CodeOf(slot);
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
  if (query.size() != dimensions_) return {};
  // q . decoded(x) = sum q_d low_d + sum (q_d step_d) code_d: one pass of bytes per item.
  std::vector<float> scaled(dimensions_);
  double base = 0, query_norm = 0;
  for (size_t d = 0; d < dimensions_; ++d) {
    scaled[d] = query[d] * step_[d];
    base += static_cast<double>(query[d]) * low_[d];
    query_norm += static_cast<double>(query[d]) * query[d];
  }
  const bool euclidean = distance() == query::DistanceFunction::kEuclidean;
  return NearestBy(query_norm, count, [&](size_t slot) {
    const uint8_t* code = CodeOf(slot);
    float dot = 0;
    for (size_t d = 0; d < dimensions_; ++d) dot += scaled[d] * code[d];
    const double product = base + dot;
    return euclidean ? query_norm - 2 * product + norms_[slot] : product;
  });
}

// Per dimension its low and step (4 + 4).
void QuantizedVectors::SaveModel(std::string& out) const {
  for (size_t d = 0; d < dimensions_; ++d) {
    AppendFloat(out, low_[d]);
    AppendFloat(out, step_[d]);
  }
}

Status QuantizedVectors::LoadModel(std::string_view& in, const std::string& path) {
  if (in.size() < dimensions_ * 8) return Status::Corruption(path + " is malformed");
  for (size_t d = 0; d < dimensions_; ++d) {
    low_[d] = TakeFloat(in);
    step_[d] = TakeFloat(in);
  }
  return Status::Ok();
}

}  // namespace orrery::engine
