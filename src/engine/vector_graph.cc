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
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <queue>
#include <utility>

#include "common/encoding.h"

namespace orrery::engine {
namespace {

using Hnsw = hnswlib::HierarchicalNSW<float>;

constexpr std::string_view kItemsMagic = "orrery-vector-graph 2\n";

// hnswlib's defaults, which its authors give as a good trade-off of recall and build
// time: 16 links per node, 200 candidates while inserting.
constexpr size_t kLinksPerNode = 16;
constexpr size_t kInsertCandidates = 200;
constexpr size_t kInitialCapacity = 1024;

// Calibration (vector_graph.h): the candidates a TOP 10 query's search keeps by default
// ((10 + 8) x searchListSizeMultiplier 10), and the samples, as many as the budget of
// distance computations allows (2e9 multiply-adds: a few tenths of a second) between the
// bounds.
constexpr size_t kCalibrationNeighbours = 10;
constexpr size_t kTypicalCandidates = 180;
constexpr double kCalibrationBudget = 2e9;
constexpr size_t kMinCalibrationSamples = 8;
constexpr size_t kMaxCalibrationSamples = 32;

hnswlib::SpaceInterface<float>* NewSpace(query::DistanceFunction distance, size_t dimensions) {
  if (distance == query::DistanceFunction::kEuclidean) return new hnswlib::L2Space(dimensions);
  return new hnswlib::InnerProductSpace(dimensions);
}

// FNV-1a over a file: what the items file says the graph file held when it was saved.
std::optional<uint64_t> FileHash(const std::string& path, uint64_t& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  uint64_t hash = 0xcbf29ce484222325ull;
  bytes = 0;
  std::vector<char> buffer(size_t{1} << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto got = static_cast<size_t>(in.gcount());
    for (size_t i = 0; i < got; ++i) {
      hash = (hash ^ static_cast<uint8_t>(buffer[i])) * 0x100000001b3ull;
    }
    bytes += got;
  }
  return hash;
}

Status WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return Status::IoError("cannot write " + path);
  return Status::Ok();
}

Status Rename(const std::string& from, const std::string& to) {
  std::error_code ec;
  std::filesystem::rename(from, to, ec);
  if (ec) return Status::IoError("cannot rename " + from + " to " + to + ": " + ec.message());
  return Status::Ok();
}

}  // namespace

struct VectorGraph::Index {
  Index(query::DistanceFunction distance, size_t dimensions)
      : space(NewSpace(distance, dimensions)),
        graph(std::make_unique<Hnsw>(space.get(), kInitialCapacity, kLinksPerNode,
                                     kInsertCandidates)) {}
  std::unique_ptr<hnswlib::SpaceInterface<float>> space;
  std::unique_ptr<Hnsw> graph;
};

VectorGraph::VectorGraph(query::DistanceFunction distance, size_t dimensions,
                         size_t search_list_size, double calibration_recall)
    : ApproximateVectorIndex(distance),
      dimensions_(dimensions),
      search_list_size_(std::max<size_t>(search_list_size, 10)),
      calibration_recall_(calibration_recall),
      index_(std::make_unique<Index>(distance, dimensions)) {
  index_->graph->setEf(search_list_size_);
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
  std::vector<float> point = Prepared(vector);
  if (point.empty()) {
    RemoveLocked(item);
    return;
  }
  if (scanning_) {
    // Reservoir sampling: each scanned vector is held out with the same chance.
    ++scanned_;
    if (held_out_.size() < kMaxCalibrationSamples) {
      held_out_.emplace_back(std::string(item), std::move(point));
      return;
    }
    draw_state_ = draw_state_ * 6364136223846793005ull + 1442695040888963407ull;
    const size_t slot = static_cast<size_t>((draw_state_ >> 33) % scanned_);
    if (slot < held_out_.size()) {
      std::swap(held_out_[slot].second, point);
      std::string out = std::exchange(held_out_[slot].first, std::string(item));
      Insert(out, point);
      return;
    }
  }
  Insert(item, point);
}

void VectorGraph::InsertHeldOut() {
  scanning_ = false;
  for (const auto& [item, point] : held_out_) Insert(item, point);
  held_out_.clear();
  held_out_.shrink_to_fit();
}

void VectorGraph::Insert(std::string_view item, const std::vector<float>& point) {
  auto [it, added] = labels_.try_emplace(std::string(item), items_.size());
  const size_t label = it->second;
  if (added) {
    items_.emplace_back(item);
    live_.push_back(false);
  }
  Hnsw& graph = *index_->graph;
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
  index_->graph->markDelete(it->second);
  live_[it->second] = false;
  --live_count_;
}

