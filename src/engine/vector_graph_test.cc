// Approximate vector indexes (approximate_vector_index.h): diskANN's graph
// (vector_graph.h) and quantizedFlat's quantized vectors (quantized_vectors.h). Recall
// against the exact nearest neighbours computed here, writes during and after the
// build, and queries of a container answered by them once built.

#include "engine/vector_graph.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <thread>

#include "engine/account.h"
#include "engine/product_quantized_vectors.h"
#include "engine/quantized_vectors.h"
#include "json/json.h"
#include "query/query.h"

namespace orrery::engine {
namespace {

using query::DistanceFunction;

std::vector<std::vector<float>> RandomVectors(size_t count, size_t dimensions, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> value(-1, 1);
  std::vector<std::vector<float>> out(count, std::vector<float>(dimensions));
  for (auto& v : out) {
    for (float& x : v) x = value(random);
  }
  return out;
}

// Larger is more similar for every function (Euclidean negated).
double Similarity(DistanceFunction f, const std::vector<float>& a, const std::vector<float>& b) {
  double dot = 0, aa = 0, bb = 0, squared = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += double{a[i]} * b[i];
    aa += double{a[i]} * a[i];
    bb += double{b[i]} * b[i];
    squared += (double{a[i]} - b[i]) * (double{a[i]} - b[i]);
  }
  switch (f) {
    case DistanceFunction::kCosine:
      return dot / std::sqrt(aa * bb);
    case DistanceFunction::kDotProduct:
      return dot;
    case DistanceFunction::kEuclidean:
      return -std::sqrt(squared);
  }
  return 0;
}

std::set<std::string> ExactNearest(DistanceFunction f,
                                   const std::map<std::string, std::vector<float>>& items,
                                   const std::vector<float>& query, size_t k) {
  std::vector<std::pair<double, std::string>> scored;
  for (const auto& [name, v] : items) scored.emplace_back(Similarity(f, v, query), name);
  std::sort(scored.begin(), scored.end(), std::greater<>());
  std::set<std::string> out;
  for (size_t i = 0; i < k && i < scored.size(); ++i) out.insert(scored[i].second);
  return out;
}

// Recall@k of `index`, its candidates re-ranked exactly as the engine does: k of them
// from the graph, 4k from the quantized vectors (container_vector_search.cc).
double Recall(const ApproximateVectorIndex& index, size_t rerank, DistanceFunction f,
              const std::map<std::string, std::vector<float>>& items,
              const std::vector<std::vector<float>>& queries, size_t k) {
  size_t hits = 0;
  for (const auto& q : queries) {
    const std::set<std::string> exact = ExactNearest(f, items, q, k);
    std::map<std::string, std::vector<float>> found;
    for (const auto& [distance, name] : index.Nearest(q, k * rerank)) found[name] = items.at(name);
    for (const std::string& name : ExactNearest(f, found, q, k)) hits += exact.count(name);
  }
  return static_cast<double>(hits) / static_cast<double>(queries.size() * k);
}

enum class Kind { kGraph, kQuantized, kProductQuantized };

std::unique_ptr<ApproximateVectorIndex> Make(Kind kind, DistanceFunction f, size_t dimensions) {
  if (kind == Kind::kGraph) return std::make_unique<VectorGraph>(f, dimensions, 100);
  // quantizationByteSize a quarter of the dimensions: runs of 4.
  if (kind == Kind::kProductQuantized) {
    return std::make_unique<ProductQuantizedVectors>(f, dimensions, dimensions / 4);
  }
  return std::make_unique<QuantizedVectors>(f, dimensions);
}

// Candidates re-ranked per row: the graph's own, 4 from one byte per dimension, and from
// product quantization the engine's default for a TOP 10, (10 + 8) x 5 = 90 of 10.
size_t Rerank(Kind kind) {
  switch (kind) {
    case Kind::kGraph:
      return 1;
    case Kind::kQuantized:
      return 4;
    case Kind::kProductQuantized:
      return 9;
  }
  return 1;
}

class ApproximateRecall : public ::testing::TestWithParam<std::tuple<Kind, DistanceFunction>> {};

TEST_P(ApproximateRecall, TopTenAgainstExactNeighboursAfterWritesDuringAndAfterTheBuild) {
  const auto [kind, f] = GetParam();
  const auto vectors = RandomVectors(3000, 24, 1);
  const auto queries = RandomVectors(50, 24, 2);
  const std::unique_ptr<ApproximateVectorIndex> index = Make(kind, f, 24);
  ApproximateVectorIndex& graph = *index;
  const size_t rerank = Rerank(kind);
  std::map<std::string, std::vector<float>> items;
  // The build's scan reads the first 2000; writes during it are queued: 500 new items,
  // and 200 of the scanned ones removed (which the scan had added).
  for (size_t i = 0; i < 2000; ++i) {
    graph.AddFromScan("v" + std::to_string(i), vectors[i]);
    items["v" + std::to_string(i)] = vectors[i];
  }
  for (size_t i = 2000; i < 2500; ++i) {
    graph.Put("v" + std::to_string(i), vectors[i]);
    items["v" + std::to_string(i)] = vectors[i];
  }
  for (size_t i = 0; i < 200; ++i) {
    graph.Remove("v" + std::to_string(i));
    items.erase("v" + std::to_string(i));
  }
  EXPECT_FALSE(graph.ready());
  EXPECT_TRUE(graph.Nearest(queries[0], 10).empty()) << "no answers before the build ends";
  graph.FinishBuild();
  ASSERT_TRUE(graph.ready());
  EXPECT_EQ(graph.size(), items.size());
  EXPECT_GE(Recall(graph, rerank, f, items, queries, 10), 0.95);

  // After the build: more items, removals, and items moved to new vectors.
  for (size_t i = 2500; i < 3000; ++i) {
    graph.Put("v" + std::to_string(i), vectors[i]);
    items["v" + std::to_string(i)] = vectors[i];
  }
  for (size_t i = 200; i < 400; ++i) {
    graph.Remove("v" + std::to_string(i));
    items.erase("v" + std::to_string(i));
  }
  for (size_t i = 400; i < 600; ++i) {
    graph.Put("v" + std::to_string(i), vectors[i + 2000]);
    items["v" + std::to_string(i)] = vectors[i + 2000];
  }
  // A removed item comes back.
  graph.Put("v0", vectors[0]);
  items["v0"] = vectors[0];
  EXPECT_EQ(graph.size(), items.size());
  EXPECT_GE(Recall(graph, rerank, f, items, queries, 10), 0.95);
  for (const auto& q : queries) {
    for (const auto& [distance, name] : graph.Nearest(q, 40)) {
      EXPECT_EQ(items.count(name), 1u) << name << " was removed";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    KindsAndFunctions, ApproximateRecall,
    ::testing::Combine(::testing::Values(Kind::kGraph, Kind::kQuantized, Kind::kProductQuantized),
                       ::testing::Values(DistanceFunction::kCosine, DistanceFunction::kDotProduct,
                                         DistanceFunction::kEuclidean)));

// Recall@10 of TOP 10 searches as the engine asks them: (10 + 8) x 10 candidates,
// re-ranked exactly.
double TopTenRecall(const ApproximateVectorIndex& index, DistanceFunction f,
                    const std::map<std::string, std::vector<float>>& items,
                    const std::vector<std::vector<float>>& queries) {
  return Recall(index, 18, f, items, queries, 10);
}

// Vectors around `centres` random centres, each coordinate within 0.05 of its centre's.
std::vector<std::vector<float>> ClusteredVectors(size_t count, size_t dimensions, size_t centres,
                                                 uint32_t seed) {
  const auto middles = RandomVectors(centres, dimensions, seed);
  std::mt19937 random(seed + 1);
  std::uniform_real_distribution<float> offset(-0.05F, 0.05F);
  std::vector<std::vector<float>> out;
  for (size_t i = 0; i < count; ++i) {
    std::vector<float> v = middles[random() % centres];
    for (float& x : v) x += offset(random);
    out.push_back(std::move(v));
  }
  return out;
}

// Loads what `saved` wrote under `base` into `loaded`, which must then hold `size` items
// and answer 10 random queries of the seed as `saved` does; returns the queries.
std::vector<std::vector<float>> LoadAndCompare(const ApproximateVectorIndex& saved,
                                               ApproximateVectorIndex& loaded,
                                               const std::string& base, size_t size,
                                               unsigned seed) {
  EXPECT_TRUE(loaded.AddFromFiles(base).ok());
  loaded.FinishBuild();
  EXPECT_EQ(loaded.size(), size);
  const auto queries = RandomVectors(10, 20, seed);
  for (const auto& q : queries) EXPECT_EQ(saved.Nearest(q, 30), loaded.Nearest(q, 30));
  return queries;
}

TEST(QuantizedVectorsTest, SavedVectorsLoadWithTheirRangesItemsAndRemovals) {
  const std::string base =
      std::filesystem::temp_directory_path() / ("orrery-quantized-" + std::to_string(::getpid()));
  const auto vectors = RandomVectors(800, 20, 61);
  for (const DistanceFunction f :
       {DistanceFunction::kCosine, DistanceFunction::kDotProduct, DistanceFunction::kEuclidean}) {
    QuantizedVectors saved(f, 20);
    std::map<std::string, std::vector<float>> items;
    for (size_t i = 0; i < 600; ++i) {
      saved.AddFromScan("q" + std::to_string(i), vectors[i]);
      items["q" + std::to_string(i)] = vectors[i];
    }
    saved.FinishBuild();
    for (size_t i = 0; i < 50; ++i) {
      saved.Remove("q" + std::to_string(i));
      items.erase("q" + std::to_string(i));
    }
    ASSERT_TRUE(saved.Save(base).ok());

    QuantizedVectors loaded(f, 20);
    const auto queries = LoadAndCompare(saved, loaded, base, 550, 62);  // bytes and norms
    EXPECT_GE(Recall(loaded, 4, f, items, queries, 10), 0.95);
    // Writes after the load: a removed slot is used again, new items are found.
    for (size_t i = 600; i < 800; ++i) {
      loaded.Put("q" + std::to_string(i), vectors[i]);
      items["q" + std::to_string(i)] = vectors[i];
    }
    EXPECT_EQ(loaded.size(), 750u);
    EXPECT_GE(Recall(loaded, 4, f, items, queries, 10), 0.95);
    // Another index's file is refused.
    QuantizedVectors other(f, 21);
    EXPECT_EQ(other.AddFromFiles(base).code(), StatusCode::kCorruption);
  }
  std::filesystem::remove(base + ".items");
}

// Product quantization keeps quantizationByteSize bytes a vector: over clustered
// vectors of 128 dimensions in 16 bytes (a thirty-second of float32), TOP 10 searches as
// the engine asks them find the exact neighbours.
TEST(ProductQuantizedVectorsTest, SixteenBytesOfClusteredVectorsFindTheirNeighbours) {
  const auto vectors = ClusteredVectors(4000, 128, 40, 71);
  const auto queries = ClusteredVectors(30, 128, 40, 71);  // the same centres
  for (const DistanceFunction f :
       {DistanceFunction::kCosine, DistanceFunction::kDotProduct, DistanceFunction::kEuclidean}) {
    ProductQuantizedVectors index(f, 128, 16);
    std::map<std::string, std::vector<float>> items;
    for (size_t i = 0; i < vectors.size(); ++i) {
      index.AddFromScan("p" + std::to_string(i), vectors[i]);
      items["p" + std::to_string(i)] = vectors[i];
    }
    index.FinishBuild();
    EXPECT_EQ(index.size(), vectors.size());
    EXPECT_GE(TopTenRecall(index, f, items, queries), 0.95);
  }
}

TEST(ProductQuantizedVectorsTest, SavedVectorsLoadWithTheirCodebooksItemsAndRemovals) {
  const std::string base = std::filesystem::temp_directory_path() /
                           ("orrery-product-quantized-" + std::to_string(::getpid()));
  const auto vectors = RandomVectors(800, 20, 81);
  const DistanceFunction f = DistanceFunction::kCosine;
  ProductQuantizedVectors saved(f, 20, 5);
  for (size_t i = 0; i < 600; ++i) saved.AddFromScan("q" + std::to_string(i), vectors[i]);
  saved.FinishBuild();
  for (size_t i = 0; i < 50; ++i) saved.Remove("q" + std::to_string(i));
  ASSERT_TRUE(saved.Save(base).ok());

  ProductQuantizedVectors loaded(f, 20, 5);
  const auto queries = LoadAndCompare(saved, loaded, base, 550, 82);  // codebooks and bytes
  // Writes after the load are encoded with the loaded codebooks, as in the saved index.
  saved.Put("q700", vectors[700]);
  loaded.Put("q700", vectors[700]);
  EXPECT_EQ(saved.Nearest(queries[0], 40), loaded.Nearest(queries[0], 40));
  // Another size of bytes, or one byte per dimension, is another index: refused.
  ProductQuantizedVectors other_size(f, 20, 4);
  EXPECT_EQ(other_size.AddFromFiles(base).code(), StatusCode::kCorruption);
  QuantizedVectors scalar(f, 20);
  EXPECT_EQ(scalar.AddFromFiles(base).code(), StatusCode::kCorruption);
  std::filesystem::remove(base + ".items");
}

TEST(VectorGraphTest, CalibrationMeetsTheRecallTargetOnVectorsWithoutStructure) {
  // Uniform vectors of 256 dimensions: nearest neighbours are barely nearer than the
  // rest, and a graph's default search list misses many of them.
  const size_t n = 6000;
  const auto vectors = RandomVectors(n, 256, 31);
  const auto queries = RandomVectors(30, 256, 32);
  std::map<std::string, std::vector<float>> items;
  VectorGraph plain(DistanceFunction::kCosine, 256, 100);
  VectorGraph calibrated(DistanceFunction::kCosine, 256, 100);
  for (size_t i = 0; i < n; ++i) {
    const std::string name = "v" + std::to_string(i);
    items[name] = vectors[i];
    plain.AddFromScan(name, vectors[i]);
    calibrated.AddFromScan(name, vectors[i]);
  }
  plain.FinishBuild();
  const std::string said = calibrated.Calibrate();
  calibrated.FinishBuild();
  EXPECT_FALSE(said.empty());
  const double before = TopTenRecall(plain, DistanceFunction::kCosine, items, queries);
  const double after = TopTenRecall(calibrated, DistanceFunction::kCosine, items, queries);
  EXPECT_LT(before, 0.95) << "the premise: the default search misses neighbours here";
  EXPECT_GE(after, 0.95) << said;
  // Saved and loaded, the graph keeps its calibration (a load has nothing to measure).
  const std::string base =
      std::filesystem::temp_directory_path() / ("orrery-calibrated-" + std::to_string(::getpid()));
  ASSERT_TRUE(calibrated.Save(base).ok());
  VectorGraph loaded(DistanceFunction::kCosine, 256, 100);
  ASSERT_TRUE(loaded.AddFromFiles(base).ok());
  EXPECT_TRUE(loaded.Calibrate().empty());
  loaded.FinishBuild();
  EXPECT_EQ(TopTenRecall(loaded, DistanceFunction::kCosine, items, queries), after);
  std::filesystem::remove(base + ".graph");
  std::filesystem::remove(base + ".items");
  // Writes after the calibration are found as before.
  calibrated.Put("new", queries[0]);
  items["new"] = queries[0];
  const auto first = calibrated.Nearest(queries[0], 180);
  EXPECT_LE(first.size(), 180u);
  EXPECT_TRUE(
      std::any_of(first.begin(), first.end(), [](const auto& f) { return f.second == "new"; }));
}

TEST(VectorGraphTest, WhenNoListBelowHalfTheGraphWillDoSearchesCompareEveryVector) {
  // A target no list can meet stands for data where none below half the graph does.
  const size_t n = 1000;
  const auto vectors = RandomVectors(n, 64, 51);
  const auto queries = RandomVectors(20, 64, 52);
  std::map<std::string, std::vector<float>> items;
  VectorGraph graph(DistanceFunction::kEuclidean, 64, 100, /*calibration_recall=*/1.01);
  for (size_t i = 0; i < n; ++i) {
    items["v" + std::to_string(i)] = vectors[i];
    graph.AddFromScan("v" + std::to_string(i), vectors[i]);
  }
  const std::string said = graph.Calibrate();
  graph.FinishBuild();
  EXPECT_NE(said.find("compare the query with every vector"), std::string::npos) << said;
  EXPECT_EQ(graph.size(), n);
  // Exact: the nearest 10 of every query, as many as asked, removed items left out.
  EXPECT_EQ(Recall(graph, 1, DistanceFunction::kEuclidean, items, queries, 10), 1.0);
  EXPECT_EQ(graph.Nearest(queries[0], 25).size(), 25u);
  graph.Remove("v7");
  items.erase("v7");
  for (const auto& q : queries) {
    for (const auto& [distance, name] : graph.Nearest(q, 50)) EXPECT_NE(name, "v7");
  }
  EXPECT_EQ(Recall(graph, 1, DistanceFunction::kEuclidean, items, queries, 10), 1.0);
}

TEST(VectorGraphTest, CalibrationKeepsTheDefaultSearchOnClusteredVectors) {
  const size_t n = 6000;
  // The queries lie around the same centres: the last 30, not indexed.
  const auto vectors = ClusteredVectors(n + 30, 64, 40, 41);
  const std::vector<std::vector<float>> queries(vectors.begin() + n, vectors.end());
  std::map<std::string, std::vector<float>> items;
  VectorGraph graph(DistanceFunction::kEuclidean, 64, 100);
  for (size_t i = 0; i < n; ++i) {
    items["v" + std::to_string(i)] = vectors[i];
    graph.AddFromScan("v" + std::to_string(i), vectors[i]);
  }
  const std::string said = graph.Calibrate();
  graph.FinishBuild();
  EXPECT_NE(said.find("at least 180 candidates"), std::string::npos) << said;
  EXPECT_GE(TopTenRecall(graph, DistanceFunction::kEuclidean, items, queries), 0.95);
}

TEST(VectorGraphTest, DistancesAreInTheGraphsSpace) {
  VectorGraph euclidean(DistanceFunction::kEuclidean, 2, 10);
  euclidean.AddFromScan("a", std::vector<float>{3, 4});
  euclidean.FinishBuild();
  auto found = euclidean.Nearest(std::vector<float>{0, 0}, 1);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FLOAT_EQ(found[0].first, 25);  // squared

  VectorGraph cosine(DistanceFunction::kCosine, 2, 10);
  cosine.AddFromScan("a", std::vector<float>{2, 0});
  cosine.AddFromScan("zero", std::vector<float>{0, 0});  // no cosine: left out
  cosine.FinishBuild();
  EXPECT_EQ(cosine.size(), 1u);
  found = cosine.Nearest(std::vector<float>{1, 1}, 5);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NEAR(found[0].first, 1 - std::sqrt(0.5), 1e-6);
}

// Through a container: the graph is built in the background from the stored entries,
// then answers TOP queries reading a few entries instead of all, and follows writes.
class ContainerVectorGraphTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    OpenAccount();
    ASSERT_TRUE(account_->CreateDatabase(*json::Parse(R"({"id":"db"})"), {}).ok());
    auto created = account_->CreateContainer(
        "db",
        *json::Parse(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2},
          "vectorEmbeddingPolicy":{"vectorEmbeddings":[{"path":"/e","dataType":"float32",
            "distanceFunction":"cosine","dimensions":16}]},
          "indexingPolicy":{"indexingMode":"consistent","includedPaths":[{"path":"/*"}],
            "excludedPaths":[{"path":"/e/*"}],
            "vectorIndexes":[{"path":"/e",)" +
                     std::string(GetParam()) + R"(}]}})"),
        ThroughputRequest{12000, std::nullopt});
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  // In memory, or in `directory_` when a test sets it before SetUp.
  void OpenAccount() {
    account_.reset();  // closes (and saves) the one open before
    AccountOptions options;
    options.store.in_memory = directory_.empty();
    options.store.path = directory_;
    options.background_ttl_purge = false;
    options.background_splits = false;
    options.initial_partitions = 2;
    account_ = std::move(Account::Open(options)).value();
  }
  std::shared_ptr<Container> C() { return *account_->GetContainer("db", "c"); }
  // The index is a diskANN graph (the parameter is the index's members after its path).
  bool IsGraph() const { return std::string(GetParam()).find("diskANN") != std::string::npos; }

  void Put(const std::string& id, const std::vector<float>& v) {
    std::string body = R"({"id":")" + id + R"(","pk":")" + id + R"(","e":[)";
    for (size_t i = 0; i < v.size(); ++i) {
      body += (i ? "," : "") + json::Write(json::Value::Double(v[i]));
    }
    body += "]}";
    ItemWriteRequest request;
    request.kind = WriteKind::kUpsert;
    request.partition_key = {partition::PartitionKeyComponent::String(id)};
    request.body = body;
    ASSERT_TRUE(C()->WriteItem(request).ok());
    // The test compares with the float32 the index stores.
    items_[id] = v;
  }
  void Remove(const std::string& id) {
    ASSERT_TRUE(
        C()->DeleteItem({partition::PartitionKeyComponent::String(id)}, id, std::nullopt).ok());
    items_.erase(id);
  }
  bool GraphsReady() {
    for (int attempt = 0; attempt < 1000; ++attempt) {
      bool all = true;
      for (const auto& p : C()->settings().partitions.partitions()) {
        all = all && C()->VectorGraphSize(p.number, 0).has_value();
      }
      if (all) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }
  struct Answer {
    std::vector<std::string> ids;
    size_t index_entries = 0;
    double scanned_vector_kb = 0;
    double candidate_vector_kb = 0;
  };
  Answer Top(size_t k, const std::vector<float>& q, const std::string& extra = "",
             std::optional<ReadScope> scope = std::nullopt) {
    std::string vector = "[";
    for (size_t i = 0; i < q.size(); ++i)
      vector += (i ? "," : "") + json::Write(json::Value::Double(q[i]));
    vector += "]";
    const std::string text = "SELECT TOP " + std::to_string(k) + " VALUE c.id FROM c " + extra +
                             " ORDER BY VectorDistance(c.e, " + vector + ")";
    auto query = query::Compile(text, {}, nullptr, &C()->vector_policy());
    EXPECT_TRUE(query.ok()) << query.status().ToString();
    auto page = C()->Query(**query, scope.value_or(C()->FullScope()), 1000, "");
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    Answer answer;
    for (const std::string& doc : page->documents)
      answer.ids.push_back(json::Parse(doc)->as_string());
    answer.index_entries = page->index_entries;
    answer.scanned_vector_kb = page->scanned_vector_kb;
    answer.candidate_vector_kb = page->candidate_vector_kb;
    return answer;
  }

  std::string directory_;
  std::unique_ptr<Account> account_;
  std::map<std::string, std::vector<float>> items_;
};

TEST_P(ContainerVectorGraphTest, TopQueriesUseTheBuiltIndexAndFollowWrites) {
  const auto vectors = RandomVectors(1500, 16, 5);
  for (size_t i = 0; i < 1000; ++i) Put("i" + std::to_string(i), vectors[i]);
  const auto queries = RandomVectors(20, 16, 6);
  // Before the graph is built the exact scan answers, reading every entry.
  Answer before = Top(10, queries[0]);
  EXPECT_EQ(before.index_entries, items_.size());
  // Charged for the bytes of every float32 vector it scanned, none compared again.
  EXPECT_DOUBLE_EQ(before.scanned_vector_kb, items_.size() * 16 * 4 / 1024.0);
  EXPECT_EQ(before.candidate_vector_kb, 0);
  ASSERT_TRUE(GraphsReady());
  // Writes after the build reach the graph.
  for (size_t i = 1000; i < 1500; ++i) Put("i" + std::to_string(i), vectors[i]);
  for (size_t i = 0; i < 300; ++i) Remove("i" + std::to_string(i));
  size_t hits = 0;
  for (const auto& q : queries) {
    const Answer answer = Top(10, q);
    // The graph reads what it returns; the quantized scan every vector's bytes.
    // (TOP 10 + 8 extra rows, times the default searchListSizeMultiplier 10, in each of
    // the 2 partitions.)
    if (IsGraph()) {
      EXPECT_LE(answer.index_entries, 2u * 18 * 10);
      EXPECT_LT(answer.index_entries, items_.size());
      // Charged for its search lists at full precision, nothing scanned.
      EXPECT_EQ(answer.scanned_vector_kb, 0);
      EXPECT_DOUBLE_EQ(answer.candidate_vector_kb, answer.index_entries * 16 * 4 / 1024.0);
    } else {
      // Every quantized vector (16 bytes, or quantizationByteSize 4), then (10 + 8) x 5
      // candidates a partition at full precision.
      const double bytes = std::string(GetParam()).find("ByteSize") != std::string::npos ? 4 : 16;
      EXPECT_DOUBLE_EQ(answer.scanned_vector_kb, items_.size() * bytes / 1024.0);
      EXPECT_DOUBLE_EQ(answer.candidate_vector_kb, 2 * 18 * 5 * 16 * 4 / 1024.0);
    }
    const std::set<std::string> exact = ExactNearest(DistanceFunction::kCosine, items_, q, 10);
    ASSERT_EQ(answer.ids.size(), 10u);
    for (const std::string& id : answer.ids) {
      EXPECT_EQ(items_.count(id), 1u) << id << " was deleted";
      hits += exact.count(id);
    }
  }
  EXPECT_GE(static_cast<double>(hits) / (10.0 * queries.size()), 0.95);
  // With a WHERE most items pass, the index answers from the matches among its
  // candidates.
  const Answer filtered = Top(5, queries[0], "WHERE c.pk != 'x'");
  if (IsGraph()) {
    EXPECT_LT(filtered.index_entries, items_.size());
  }
  std::set<std::string> exact = ExactNearest(DistanceFunction::kCosine, items_, queries[0], 5);
  EXPECT_EQ(std::set<std::string>(filtered.ids.begin(), filtered.ids.end()), exact);
  // A WHERE about one item in nine: still enough matches among the candidates for a TOP 3.
  std::map<std::string, std::vector<float>> ones;
  for (const auto& [id, v] : items_) {
    if (id.starts_with("i1")) ones[id] = v;
  }
  size_t ones_hits = 0;
  for (const auto& q : queries) {
    const Answer some = Top(3, q, "WHERE STARTSWITH(c.id, 'i1')");
    ASSERT_EQ(some.ids.size(), 3u);
    if (IsGraph()) {
      EXPECT_LT(some.index_entries, items_.size());
    }
    const std::set<std::string> expected = ExactNearest(DistanceFunction::kCosine, ones, q, 3);
    for (const std::string& id : some.ids) {
      EXPECT_TRUE(id.starts_with("i1")) << id;
      ones_hits += expected.count(id);
    }
  }
  EXPECT_GE(static_cast<double>(ones_hits) / (3.0 * queries.size()), 0.9);
  // A WHERE that two items pass, both far from the query's nearest: too few matches
  // among the candidates, so the exact scan answers too, and finds them.
  const Answer rare = Top(5, queries[0], "WHERE c.id IN ('i777', 'i1234')");
  EXPECT_GE(rare.index_entries, items_.size());
  EXPECT_EQ(std::set<std::string>(rare.ids.begin(), rare.ids.end()),
            (std::set<std::string>{"i777", "i1234"}));
  // One logical partition (each item has its own key here): its item, whatever the
  // partition's nearest items are.
  ReadScope logical;
  logical.exact_epk = partition::EffectivePartitionKey(
      C()->settings().partition_key, {partition::PartitionKeyComponent::String("i700")});
  logical.range = EpkRange{*logical.exact_epk, *logical.exact_epk + "\x01"};
  EXPECT_EQ(Top(3, queries[0], "", logical).ids, std::vector<std::string>{"i700"});
}

// diskANN, quantizedFlat with one byte per dimension, and with quantizationByteSize 4
// for the 16 dimensions (product quantization).
constexpr const char* kIndexKinds[] = {R"("type":"diskANN")", R"("type":"quantizedFlat")",
                                       R"("type":"quantizedFlat","quantizationByteSize":4)"};

INSTANTIATE_TEST_SUITE_P(IndexTypes, ContainerVectorGraphTest, ::testing::ValuesIn(kIndexKinds));

TEST(VectorGraphTest, ASavedGraphLoadsWithItsItemsAndDeletions) {
  const std::string base =
      std::filesystem::temp_directory_path() /
      ("orrery-graph-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()));
  const auto vectors = RandomVectors(600, 12, 9);
  VectorGraph saved(DistanceFunction::kEuclidean, 12, 100);
  std::map<std::string, std::vector<float>> items;
  for (size_t i = 0; i < vectors.size(); ++i) {
    saved.AddFromScan("k" + std::to_string(i), vectors[i]);
    items["k" + std::to_string(i)] = vectors[i];
  }
  saved.FinishBuild();
  for (size_t i = 0; i < 100; ++i) {
    saved.Remove("k" + std::to_string(i));
    items.erase("k" + std::to_string(i));
  }
  ASSERT_TRUE(saved.Save(base).ok());

  VectorGraph loaded(DistanceFunction::kEuclidean, 12, 100);
  ASSERT_TRUE(loaded.AddFromFiles(base).ok());
  loaded.FinishBuild();
  EXPECT_EQ(loaded.size(), 500u);
  const auto queries = RandomVectors(20, 12, 10);
  for (const auto& q : queries) {
    std::set<std::string> a, b;
    for (const auto& [d, name] : saved.Nearest(q, 10)) a.insert(name);
    for (const auto& [d, name] : loaded.Nearest(q, 10)) b.insert(name);
    EXPECT_EQ(a, b);
    for (const std::string& name : b) EXPECT_EQ(items.count(name), 1u) << name << " was removed";
  }
  EXPECT_GE(Recall(loaded, 1, DistanceFunction::kEuclidean, items, queries, 10), 0.95);
  // Writes after loading reach it.
  loaded.Put("k5", vectors[5]);
  EXPECT_EQ(loaded.size(), 501u);

  // Saved for another index, or a graph file that is not the one saved: refused, and the
  // index stays empty for the build's scan.
  VectorGraph other(DistanceFunction::kEuclidean, 13, 100);
  EXPECT_EQ(other.AddFromFiles(base).code(), StatusCode::kCorruption);
  {
    std::fstream graph(base + ".graph", std::ios::in | std::ios::out | std::ios::binary);
    graph.seekp(200);
    graph.put('\x7f');
  }
  VectorGraph tampered(DistanceFunction::kEuclidean, 12, 100);
  EXPECT_EQ(tampered.AddFromFiles(base).code(), StatusCode::kCorruption);
  tampered.FinishBuild();
  EXPECT_EQ(tampered.size(), 0u);
  std::filesystem::remove(base + ".graph");
  std::filesystem::remove(base + ".items");
}

// On disk: a clean shutdown saves the diskANN graphs, the next start loads them instead
// of building them; a write to the store in between makes the start build them again.
class VectorGraphRestartTest : public ContainerVectorGraphTest {
 protected:
  void SetUp() override {
    directory_ =
        std::filesystem::temp_directory_path() / ("orrery-graphs-" + std::to_string(::getpid()) +
                                                  "-" + std::to_string(std::random_device{}()));
    ContainerVectorGraphTest::SetUp();
  }
  void TearDown() override {
    account_.reset();
    std::filesystem::remove_all(directory_);
  }
  std::vector<Container::GraphOrigin> OriginsOnceReady() {
    EXPECT_TRUE(GraphsReady());
    std::vector<Container::GraphOrigin> out;
    for (const auto& p : C()->settings().partitions.partitions()) {
      out.push_back(C()->VectorGraphOrigin(p.number, 0));
    }
    return out;
  }
  size_t Hits(const std::vector<std::vector<float>>& queries) {
    size_t hits = 0;
    for (const auto& q : queries) {
      const Answer answer = Top(10, q);
      EXPECT_LT(answer.index_entries, items_.size());
      const std::set<std::string> exact = ExactNearest(DistanceFunction::kCosine, items_, q, 10);
      for (const std::string& id : answer.ids) hits += exact.count(id);
    }
    return hits;
  }
};

TEST_P(VectorGraphRestartTest, ACleanShutdownSavesTheGraphsAndTheNextStartLoadsThem) {
  const auto vectors = RandomVectors(1200, 16, 21);
  for (size_t i = 0; i < 1000; ++i) Put("i" + std::to_string(i), vectors[i]);
  Top(10, vectors[0]);  // starts the builds
  const std::vector<Container::GraphOrigin> built = OriginsOnceReady();
  for (const auto origin : built) EXPECT_EQ(origin, Container::GraphOrigin::kScanned);
  for (size_t i = 0; i < 100; ++i) Remove("i" + std::to_string(i));

  OpenAccount();  // the old account closes first, saving
  for (const auto origin : OriginsOnceReady()) EXPECT_EQ(origin, Container::GraphOrigin::kLoaded);
  const auto queries = RandomVectors(20, 16, 22);
  EXPECT_GE(static_cast<double>(Hits(queries)) / (10.0 * queries.size()), 0.95);
  // Writes after the load reach the loaded graph.
  for (size_t i = 1000; i < 1200; ++i) Put("i" + std::to_string(i), vectors[i]);
  for (size_t i = 100; i < 200; ++i) Remove("i" + std::to_string(i));
  EXPECT_GE(static_cast<double>(Hits(queries)) / (10.0 * queries.size()), 0.95);

  // Saved again; then something writes to the store before the next start.
  account_.reset();
  {
    storage::StoreOptions options;
    options.path = directory_;
    auto store = std::move(storage::Store::Open(options)).value();
    storage::WriteBatch batch;
    batch.Put("\x7ftest-write-after-save", "x");
    ASSERT_TRUE(store->Write(batch).ok());
  }
  OpenAccount();
  Top(10, vectors[0]);
  for (const auto origin : OriginsOnceReady()) EXPECT_EQ(origin, Container::GraphOrigin::kScanned);
  EXPECT_GE(static_cast<double>(Hits(queries)) / (10.0 * queries.size()), 0.95);
}

INSTANTIATE_TEST_SUITE_P(IndexTypes, VectorGraphRestartTest, ::testing::ValuesIn(kIndexKinds));

}  // namespace
}  // namespace orrery::engine
