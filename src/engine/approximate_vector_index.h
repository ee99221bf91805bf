#pragma once

// What an approximate vector index of one physical partition keeps in memory beside the
// partition's vector-index entries (index/vector_terms.h), which stay the source of
// truth: a diskANN graph (vector_graph.h) or quantizedFlat's quantized vectors
// (quantized_vectors.h). It is built from the entries in the background the first time
// a query needs it (the exact scan answers meanwhile), kept current with every write
// that changes an entry (Container::NoteGraphChanges), and built again after a split or
// a crash. Both are saved at a clean shutdown and read back at the next start instead
// of being built again (Container::SaveVectorGraphs). A search returns
// candidates; the engine reads their items and ranks them by their exact scores.

#include <cstddef>
#include <mutex>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "query/vector_policy.h"

namespace orrery::engine {

class ApproximateVectorIndex {
 public:
  explicit ApproximateVectorIndex(query::DistanceFunction distance) : distance_(distance) {}
  virtual ~ApproximateVectorIndex() = default;
  ApproximateVectorIndex(const ApproximateVectorIndex&) = delete;
  ApproximateVectorIndex& operator=(const ApproximateVectorIndex&) = delete;

  query::DistanceFunction distance() const { return distance_; }

  // The item (its key suffix: EPK 0x00 id) has this vector now, or has none. While the
  // index is being built these are queued and applied after the entries read, so that a
  // write whose older state the build's scan read ends up in the index as written.
  void Put(std::string_view item, std::span<const float> vector);
  void Remove(std::string_view item);

  // The build's own additions: the entries as its scan reads them.
  void AddFromScan(std::string_view item, std::span<const float> vector);
  // The build's alternative to scanning: reads what Save wrote to the files named by
  // `base`. On an error the index is as before (empty) and the build scans instead.
  Status AddFromFiles(const std::string& base);
  // Called by the builder after the scan or the load, before FinishBuild: measures how
  // well searches find the nearest items of the index's own vectors and sizes them
  // accordingly (vector_graph.h). Unlocked: until FinishBuild the index's contents are
  // the builder's alone (writes queue, searches return nothing). Returns what it found,
  // for the log (empty when there is nothing to tell).
  std::string Calibrate() { return CalibrateUnlocked(); }
  // Applies the queued writes; the index answers searches from then on.
  void FinishBuild();
  // Writes the built index to the files named by `base` (base + ".items", and a graph's
  // ".graph"). Errors: Internal for an index not built; IoError.
  Status Save(const std::string& base) const;
  bool ready() const;

  // Up to `count` items nearest to `query`, each with a distance by which smaller is
  // more similar, approximately (the engine ranks the items again exactly). Not in order.
  std::vector<std::pair<float, std::string>> Nearest(std::span<const float> query,
                                                     size_t count) const;
  size_t size() const;

 protected:
  // The items of a max-heap of (distance, slot) pairs, `items` by slot; empties it.
  template <typename Heap>
  static std::vector<std::pair<float, std::string>> Drain(Heap& heap,
                                                          const std::vector<std::string>& items) {
    std::vector<std::pair<float, std::string>> out;
    out.reserve(heap.size());
    for (; !heap.empty(); heap.pop()) out.emplace_back(heap.top().first, items[heap.top().second]);
    return out;
  }

  virtual void PutLocked(std::string_view item, std::span<const float> vector) = 0;
  virtual void RemoveLocked(std::string_view item) = 0;
  virtual void ScanFinishedLocked() {}
  virtual std::string CalibrateUnlocked() { return {}; }
  virtual Status SaveLocked(const std::string& base) const;
  virtual Status LoadLocked(const std::string& base);
  virtual std::vector<std::pair<float, std::string>> NearestLocked(std::span<const float> query,
                                                                   size_t count) const = 0;
  virtual size_t SizeLocked() const = 0;

 private:
  struct Queued {
    std::string item;
    std::vector<float> vector;  // empty: removed
  };

  const query::DistanceFunction distance_;
  mutable std::shared_mutex mutex_;  // shared: searches; exclusive: changes
  bool ready_ = false;
  std::vector<Queued> queued_;  // until ready_
};

}  // namespace orrery::engine
