#pragma once

// The quantized vectors of a quantizedFlat vector index whose policy gives
// quantizationByteSize M below the dimensions (approximate_vector_index.h): product
// quantization. The dimensions are cut into M runs of about equal length; each run has
// a codebook of up to 256 centres, learned by k-means from the vectors the build scans,
// and a vector is kept as M bytes, the nearest centre of each run. A search scores every
// item from a table of the query's products with (or distances to) each centre, M look-ups
// an item, and the engine ranks the best candidates by their exact scores, as with
// QuantizedVectors (one byte per dimension), which serves quantizedFlat otherwise. Saved
// at a clean shutdown like it (one file: the codebooks, then each slot's item, bytes and
// the squared norm of its decoded vector).

#include <cstdint>
#include <unordered_map>

#include "engine/approximate_vector_index.h"

namespace orrery::engine {

class ProductQuantizedVectors : public ApproximateVectorIndex {
 public:
  // `bytes` (M) in [1, dimensions).
  ProductQuantizedVectors(query::DistanceFunction distance, size_t dimensions, size_t bytes);

  // Centres per run: a byte's values.
  static constexpr size_t kCentres = 256;
  // The build learns its codebooks from at most this many of the scanned vectors
  // (evenly spread over them), in this many k-means rounds.
  static constexpr size_t kMaxTrainingVectors = 8192;
  static constexpr int kTrainingRounds = 8;

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
  size_t RunBegin(size_t run) const { return run * dimensions_ / bytes_; }
  size_t RunEnd(size_t run) const { return (run + 1) * dimensions_ / bytes_; }
  // The first float of centre `centre` of `run` in centres_ (each run's centres hold
  // that run's dimensions only).
  size_t CentreAt(size_t run, size_t centre) const {
    return RunBegin(run) * kCentres + centre * (RunEnd(run) - RunBegin(run));
  }
  void Train(const std::vector<size_t>& slots);
  void Encode(size_t slot, std::span<const float> vector);

  const size_t dimensions_;
  const size_t bytes_;
  bool quantizing_ = false;        // after the build's scan: the codebooks are learned
  std::vector<float> centres_;     // every run's kCentres centres, run after run
  std::vector<float> scanned_;     // the scan's vectors, by slot, until the codebooks exist
  std::vector<uint8_t> codes_;     // bytes_ per slot
  std::vector<float> norms_;       // by slot: the squared norm of the decoded vector
  std::vector<std::string> items_;  // by slot ("" when free)
  std::vector<size_t> free_;
  std::unordered_map<std::string, size_t> labels_;
};

}  // namespace orrery::engine
