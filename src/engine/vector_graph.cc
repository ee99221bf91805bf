#include "engine/vector_graph.h"

// hnswlib 0.6.2 prefetches the neighbour after a link list's last one, reading 4 bytes past
// an upper level's list (later versions fixed it). The read only feeds a prefetch hint,
// but AddressSanitizer reports it: sanitizer builds use hnswlib's plain loops instead.
#if defined(__SANITIZE_ADDRESS__)
#define NO_MANUAL_VECTORIZATION
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_MANUAL_VECTORIZATION
#endif
#endif
#include <hnswlib/hnswlib.h>

#include <algorithm>
#include <cmath>

namespace orrery::engine {
namespace {

// hnswlib's defaults, which its authors give as a good trade-off of recall and build
// time: 16 links per node, 200 candidates while inserting.
constexpr size_t kLinksPerNode = 16;
constexpr size_t kInsertCandidates = 200;
constexpr size_t kInitialCapacity = 1024;

}  // namespace

struct VectorGraph::Index {
  Index(query::DistanceFunction distance, size_t dimensions)
      : space(distance == query::DistanceFunction::kEuclidean
                  ? static_cast<hnswlib::SpaceInterface<float>*>(new hnswlib::L2Space(dimensions))
                  : new hnswlib::InnerProductSpace(dimensions)),
        graph(space.get(), kInitialCapacity, kLinksPerNode, kInsertCandidates) {}
  std::unique_ptr<hnswlib::SpaceInterface<float>> space;
  hnswlib::HierarchicalNSW<float> graph;
};

VectorGraph::VectorGraph(query::DistanceFunction distance, size_t dimensions,
                         size_t search_list_size)
    : ApproximateVectorIndex(distance),
      dimensions_(dimensions),
      index_(std::make_unique<Index>(distance, dimensions)) {
  index_->graph.setEf(std::max<size_t>(search_list_size, 10));
}

VectorGraph::~VectorGraph() = default;

// Cosine ranks by the inner product of unit vectors (hnswlib's inner-product space
// measures 1 - a.b); a zero vector has no cosine and is left out.
std::vector<float> VectorGraph::Prepared(std::span<const float> vector) const {
  std::vector<float> out(vector.begin(), vector.end());
  if (distance() != query::DistanceFunction::kCosine) return out;
  double norm = 0;
  for (float v : out) norm += static_cast<double>(v) * v;
  if (norm == 0) return {};
  const double scale = 1 / std::sqrt(norm);
  for (float& v : out) v = static_cast<float>(v * scale);
  return out;
}

void VectorGraph::PutLocked(std::string_view item, std::span<const float> vector) {
  if (vector.size() != dimensions_) return;
  const std::vector<float> point = Prepared(vector);
  if (point.empty()) {
    RemoveLocked(item);
    return;
  }
  auto [it, added] = labels_.try_emplace(std::string(item), items_.size());
  const size_t label = it->second;
  if (added) {
    items_.emplace_back(item);
    live_.push_back(false);
  }
  hnswlib::HierarchicalNSW<float>& graph = index_->graph;
  if (added && graph.cur_element_count >= graph.max_elements_) {
    graph.resizeIndex(graph.max_elements_ * 2);
  }
  // A label seen before is updated in place (and no longer marked deleted).
  graph.addPoint(point.data(), label);
  if (!live_[label]) {
    live_[label] = true;
    ++live_count_;
  }
}

void VectorGraph::RemoveLocked(std::string_view item) {
  auto it = labels_.find(std::string(item));
  if (it == labels_.end() || !live_[it->second]) return;
  index_->graph.markDelete(it->second);
  live_[it->second] = false;
  --live_count_;
}

std::vector<std::pair<float, std::string>> VectorGraph::NearestLocked(std::span<const float> query,
                                                                      size_t count) const {
  if (query.size() != dimensions_) return {};
  const std::vector<float> point = Prepared(query);
  if (point.empty() || live_count_ == 0) return {};
  auto found = index_->graph.searchKnn(point.data(), std::min(count, live_count_));
  return Drain(found, items_);
}

}  // namespace orrery::engine
