// ORDER BY VectorDistance served by a vector index (index/vector_terms.h): every entry
// of the scope's partitions is scored from its stored float32 vector, without parsing an
// item, and the items are then read nearest first until the query has the rows it can
// show (WHERE may reject some). `flat` indexes are answered this way, exactly; `diskANN`
// and `quantizedFlat` indexes by their approximate index (container_vector_graph.cc)
// once built, for queries that show a bounded number of rows: with a WHERE, from the
// matches among its candidates, or by the exact scan when they are fewer than the rows
// shown.

#include <algorithm>
#include <cmath>

#include "engine/approximate_vector_index.h"
#include "engine/container.h"
#include "engine/query_run.h"
#include "index/vector_terms.h"
#include "query/vector_policy.h"
#include "query/vector_references.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

// Rows read beyond what the query shows: the index scores float32 vectors, the rows
// are ranked again by the exact scores of their items.
constexpr size_t kExtraCandidates = 8;

std::string_view EpkOfItemSuffix(std::string_view suffix) {
  return suffix.substr(0, suffix.find('\0'));
}

// Whether the scope holds every item of the partition, so that the partition's approximate
// index answers for the scope (one logical partition's nearest items may all lie beyond
// the partition's nearest few).
bool CoversPartition(const ReadScope& scope, const PhysicalPartition& partition) {
  if (scope.exact_epk) return false;
  const bool low = scope.range.min <= partition.min_inclusive;
  const bool high = scope.range.max == "FF" ||
                    (partition.max_exclusive != "FF" && partition.max_exclusive <= scope.range.max);
  return low && high;
}

// VectorDistance's score, or an estimate of it, from a distance of
// ApproximateVectorIndex::Nearest (1 - score, or the squared Euclidean distance).
double ScoreOfGraphDistance(query::DistanceFunction distance, float graph_distance) {
  if (distance == query::DistanceFunction::kEuclidean) {
    return std::sqrt(std::max(0.0, static_cast<double>(graph_distance)));
  }
  return 1.0 - static_cast<double>(graph_distance);
}

}  // namespace

std::optional<uint32_t> Container::VectorIndexOn(const query::VectorRanking& ranking) const {
  // Whether the index is ready for the page's view is the caller's (Container::Query).
  if (!indexing_.enabled()) return std::nullopt;
  const std::vector<query::VectorIndexSpec>& indexes = vectors_->indexes();
  for (size_t i = 0; i < indexes.size(); ++i) {
    if (indexes[i].segments == ranking.path) {
      return static_cast<uint32_t>(i);
    }
  }
  return std::nullopt;
}

