#pragma once

// The quantized vectors of a quantizedFlat vector index in one physical partition
// (approximate_vector_index.h) when its policy gives no quantizationByteSize below the
// dimensions: each vector as one byte per dimension (scalar quantization over the range
// each dimension spans when the index is built; later vectors outside it are clamped), a
// quarter of float32's size, searched by a scan that estimates every distance from the
// bytes. The engine then ranks the best candidates (several times the rows it shows) by
// their exact scores. Saved at a clean shutdown like a diskANN graph (quantized_slots.h;
// the model is each dimension's low end and step).

#include "engine/quantized_slots.h"

namespace orrery::engine {

class QuantizedVectors : public QuantizedSlots {
 public:
  QuantizedVectors(query::DistanceFunction distance, size_t dimensions);

 protected:
  void Learn(const std::vector<size_t>& slots) override;
  void Encode(size_t slot, std::span<const float> vector) override;
  void SaveModel(std::string& out) const override;
  Status LoadModel(std::string_view& in, const std::string& path) override;
  std::vector<std::pair<float, std::string>> NearestLocked(std::span<const float> query,
                                                           size_t count) const override;

 private:
  std::vector<float> low_;   // per dimension
  std::vector<float> step_;  // per dimension: (high - low) / 255
};

}  // namespace orrery::engine
