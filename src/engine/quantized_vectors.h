#pragma once

// The quantized vectors of a quantizedFlat vector index in one physical partition
// (approximate_vector_index.h): each vector as one byte per dimension (scalar
// quantization over the range each dimension spans when the index is built; later
// vectors outside it are clamped), a quarter of float32's size, searched by a scan that
// estimates every distance from the bytes. The engine then ranks the best candidates
// (several times the rows it shows) by their exact scores. Saved at a clean shutdown
// like a diskANN graph (one file: its ranges, then each slot's item, bytes and norm).

#include <cstdint>
#include <unordered_map>

#include "engine/approximate_vector_index.h"

namespace orrery::engine {

class QuantizedVectors : public ApproximateVectorIndex {
 public:
  QuantizedVectors(query::DistanceFunction distance, size_t dimensions);

 protected:
  void PutLocked(std::string_view item, std::span<const float> vector) override;
  void RemoveLocked(std::string_view item) override;
  void ScanFinishedLocked() override;
  std::vector<std::pair<float, std::string>> NearestLocked(std::span<const float> query,
                                                           size_t count) const override;
  size_t SizeLocked() const override { return labels_.size(); }
  Status SaveLocked(const std::string& base) const override;
  Status LoadLocked(const std::string& base) override;

 private:
  void Encode(size_t slot, std::span<const float> vector);

  const size_t dimensions_;
  bool quantizing_ = false;         // after the build's scan: the ranges are known
  std::vector<float> low_;          // per dimension
  std::vector<float> step_;         // per dimension: (high - low) / 255
  std::vector<float> scanned_;      // the scan's vectors, by slot, until the ranges are known
  std::vector<uint8_t> codes_;      // by slot
  std::vector<float> norms_;        // by slot: the squared norm of the decoded vector
  std::vector<std::string> items_;  // by slot ("" when free)
  std::vector<size_t> free_;
  std::unordered_map<std::string, size_t> labels_;
};

}  // namespace orrery::engine