Status Container::CollectNearest(QueryRun& run, const query::VectorRanking& ranking,
                                 uint32_t vector_index,
                                 const std::function<bool(std::string_view json)>& evaluate) const {
  const query::VectorEmbedding* embedding = vectors_->Find(ranking.path);
  if (embedding == nullptr || ranking.vector.size() != static_cast<size_t>(embedding->dimensions)) {
    return Status::Ok();  // no item's vector has the query vector's length
  }
  const int dimensions = embedding->dimensions;
  const std::optional<int64_t> shown = ResultRowEnd(run.query);
  const size_t wanted = shown ? static_cast<size_t>(*shown) + kExtraCandidates : 0;
  // A diskANN graph or quantizedFlat's quantized vectors answer when the query shows a
  // bounded number of rows, does not ask for brute force and measures as the index does.
  const bool graph_may_answer =
      shown && !ranking.brute_force && ranking.distance == embedding->distance;
  const std::vector<float> query_vector(ranking.vector.begin(), ranking.vector.end());
  const query::VectorIndexSpec& spec = vectors_->indexes()[vector_index];
  const bool quantized = spec.type == query::VectorIndexType::kQuantizedFlat;
  // What the service keeps of a vector (its declared type) and of a quantized one.
  const double vector_kb = dimensions * query::ElementBytes(embedding->data_type) / 1024.0;
  const double quantized_kb =
      static_cast<double>(query::QuantizedVectorBytes(spec, dimensions)) / 1024.0;
  bool approximated = false;
  std::vector<std::pair<double, std::string>> candidates;
  const auto collect = [&](bool use_graphs) -> Status {
    for (const PhysicalPartition* partition : PartitionsIn(run.scope)) {
      if (std::shared_ptr<ApproximateVectorIndex> approximate =
              use_graphs && CoversPartition(run.scope, *partition)
                  ? ReadyGraph(partition->number, vector_index)
                  : nullptr) {
        approximated = true;
        // The graph keeps rows x searchListSizeMultiplier candidates while it searches
        // (and returns them all: their distances are exact); the quantized scan returns
        // rows x quantizedVectorListMultiplier to rank exactly.
        std::vector<std::pair<float, std::string>> found = approximate->Nearest(
            query_vector, wanted * static_cast<size_t>(quantized ? ranking.quantized_list_multiplier
                                                                 : ranking.search_list_multiplier));
        // A graph compares its search list at full precision; the quantized scan reads
        // every quantized vector, then compares its candidates at full precision.
        // (index_entries counts them for the metrics: the graph's list, the quantized
        // vectors as a quarter of a float32 entry each.)
        if (quantized) {
          run.page.scanned_vector_kb += static_cast<double>(approximate->size()) * quantized_kb;
        }
        run.page.candidate_vector_kb += static_cast<double>(found.size()) * vector_kb;
        const size_t entries = quantized ? (approximate->size() + 3) / 4 : found.size();
        run.page.index_entries += entries;
        run.page.vector_entries += entries;
        for (auto& [distance, item] : found) {
          if (!run.scope.Contains(EpkOfItemSuffix(item))) continue;
          candidates.emplace_back(ScoreOfGraphDistance(ranking.distance, distance),
                                  std::move(item));
        }
        continue;
      }
      const std::string prefix =
          index::VectorIndexPrefix(settings_.number, partition->number, vector_index);
      std::string end = prefix;
      end.back() = static_cast<char>(end.back() + 1);  // the next vector index's entries
      ORRERY_RETURN_IF_ERROR(store_.Scan(prefix, end, [&](std::string_view key, std::string_view) {
        run.page.scanned_vector_kb += vector_kb;
        ++run.page.index_entries;
        ++run.page.vector_entries;
        std::optional<index::VectorEntryView> entry =
            index::ParseVectorEntry(key.substr(prefix.size()), dimensions);
        if (!entry || !run.scope.Contains(entry->epk)) return true;
        const std::optional<double> score = query::VectorScore(
            ranking.distance, ranking.vector.size(),
            [&](size_t i) { return index::VectorElement(entry->vector, i); },
            [&](size_t i) { return ranking.vector[i]; });
        if (score) {
          candidates.emplace_back(*score, storage::keys::ItemSuffix(entry->epk, entry->id));
        }
        return true;
      }));
    }
    const bool descending = query::RanksDescending(ranking.distance);
    std::stable_sort(candidates.begin(), candidates.end(), [&](const auto& a, const auto& b) {
      return descending ? a.first > b.first : a.first < b.first;
    });
    return Status::Ok();
  };
  // Reads the candidates' items nearest first until the query has the rows it ranks
  // (several times the rows shown for estimated distances); whether they ran out first.
  const auto read = [&]() -> Result<bool> {
    const size_t rows_wanted =
        !shown ? candidates.size()
               : (approximated && quantized
                      ? wanted * static_cast<size_t>(ranking.quantized_list_multiplier)
                      : wanted);
    const size_t count_before = run.page.loaded_count;
    const size_t bytes_before = run.page.loaded_bytes;
    bool ran_out = true;
    for (const auto& [score, suffix] : candidates) {
      if (run.rows.size() >= rows_wanted) {
        ran_out = false;
        break;
      }
      ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> json, LoadItem(run, suffix));
      if (json && !evaluate(*json)) {
        ran_out = false;
        break;
      }
    }
    if (approximated && quantized && shown) {
      // Beyond the rows shown, the items loaded stand in for the index's full-precision
      // vectors: charged as the candidates above, not as documents.
      const size_t loaded = run.page.loaded_count - count_before;
      const size_t beyond = loaded - std::min(loaded, static_cast<size_t>(*shown));
      run.page.reranked_count += beyond;
      run.page.reranked_bytes +=
          loaded == 0 ? 0 : (run.page.loaded_bytes - bytes_before) * beyond / loaded;
    }
    return ran_out && run.rows.size() < rows_wanted;
  };
  ORRERY_RETURN_IF_ERROR(collect(graph_may_answer));
  ORRERY_ASSIGN_OR_RETURN(const bool ran_out, read());
  if (approximated && ranking.filtered && ran_out &&
      run.rows.size() < static_cast<size_t>(*shown)) {
    // WHERE kept fewer of the approximate candidates than the query shows: the nearest
    // matches may lie beyond them, so the exact scan answers (and both are charged).
    run.rows.clear();
    run.budget = query::RowBudget();
    candidates.clear();
    approximated = false;
    ORRERY_RETURN_IF_ERROR(collect(false));
    ORRERY_RETURN_IF_ERROR(read().status());
  }
  return Status::Ok();
}

}  // namespace orrery::engine
