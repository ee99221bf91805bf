#pragma once

// The graph of a diskANN vector index in one physical partition
// (approximate_vector_index.h): a navigable small-world graph (hnswlib's HNSW, from
// Debian's libhnswlib-dev) over the partition's vectors.
//
// How many candidates a search must keep to find the nearest items depends on the data:
// embeddings, which cluster, need few; vectors without structure (uniform in many
// dimensions) need so many that the graph stops paying. So each build measures it: a
// sample of the scanned vectors (up to 32, drawn uniformly) is held out of the graph
// while it is built, and their 10 nearest neighbours in it, found exactly, are compared
// with what searches of growing candidate lists find (a vector in the graph would be
// found through its own links, which makes searches look better than a query's).
// Searches keep at least the smallest list that finds kCalibrationRecall of them (0.97,
// so that queries find the 0.95 the service aims at: 32 samples estimate it within about
// 0.01); when no
// list below half the graph does, searches compare the query with every vector of the
// partition instead (exact, in memory). The held-out vectors join the graph after it.
// The outcome is saved with the graph.

#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/approximate_vector_index.h"

namespace orrery::engine {

class VectorGraph : public ApproximateVectorIndex {
 public:
  // `search_list_size`: the candidates the search keeps while it walks the graph (the
  // index's indexingSearchListSize). Distances are in the graph's space: 1 - cosine,
  // 1 - dot product, or the squared Euclidean distance.
  // `calibration_recall`: the share of the held-out vectors' neighbours searches must
  // find (tests raise it past 1 to see the exhaustive search).
  VectorGraph(query::DistanceFunction distance, size_t dimensions, size_t search_list_size,
              double calibration_recall = kCalibrationRecall);
  static constexpr double kCalibrationRecall = 0.97;
  ~VectorGraph() override;

 protected:
  void PutLocked(std::string_view item, std::span<const float> vector) override;
  void RemoveLocked(std::string_view item) override;
  std::vector<std::pair<float, std::string>> NearestLocked(std::span<const float> query,
                                                           size_t count) const override;
  size_t SizeLocked() const override { return live_count_; }
  std::string CalibrateUnlocked() override;
  Status SaveLocked(const std::string& base) const override;
  Status LoadLocked(const std::string& base) override;

 private:
  struct Index;  // hnswlib's, kept out of this header

  std::vector<float> Prepared(std::span<const float> vector) const;
  void Insert(std::string_view item, const std::vector<float>& point);
  void InsertHeldOut();
  std::priority_queue<std::pair<float, size_t>> ExactNearestLabels(const float* point,
                                                                   size_t count) const;
  // The `count` stored vectors nearest to `point` (prepared), compared with every one.
  std::vector<std::pair<float, std::string>> NearestExhaustively(const float* point,
                                                                 size_t count) const;
  // Of the samples' exact 10 nearest neighbours, the share searches keeping `candidates`
  // find.
  double SampleRecall(size_t samples, const std::vector<std::vector<size_t>>& truth,
                      size_t candidates) const;
  void ScanFinishedLocked() override { InsertHeldOut(); }

  const size_t dimensions_;
  const size_t search_list_size_;
  const double calibration_recall_;
  std::unique_ptr<Index> index_;
  std::unordered_map<std::string, size_t> labels_;
  std::vector<std::string> items_;  // by label
  std::vector<bool> live_;          // by label
  size_t live_count_ = 0;
  // From the last calibration: the fewest candidates a search keeps, or every vector.
  size_t min_candidates_ = 0;
  bool exhaustive_ = false;
  // While the build scans: the vectors held out (prepared), how many it has seen, and
  // the draw that picks them.
  bool scanning_ = true;
  std::vector<std::pair<std::string, std::vector<float>>> held_out_;
  size_t scanned_ = 0;
  uint64_t draw_state_ = 0x9E3779B97F4A7C15ull;
};

}  // namespace orrery::engine
