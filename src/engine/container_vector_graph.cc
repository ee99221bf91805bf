// The approximate vector indexes of a container (approximate_vector_index.h): one per
// physical partition and diskANN or quantizedFlat vector index, built on this
// container's own thread from the partition's vector-index entries the first time a
// query asks for it, and kept current by every write that changes an entry.

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "common/encoding.h"
#include "common/log.h"
#include "engine/container.h"
#include "engine/quantized_vectors.h"
#include "engine/vector_graph.h"
#include "index/vector_terms.h"
#include "query/vector_policy.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

// A vector-index key: 0x11 | container (4) | partition (4) | 0x05 | vector index (4) | ...
constexpr size_t kPartitionAt = 5;
constexpr size_t kMarkerAt = 9;
constexpr size_t kVectorIndexAt = 10;
constexpr size_t kEntryAt = 14;

// What a diskANN search keeps while walking the graph when the index does not say
// (the service's default indexingSearchListSize).
constexpr size_t kDefaultSearchListSize = 100;

bool IsVectorKey(std::string_view key) {
  return key.size() > kEntryAt && key[kMarkerAt] == index::kVectorMarker;
}

}  // namespace

struct Container::VectorGraphs {
  using Key = std::pair<uint32_t, uint32_t>;  // partition, vector index

  std::mutex mutex;
  std::condition_variable wake;
  std::map<Key, std::shared_ptr<ApproximateVectorIndex>> graphs;
  std::deque<Key> to_build;
  std::atomic<bool> stopping{false};
  std::thread builder;
  std::atomic<bool> any{false};  // a graph exists: writes must keep it
};

std::shared_ptr<Container::VectorGraphs> Container::MakeVectorGraphs(
    const query::VectorPolicy& policy) {
  for (const query::VectorIndexSpec& index : policy.indexes()) {
    if (index.type != query::VectorIndexType::kFlat) return std::make_shared<VectorGraphs>();
  }
  return nullptr;
}

Container::~Container() {
  if (!graphs_) return;
  {
    std::lock_guard lock(graphs_->mutex);
    graphs_->stopping = true;
  }
  graphs_->wake.notify_all();
  if (graphs_->builder.joinable()) graphs_->builder.join();
}

std::shared_ptr<ApproximateVectorIndex> Container::ReadyGraph(uint32_t partition,
                                                              uint32_t vector_index) const {
  if (!graphs_ || vector_index >= vectors_->indexes().size()) return nullptr;
  const query::VectorIndexSpec& spec = vectors_->indexes()[vector_index];
  if (spec.type == query::VectorIndexType::kFlat) return nullptr;
  const query::VectorEmbedding* embedding = vectors_->Find(spec.segments);
  if (embedding == nullptr) return nullptr;
  VectorGraphs& set = *graphs_;
  std::unique_lock lock(set.mutex);
  auto [it, added] = set.graphs.try_emplace(VectorGraphs::Key{partition, vector_index});
  if (!added) return it->second->ready() ? it->second : nullptr;
  // Registered before its entries are read: the writes from now on reach it (queued
  // until the build ends), so none falls between the scan and the graph.
  const auto size = static_cast<size_t>(embedding->dimensions);
  if (spec.type == query::VectorIndexType::kDiskAnn) {
    it->second = std::make_shared<VectorGraph>(
        embedding->distance, size,
        spec.indexing_search_list_size > 0 ? static_cast<size_t>(spec.indexing_search_list_size)
                                           : kDefaultSearchListSize);
  } else {
    it->second = std::make_shared<QuantizedVectors>(embedding->distance, size);
  }
  set.any = true;
  set.to_build.push_back(it->first);
  if (!set.builder.joinable()) {
    set.builder = std::thread([this] {
      VectorGraphs& graphs = *graphs_;
      while (true) {
        std::unique_lock wait(graphs.mutex);
        graphs.wake.wait(wait, [&] { return graphs.stopping || !graphs.to_build.empty(); });
        if (graphs.stopping) return;
        const VectorGraphs::Key key = graphs.to_build.front();
        graphs.to_build.pop_front();
        std::shared_ptr<ApproximateVectorIndex> graph = graphs.graphs[key];
        wait.unlock();
        const query::VectorIndexSpec& index = vectors_->indexes()[key.second];
        const int dimensions = vectors_->Find(index.segments)->dimensions;
        const std::string prefix =
            index::VectorIndexPrefix(settings_.number, key.first, key.second);
        std::string end = prefix;
        end.back() = static_cast<char>(end.back() + 1);
        std::vector<float> vector(static_cast<size_t>(dimensions));
        Status status = store_.Scan(prefix, end, [&](std::string_view k, std::string_view) {
          std::optional<index::VectorEntryView> entry =
              index::ParseVectorEntry(k.substr(prefix.size()), dimensions);
          if (entry) {
            for (size_t i = 0; i < vector.size(); ++i) {
              vector[i] = index::VectorElement(entry->vector, i);
            }
            graph->AddFromScan(storage::keys::ItemSuffix(entry->epk, entry->id), vector);
          }
          return !graphs.stopping.load();
        });
        if (!status.ok()) {
          // Incomplete: dropped, so that the exact scan answers and a later query builds
          // it again.
          Log(LogLevel::kError, "building an approximate vector index of container " +
                                    settings_.id + " failed: " + status.ToString());
          std::lock_guard drop(graphs.mutex);
          graphs.graphs.erase(key);
          continue;
        }
        graph->FinishBuild();
      }
    });
  } else {
    set.wake.notify_one();
  }
  return nullptr;
}