std::vector<std::pair<float, std::string>> VectorGraph::NearestLocked(std::span<const float> query,
                                                                      size_t count) const {
  if (query.size() != dimensions_) return {};
  const std::vector<float> point = Prepared(query);
  if (point.empty() || live_count_ == 0) return {};
  if (exhaustive_) return NearestExhaustively(point.data(), count);
  auto found = index_->graph->searchKnn(point.data(),
                                        std::min(std::max(count, min_candidates_), live_count_));
  while (found.size() > count) found.pop();  // the farthest first
  return Drain(found, items_);
}

// The `count` live labels nearest to `point`, compared with every vector: a max-heap of
// (distance, label), the farthest on top.
std::priority_queue<std::pair<float, size_t>> VectorGraph::ExactNearestLabels(const float* point,
                                                                              size_t count) const {
  const Hnsw& graph = *index_->graph;
  std::priority_queue<std::pair<float, size_t>> nearest;
  for (size_t id = 0; id < graph.cur_element_count; ++id) {
    const auto internal = static_cast<hnswlib::tableint>(id);
    if (graph.isMarkedDeleted(internal)) continue;
    const float distance =
        graph.fstdistfunc_(point, graph.getDataByInternalId(internal), graph.dist_func_param_);
    if (nearest.size() < count) {
      nearest.emplace(distance, graph.getExternalLabel(internal));
    } else if (count > 0 && distance < nearest.top().first) {
      nearest.pop();
      nearest.emplace(distance, graph.getExternalLabel(internal));
    }
  }
  return nearest;
}

std::vector<std::pair<float, std::string>> VectorGraph::NearestExhaustively(const float* point,
                                                                            size_t count) const {
  auto nearest = ExactNearestLabels(point, count);
  return Drain(nearest, items_);
}

double VectorGraph::SampleRecall(size_t samples, const std::vector<std::vector<size_t>>& truth,
                                 size_t candidates) const {
  const Hnsw& graph = *index_->graph;
  size_t found = 0;
  size_t wanted = 0;
  for (size_t i = 0; i < samples; ++i) {
    auto result = graph.searchKnn(held_out_[i].second.data(), candidates);
    std::vector<size_t> labels;
    for (; !result.empty(); result.pop()) labels.push_back(result.top().second);
    for (size_t label : truth[i]) {
      found += std::find(labels.begin(), labels.end(), label) != labels.end() ? 1 : 0;
    }
    wanted += truth[i].size();
  }
  return wanted == 0 ? 1 : static_cast<double>(found) / static_cast<double>(wanted);
}

std::string VectorGraph::CalibrateUnlocked() {
  // A loaded graph keeps the outcome saved with it.
  if (held_out_.empty()) {
    scanning_ = false;
    return {};
  }
  min_candidates_ = 0;
  exhaustive_ = false;
  const struct JoinAfter {
    VectorGraph& graph;
    ~JoinAfter() { graph.InsertHeldOut(); }
  } join_after{*this};
  const size_t n = live_count_;
  // A default search already keeps about every vector of a graph this small.
  if (n <= kTypicalCandidates) return {};
  const auto affordable = static_cast<size_t>(
      kCalibrationBudget / (static_cast<double>(n) * static_cast<double>(dimensions_)));
  const size_t samples = std::min(
      held_out_.size(), std::clamp(affordable, kMinCalibrationSamples, kMaxCalibrationSamples));
  std::vector<std::vector<size_t>> truth;
  for (size_t i = 0; i < samples; ++i) {
    auto nearest = ExactNearestLabels(held_out_[i].second.data(), kCalibrationNeighbours);
    truth.emplace_back();
    for (; !nearest.empty(); nearest.pop()) truth.back().push_back(nearest.top().second);
  }
  double recall = 0;
  for (size_t candidates = kTypicalCandidates; candidates < n / 2; candidates *= 2) {
    recall = SampleRecall(samples, truth, candidates);
    if (recall >= calibration_recall_) {
      if (candidates > kTypicalCandidates) min_candidates_ = candidates;
      return "searches keep at least " + std::to_string(candidates) + " candidates (they found " +
             std::to_string(recall) + " of the 10 nearest neighbours of " +
             std::to_string(samples) + " held-out vectors)";
    }
  }
  exhaustive_ = true;
  return "searches compare the query with every vector: lists of up to half the graph found " +
         std::to_string(recall) + " of the 10 nearest neighbours of " + std::to_string(samples) +
         " held-out vectors";
}

