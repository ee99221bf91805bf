#pragma once

// The quantized vectors of a quantizedFlat vector index whose policy gives
// quantizationByteSize M below the dimensions (approximate_vector_index.h): product
// quantization. The dimensions are cut into M runs of about equal length; each run has
// a codebook of up to 256 centres, learned by k-means from the vectors the build scans,
// and a vector is kept as M bytes, the nearest centre of each run. A search scores every
// item from a table of the query's products with (or squared distances to) each centre,
// M look-ups an item, and the engine ranks the best candidates by their exact scores, as
// with QuantizedVectors (one byte per dimension), which serves quantizedFlat otherwise.
// Saved at a clean shutdown like it (quantized_slots.h; the model is M and the centres).

#include "engine/quantized_slots.h"

namespace orrery::engine {

class ProductQuantizedVectors : public QuantizedSlots {
 public:
  // `bytes` (M) in [1, dimensions].
  ProductQuantizedVectors(query::DistanceFunction distance, size_t dimensions, size_t bytes);

  // Centres per run: a byte's values.
  static constexpr size_t kCentres = 256;
  // The build learns its codebooks from at most this many of the scanned vectors
  // (evenly spread over them), in at most this many k-means rounds.
  static constexpr size_t kMaxTrainingVectors = 8192;
  static constexpr int kTrainingRounds = 8;

 protected:
  void Learn(const std::vector<size_t>& slots) override;
  void Encode(size_t slot, std::span<const float> vector) override;
  void SaveModel(std::string& out) const override;
  Status LoadModel(std::string_view& in, const std::string& path) override;
  std::vector<std::pair<float, std::string>> NearestLocked(std::span<const float> query,
                                                           size_t count) const override;

 private:
  size_t RunBegin(size_t run) const { return run * dimensions_ / code_bytes_; }
  size_t RunEnd(size_t run) const { return (run + 1) * dimensions_ / code_bytes_; }
  // Where the centres of `run` start in centres_: each holds that run's dimensions only,
  // so the runs before it take RunBegin(run) x kCentres floats.
  const float* Codebook(size_t run) const { return &centres_[RunBegin(run) * kCentres]; }
  float* Codebook(size_t run) { return &centres_[RunBegin(run) * kCentres]; }

  std::vector<float> centres_;  // every run's kCentres centres, run after run
};

}  // namespace orrery::engine
