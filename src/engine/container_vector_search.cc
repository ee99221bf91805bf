// ORDER BY VectorDistance served by a vector index (index/vector_terms.h): every entry
// of the scope's partitions is scored from its stored float32 vector, without parsing an
// item, and the items are then read nearest first until the query has the rows it can
// show (WHERE may reject some). `flat`, `quantizedFlat` and `diskANN` indexes are all
// answered this way, exactly.

#include <algorithm>

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

}  // namespace

std::optional<uint32_t> Container::VectorIndexOn(const query::VectorRanking& ranking) const {
  if (!indexing_.enabled() || !write_state_->index_ready.load()) return std::nullopt;
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
  std::vector<std::pair<double, std::string>> candidates;
  for (const PhysicalPartition* partition : PartitionsIn(run.scope)) {
    const std::string prefix =
        index::VectorIndexPrefix(settings_.number, partition->number, vector_index);
    std::string end = prefix;
    end.back() = static_cast<char>(end.back() + 1);  // the next vector index's entries
    ORRERY_RETURN_IF_ERROR(store_.Scan(prefix, end, [&](std::string_view key, std::string_view) {
      ++run.page.index_entries;
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
  const std::optional<int64_t> shown = ResultRowEnd(run.query);
  const size_t wanted = shown ? static_cast<size_t>(*shown) + kExtraCandidates : candidates.size();
  for (const auto& [score, suffix] : candidates) {
    if (run.rows.size() >= wanted) break;
    ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> json, LoadItem(run, suffix));
    if (json && !evaluate(*json)) break;
  }
  return Status::Ok();
}

}  // namespace orrery::engine