// The items file: the magic line, dimensions (4), distance (1), the graph file's size
// and hash (8 each), the calibration's fewest candidates (8) and whether searches compare
// every vector (1), the label count (8), then per label its liveness (1) and item
// (length 4, bytes). Both files are written beside their final names and renamed, the
// graph first: a reader never takes half a file for a whole one.
Status VectorGraph::SaveLocked(const std::string& base) const {
  const std::string graph_path = base + ".graph";
  const std::string items_path = base + ".items";
  try {
    index_->graph->saveIndex(graph_path + ".tmp");
  } catch (const std::exception& e) {
    return Status::IoError("cannot write " + graph_path + ".tmp: " + e.what());
  }
  uint64_t graph_bytes = 0;
  const std::optional<uint64_t> hash = FileHash(graph_path + ".tmp", graph_bytes);
  if (!hash) return Status::IoError("cannot read back " + graph_path + ".tmp");
  std::string items(kItemsMagic);
  AppendFixed32BE(items, static_cast<uint32_t>(dimensions_));
  items += static_cast<char>(distance());
  AppendFixed64BE(items, graph_bytes);
  AppendFixed64BE(items, *hash);
  AppendFixed64BE(items, min_candidates_);
  items += exhaustive_ ? '\1' : '\0';
  AppendFixed64BE(items, items_.size());
  for (size_t label = 0; label < items_.size(); ++label) {
    items += live_[label] ? '\1' : '\0';
    AppendFixed32BE(items, static_cast<uint32_t>(items_[label].size()));
    items += items_[label];
  }
  ORRERY_RETURN_IF_ERROR(WriteFile(items_path + ".tmp", items));
  ORRERY_RETURN_IF_ERROR(Rename(graph_path + ".tmp", graph_path));
  return Rename(items_path + ".tmp", items_path);
}

Status VectorGraph::LoadLocked(const std::string& base) {
  const std::string graph_path = base + ".graph";
  const std::string items_path = base + ".items";
  std::ifstream in(items_path, std::ios::binary);
  if (!in) return Status::IoError("cannot read " + items_path);
  const std::string items((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto malformed = [&] { return Status::Corruption(items_path + " is malformed"); };
  constexpr size_t kHeader = 4 + 1 + 8 + 8 + 8 + 1 + 8;
  if (items.size() < kItemsMagic.size() + kHeader || !items.starts_with(kItemsMagic)) {
    return malformed();
  }
  std::string_view rest = std::string_view(items).substr(kItemsMagic.size());
  const uint32_t dimensions = DecodeFixed32BE(rest);
  const auto saved_distance = static_cast<uint8_t>(rest[4]);
  const uint64_t graph_bytes = DecodeFixed64BE(rest.substr(5));
  const uint64_t graph_hash = DecodeFixed64BE(rest.substr(13));
  const uint64_t min_candidates = DecodeFixed64BE(rest.substr(21));
  const bool exhaustive = rest[29] != 0;
  const uint64_t count = DecodeFixed64BE(rest.substr(30));
  rest.remove_prefix(kHeader);
  if (dimensions != dimensions_ || saved_distance != static_cast<uint8_t>(distance())) {
    return Status::Corruption(items_path + " was saved for another vector index");
  }
  std::unordered_map<std::string, size_t> labels;
  std::vector<std::string> names;
  std::vector<bool> live;
  size_t live_count = 0;
  for (uint64_t label = 0; label < count; ++label) {
    if (rest.size() < 5) return malformed();
    const bool is_live = rest[0] != 0;
    const uint32_t length = DecodeFixed32BE(rest.substr(1));
    if (rest.size() < 5 + static_cast<size_t>(length)) return malformed();
    names.emplace_back(rest.substr(5, length));
    rest.remove_prefix(5 + length);
    if (!labels.emplace(names.back(), label).second) return malformed();
    live.push_back(is_live);
    live_count += is_live ? 1 : 0;
  }
  if (!rest.empty()) return malformed();
  uint64_t bytes = 0;
  const std::optional<uint64_t> hash = FileHash(graph_path, bytes);
  if (!hash || bytes != graph_bytes || *hash != graph_hash) {
    return Status::Corruption(graph_path + " is not the graph " + items_path + " was saved with");
  }
  auto index = std::make_unique<Index>(distance(), dimensions_);
  // hnswlib's loading constructor leaves members its loader does not set uninitialized:
  // start from an empty graph's values, then load over them.
  auto graph = std::make_unique<Hnsw>(index->space.get());
  graph->num_deleted_ = 0;
  graph->cur_element_count = 0;
  graph->data_level0_memory_ = nullptr;
  graph->linkLists_ = nullptr;
  graph->visited_list_pool_ = nullptr;
  try {
    graph->loadIndex(graph_path, index->space.get(), 0);
  } catch (const std::exception& e) {
    // The hash matched, so only an allocation failed; what hnswlib allocated is left
    // rather than freed through a graph it did not finish.
    (void)graph.release();
    return Status::IoError("cannot load " + graph_path + ": " + e.what());
  }
  if (graph->cur_element_count != count) {
    return Status::Corruption(graph_path + " holds another number of vectors than " + items_path);
  }
  graph->setEf(search_list_size_);
  index->graph = std::move(graph);
  index_ = std::move(index);
  labels_ = std::move(labels);
  items_ = std::move(names);
  live_ = std::move(live);
  live_count_ = live_count;
  min_candidates_ = static_cast<size_t>(min_candidates);
  exhaustive_ = exhaustive;
  scanning_ = false;
  return Status::Ok();
}

}  // namespace orrery::engine
