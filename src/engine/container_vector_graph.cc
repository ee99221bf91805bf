// The approximate vector indexes of a container (approximate_vector_index.h): one per
// physical partition and diskANN or quantizedFlat vector index, built on this
// container's own thread from the partition's vector-index entries the first time a
// query asks for it, and kept current by every write that changes an entry.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "common/encoding.h"
#include "common/log.h"
#include "engine/container.h"
#include "engine/product_quantized_vectors.h"
#include "engine/quantized_vectors.h"
#include "engine/vector_graph.h"
#include "index/vector_terms.h"
#include "query/vector_policy.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

// A vector-index key: 0x11 | container (4) | partition (4) | 0x05 | vector index (4) | ...
constexpr size_t kPartitionAt = 5;
constexpr size_t kEntryAt = 14;

// What a diskANN search keeps while walking the graph when the index does not say
// (the service's default indexingSearchListSize).
constexpr size_t kDefaultSearchListSize = 100;

}  // namespace

struct Container::VectorGraphs {
  using Key = std::pair<uint32_t, uint32_t>;  // partition, vector index

  std::mutex mutex;
  std::condition_variable wake;
  std::map<Key, std::shared_ptr<ApproximateVectorIndex>> graphs;
  std::map<Key, GraphOrigin> origins;
  std::deque<std::pair<Key, std::string>> to_build;  // and the files to load it from
  std::atomic<bool> stopping{false};
  std::thread builder;
  std::atomic<bool> any{false};  // a graph exists: writes must keep it
};

namespace {

std::string GraphFilesBase(const std::string& directory, uint32_t container, uint32_t partition,
                           uint32_t vector_index) {
  return directory + "/c" + std::to_string(container) + "-p" + std::to_string(partition) + "-v" +
         std::to_string(vector_index);
}

}  // namespace

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
  std::unique_lock lock(graphs_->mutex);
  auto it = graphs_->graphs.find(VectorGraphs::Key{partition, vector_index});
  if (it != graphs_->graphs.end()) return it->second->ready() ? it->second : nullptr;
  StartGraphBuildLocked(partition, vector_index, "");
  return nullptr;
}

void Container::StartGraphBuildLocked(uint32_t partition, uint32_t vector_index,
                                      std::string load_from) const {
  const query::VectorIndexSpec& spec = vectors_->indexes()[vector_index];
  const query::VectorEmbedding* embedding = vectors_->Find(spec.segments);
  if (embedding == nullptr) return;
  VectorGraphs& set = *graphs_;
  const VectorGraphs::Key key{partition, vector_index};
  // Registered before its entries are read: the writes from now on reach it (queued
  // until the build ends), so none falls between the scan and the graph.
  const auto size = static_cast<size_t>(embedding->dimensions);
  std::shared_ptr<ApproximateVectorIndex>& graph = set.graphs[key];
  if (spec.type == query::VectorIndexType::kDiskAnn) {
    graph = std::make_shared<VectorGraph>(embedding->distance, size,
                                          spec.indexing_search_list_size > 0
                                              ? static_cast<size_t>(spec.indexing_search_list_size)
                                              : kDefaultSearchListSize);
  } else if (const size_t bytes = query::QuantizedVectorBytes(spec, embedding->dimensions);
             bytes < size) {
    graph = std::make_shared<ProductQuantizedVectors>(embedding->distance, size, bytes);
  } else {
    graph = std::make_shared<QuantizedVectors>(embedding->distance, size);
  }
  set.origins[key] = GraphOrigin::kBuilding;
  set.any = true;
  set.to_build.emplace_back(key, std::move(load_from));
  if (!set.builder.joinable()) {
    set.builder = std::thread([this] { BuildVectorGraphs(); });
  } else {
    set.wake.notify_one();
  }
}

