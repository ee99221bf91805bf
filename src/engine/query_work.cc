#include "engine/query_work.h"

namespace orrery::engine {

throughput::QueryWork QueryWorkOf(const FeedPage& page, double base) {
  size_t output_bytes = 0;
  for (const std::string& doc : page.documents) output_bytes += doc.size();
  return throughput::QueryWork{.base = base,
                               .partitions = page.partitions_touched,
                               .loaded_items = page.loaded_count - page.reranked_count,
                               .loaded_bytes = page.loaded_bytes - page.reranked_bytes,
                               .index_terms = page.index_entries - page.vector_entries,
                               .output_bytes = output_bytes,
                               .scanned_vector_kb = page.scanned_vector_kb,
                               .candidate_vector_kb = page.candidate_vector_kb};
}

}  // namespace orrery::engine
