#pragma once

// The graph of a diskANN vector index in one physical partition
// (approximate_vector_index.h): a navigable small-world graph (hnswlib's HNSW, from
// Debian's libhnswlib-dev) over the partition's vectors.

#include <memory>
#include <unordered_map>

#include "engine/approximate_vector_index.h"

namespace orrery::engine {

class VectorGraph : public ApproximateVectorIndex {
 public:
  // `search_list_size`: the candidates the search keeps while it walks the graph (the
  // index's indexingSearchListSize). Distances are in the graph's space: 1 - cosine,
  // 1 - dot product, or the squared Euclidean distance.
  VectorGraph(query::DistanceFunction distance, size_t dimensions, size_t search_list_size);
  ~VectorGraph() override;

 protected:
  void PutLocked(std::string_view item, std::span<const float> vector) override;
  void RemoveLocked(std::string_view item) override;
  std::vector<std::pair<float, std::string>> NearestLocked(std::span<const float> query,
                                                           size_t count) const override;
  size_t SizeLocked() const override { return live_count_; }
  Status SaveLocked(const std::string& base) const override;
  Status LoadLocked(const std::string& base) override;

 private:
  struct Index;  // hnswlib's, kept out of this header

  std::vector<float> Prepared(std::span<const float> vector) const;

  const size_t dimensions_;
  const size_t search_list_size_;
  std::unique_ptr<Index> index_;
  std::unordered_map<std::string, size_t> labels_;
  std::vector<std::string> items_;  // by label
  std::vector<bool> live_;          // by label
  size_t live_count_ = 0;
};

}  // namespace orrery::engine