void Container::BuildVectorGraphs() const {
  VectorGraphs& graphs = *graphs_;
  while (true) {
    std::unique_lock wait(graphs.mutex);
    graphs.wake.wait(wait, [&] { return graphs.stopping || !graphs.to_build.empty(); });
    if (graphs.stopping) return;
    const auto [key, load_from] = graphs.to_build.front();
    graphs.to_build.pop_front();
    std::shared_ptr<ApproximateVectorIndex> graph = graphs.graphs[key];
    wait.unlock();
    const query::VectorIndexSpec& index = vectors_->indexes()[key.second];
    const std::string type =
        index.type == query::VectorIndexType::kDiskAnn ? "diskANN" : "quantizedFlat";
    if (!load_from.empty()) {
      Status loaded = graph->AddFromFiles(load_from);
      if (loaded.ok()) {
        const std::string calibration = graph->Calibrate();
        Log(LogLevel::kInfo, "loaded the saved " + type + " index of container " + settings_.id +
                                 ", partition " + std::to_string(key.first) + " (" +
                                 std::to_string(graph->size()) + " vectors)" +
                                 (calibration.empty() ? "" : "; " + calibration));
        SetGraphOrigin(key, GraphOrigin::kLoaded);
        graph->FinishBuild();
        continue;
      }
      Log(LogLevel::kWarn, "a saved approximate vector index of container " + settings_.id +
                               " was not loaded, so it is built again: " + loaded.ToString());
    }
    const int dimensions = vectors_->Find(index.segments)->dimensions;
    const std::string prefix = index::VectorIndexPrefix(settings_.number, key.first, key.second);
    std::string end = prefix;
    end.back() = static_cast<char>(end.back() + 1);
    std::vector<float> vector(static_cast<size_t>(dimensions));
    const auto started = std::chrono::steady_clock::now();
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
      Log(LogLevel::kError, "building an approximate vector index of container " + settings_.id +
                                " failed: " + status.ToString());
      std::lock_guard drop(graphs.mutex);
      graphs.graphs.erase(key);
      graphs.origins.erase(key);
      continue;
    }
    if (graphs.stopping) return;
    const std::string calibration = graph->Calibrate();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    Log(LogLevel::kInfo,
        "built the " + type + " index of container " + settings_.id + ", partition " +
            std::to_string(key.first) + " (" + std::to_string(graph->size()) + " vectors) in " +
            std::to_string(seconds) + " s" + (calibration.empty() ? "" : "; " + calibration));
    // Said before the graph is ready, so that whoever sees it ready sees how it was made.
    SetGraphOrigin(key, GraphOrigin::kScanned);
    graph->FinishBuild();
  }
}

void Container::SetGraphOrigin(std::pair<uint32_t, uint32_t> key, GraphOrigin origin) const {
  std::lock_guard lock(graphs_->mutex);
  graphs_->origins[key] = origin;
}

Container::GraphOrigin Container::VectorGraphOrigin(uint32_t partition,
                                                    uint32_t vector_index) const {
  if (!graphs_) return GraphOrigin::kNone;
  std::lock_guard lock(graphs_->mutex);
  auto it = graphs_->origins.find(VectorGraphs::Key{partition, vector_index});
  return it == graphs_->origins.end() ? GraphOrigin::kNone : it->second;
}

Status Container::SaveVectorGraphs(const std::string& directory) const {
  if (!graphs_) return Status::Ok();
  std::vector<std::pair<VectorGraphs::Key, std::shared_ptr<ApproximateVectorIndex>>> ready;
  {
    std::lock_guard lock(graphs_->mutex);
    for (const auto& [key, graph] : graphs_->graphs) {
      if (graph->ready()) {
        ready.emplace_back(key, graph);
      }
    }
  }
  for (const auto& [key, graph] : ready) {
    ORRERY_RETURN_IF_ERROR(
        graph->Save(GraphFilesBase(directory, settings_.number, key.first, key.second)));
  }
  return Status::Ok();
}

void Container::LoadSavedVectorGraphs(const std::string& directory) {
  if (!graphs_) return;
  std::lock_guard lock(graphs_->mutex);
  for (uint32_t v = 0; v < vectors_->indexes().size(); ++v) {
    for (const PhysicalPartition& partition : settings_.partitions.partitions()) {
      const std::string base = GraphFilesBase(directory, settings_.number, partition.number, v);
      std::error_code ec;
      if (!std::filesystem::exists(base + ".items", ec)) continue;
      if (graphs_->graphs.count(VectorGraphs::Key{partition.number, v}) != 0) continue;
      StartGraphBuildLocked(partition.number, v, base);
    }
  }
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
    const std::optional<uint32_t> vector_index = index::VectorIndexOfKey(key);
    if (!vector_index) return nullptr;
    const VectorGraphs::Key at{DecodeFixed32BE(key.substr(kPartitionAt, 4)), *vector_index};
    std::lock_guard lock(graphs_->mutex);
    auto it = graphs_->graphs.find(at);
    return it == graphs_->graphs.end() ? nullptr : it->second;
  };
  const auto apply = [&](std::string_view key, bool added) {
    std::shared_ptr<ApproximateVectorIndex> graph = graph_of(key);
    if (!graph) return;
    const query::VectorEmbedding* embedding =
        vectors_->Find(vectors_->indexes()[*index::VectorIndexOfKey(key)].segments);
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
