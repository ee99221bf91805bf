#pragma once

// What quantizedFlat's two encodings share (quantized_vectors.h: one byte per dimension;
// product_quantized_vectors.h: quantizationByteSize bytes per vector): items in slots,
// each slot's bytes and the squared norm of its decoded vector, the scanned vectors kept
// whole until the build has learned its encoding from them, a search that scores every
// slot from its bytes and keeps the best, and the file a clean shutdown saves:
//
//   magic line | dimensions (4) | distance (1) | the encoding's model | slot count (8)
//   | per slot: item length (4), item (empty when free), and for a used slot its bytes
//     and its norm (4, IEEE-754 bits)
//
// written beside its name and renamed. An encoding supplies its model (learned from the
// scanned vectors, saved and loaded) and how it encodes one vector.

#include <cmath>
#include <cstdint>
#include <queue>
#include <string_view>
#include <unordered_map>

#include "engine/approximate_vector_index.h"

namespace orrery::engine {

class QuantizedSlots : public ApproximateVectorIndex {
 protected:
  // `code_bytes` per slot; `magic` starts the saved file (and tells the encodings apart).
  QuantizedSlots(query::DistanceFunction distance, size_t dimensions, size_t code_bytes,
                 std::string_view magic);

  // The encoding's model from the scanned vectors of `slots` (Scanned(slot)).
  virtual void Learn(const std::vector<size_t>& slots) = 0;
  // Writes the slot's bytes (CodeOf) and the squared norm of its decoded vector (norms_).
  virtual void Encode(size_t slot, std::span<const float> vector) = 0;
  virtual void SaveModel(std::string& out) const = 0;
  // Reads what SaveModel wrote from the front of `in` (and removes it); Corruption when
  // malformed or saved for another model.
  virtual Status LoadModel(std::string_view& in, const std::string& path) = 0;

  void PutLocked(std::string_view item, std::span<const float> vector) final;
  void RemoveLocked(std::string_view item) final;
  // The model is learned and the scanned vectors encoded by the builder's Calibrate,
  // outside the index's lock (and counted in the build time it logs), or else here.
  std::string CalibrateUnlocked() final;
  void ScanFinishedLocked() final;
  size_t SizeLocked() const final { return labels_.size(); }
  Status SaveLocked(const std::string& base) const final;
  Status LoadLocked(const std::string& base) final;

  // The `count` slots nearest to a query of squared norm `query_norm`, by what
  // `estimate(slot)` says from the slot's bytes: the query's product with the decoded
  // vector (cosine, dot product) or its squared distance to it (Euclidean).
  template <typename Estimate>
  std::vector<std::pair<float, std::string>> NearestBy(double query_norm, size_t count,
                                                       const Estimate& estimate) const {
    if (count == 0 || (distance() == query::DistanceFunction::kCosine && query_norm == 0)) {
      return {};
    }
    std::priority_queue<std::pair<float, size_t>> best;  // the worst kept on top
    for (size_t slot = 0; slot < items_.size(); ++slot) {
      if (items_[slot].empty()) continue;
      const double value = estimate(slot);
      double distance;
      switch (this->distance()) {
        case query::DistanceFunction::kCosine:
          if (norms_[slot] == 0) continue;
          distance = 1 - value / std::sqrt(query_norm * norms_[slot]);
          break;
        case query::DistanceFunction::kDotProduct:
          distance = 1 - value;
          break;
        case query::DistanceFunction::kEuclidean:
        default:
          distance = value;
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

  // A float as 4 bytes (IEEE-754 bits, big-endian), and back from the front of `in`.
  static void AppendFloat(std::string& out, float f);
  static float TakeFloat(std::string_view& in);

  const float* Scanned(size_t slot) const { return &scanned_[slot * dimensions_]; }
  uint8_t* CodeOf(size_t slot) { return &codes_[slot * code_bytes_]; }
  const uint8_t* CodeOf(size_t slot) const { return &codes_[slot * code_bytes_]; }

  const size_t dimensions_;
  const size_t code_bytes_;
  std::vector<float> norms_;  // by slot: the squared norm of the decoded vector

 private:
  void Quantize();

  const std::string_view magic_;
  bool quantizing_ = false;         // after the build's scan: the model is learned
  std::vector<float> scanned_;      // the scan's vectors, by slot, until the model exists
  std::vector<uint8_t> codes_;      // code_bytes_ per slot
  std::vector<std::string> items_;  // by slot ("" when free)
  std::vector<size_t> free_;
  std::unordered_map<std::string, size_t> labels_;
};

}  // namespace orrery::engine
