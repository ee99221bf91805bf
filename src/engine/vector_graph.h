#pragma once

// The graph of a diskANN vector index in one physical partition: a navigable
// small-world graph (hnswlib's HNSW, from Debian's libhnswlib-dev) over the vectors of
// the partition's vector-index entries (index/vector_terms.h), which stay the source of
// truth. The graph lives in memory: it is built from the entries in the background the
// first time a query needs it (the query is answered by the exact scan meanwhile), kept
// current with every write that changes an entry, and built again after a restart or a
// split. A search returns candidates; the engine reads their items and ranks them by
// their exact scores.

#include <cstddef>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "query/vector_policy.h"

namespace orrery::engine {

class VectorGraph {
 public:
  // `search_list_size`: the candidates the search keeps while it walks the graph (the
  // index's indexingSearchListSize).
  VectorGraph(query::DistanceFunction distance, size_t dimensions, size_t search_list_size);
  ~VectorGraph();
  VectorGraph(const VectorGraph&) = delete;
  VectorGraph& operator=(const VectorGraph&) = delete;

  query::DistanceFunction distance() const { return distance_; }

  // The item (its key suffix: EPK 0x00 id) has this vector now, or has none. While the
  // graph is being built these are queued and applied after the entries read, so that a
  // write the build's scan read an older state of ends up in the graph as written.
  void Put(std::string_view item, std::span<const float> vector);
  void Remove(std::string_view item);

  // The build's own additions: the entries as its scan reads them.
  void AddFromScan(std::string_view item, std::span<const float> vector);
  // Applies the queued writes; the graph answers searches from then on.
  void FinishBuild();
  bool ready() const;

  // Up to `count` items nearest to `query` by the graph, each with its distance in the
  // graph's space (smaller is more similar): 1 - cosine, 1 - dot product, or the squared
  // Euclidean distance. Not in order.
  std::vector<std::pair<float, std::string>> Nearest(std::span<const float> query,
                                                     size_t count) const;
  size_t size() const;

 private:
  struct Index;  // hnswlib's, kept out of this header
  struct Queued {
    std::string item;
    std::vector<float> vector;  // empty: removed
  };

  void PutLocked(std::string_view item, std::span<const float> vector);
  void RemoveLocked(std::string_view item);
  std::vector<float> Prepared(std::span<const float> vector) const;

  const query::DistanceFunction distance_;
  const size_t dimensions_;
  mutable std::shared_mutex mutex_;  // shared: searches; exclusive: changes
  std::unique_ptr<Index> index_;
  std::unordered_map<std::string, size_t> labels_;
  std::vector<std::string> items_;  // by label
  std::vector<bool> live_;          // by label
  size_t live_count_ = 0;
  bool ready_ = false;
  std::vector<Queued> queued_;  // until ready_
};

}  // namespace orrery::engine