std::optional<size_t> Container::VectorGraphSize(uint32_t partition, uint32_t vector_index) const {
  std::shared_ptr<ApproximateVectorIndex> graph = ReadyGraph(partition, vector_index);
  if (!graph) return std::nullopt;
  return graph->size();
}

void Container::NoteGraphChanges(const std::vector<std::string>& old_keys,
                                 const std::vector<std::string>& new_keys) const {
  if (!graphs_ || !graphs_->any.load()) return;
  const auto graph_of = [&](std::string_view key) -> std::shared_ptr<ApproximateVectorIndex> {
    if (!IsVectorKey(key)) return nullptr;
    const VectorGraphs::Key at{DecodeFixed32BE(key.substr(kPartitionAt, 4)),
                               DecodeFixed32BE(key.substr(kVectorIndexAt, 4))};
    std::lock_guard lock(graphs_->mutex);
    auto it = graphs_->graphs.find(at);
    return it == graphs_->graphs.end() ? nullptr : it->second;
  };
  const auto apply = [&](std::string_view key, bool added) {
    std::shared_ptr<ApproximateVectorIndex> graph = graph_of(key);
    if (!graph) return;
    const uint32_t vector_index = DecodeFixed32BE(key.substr(kVectorIndexAt, 4));
    const query::VectorEmbedding* embedding =
        vectors_->Find(vectors_->indexes()[vector_index].segments);
    if (embedding == nullptr) return;
    std::optional<index::VectorEntryView> entry =
        index::ParseVectorEntry(key.substr(kEntryAt), embedding->dimensions);
    if (!entry) return;
    const std::string item = storage::keys::ItemSuffix(entry->epk, entry->id);
    if (!added) {
      graph->Remove(item);
      return;
    }
    std::vector<float> vector(static_cast<size_t>(embedding->dimensions));
    for (size_t i = 0; i < vector.size(); ++i) vector[i] = index::VectorElement(entry->vector, i);
    graph->Put(item, vector);
  };
  // Both sorted: only the entries that differ between the versions. Removals first: an
  // item's new entry may sort before its old one.
  std::vector<std::string_view> added;
  auto old_it = old_keys.begin();
  auto new_it = new_keys.begin();
  while (old_it != old_keys.end() || new_it != new_keys.end()) {
    if (new_it == new_keys.end() || (old_it != old_keys.end() && *old_it < *new_it)) {
      apply(*old_it++, false);
    } else if (old_it == old_keys.end() || *new_it < *old_it) {
      added.push_back(*new_it++);
    } else {
      ++old_it;
      ++new_it;
    }
  }
  for (std::string_view key : added) apply(key, true);
}

}  // namespace orrery::engine
