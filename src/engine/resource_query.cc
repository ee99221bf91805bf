#include "engine/resource_query.h"

#include "common/encoding.h"
#include "json/json.h"

namespace orrery::engine {

Result<FeedPage> QueryResources(const query::CompiledQuery* query,
                                const std::vector<json::Value>& resources, int max_items,
                                std::string_view continuation) {
  size_t start = 0;
  if (!continuation.empty()) {
    std::optional<std::string> raw = Base64Decode(continuation);
    if (!raw || raw->size() < 2 || (*raw)[0] != 'R' ||
        raw->find_first_not_of("0123456789", 1) != std::string::npos || raw->size() > 12) {
      return Status::BadRequest("Invalid Continuation Token");
    }
    start = std::stoul(raw->substr(1));
  }
  std::vector<json::Value> result;
  if (query == nullptr) {
    result = resources;
  } else {
    std::vector<query::Row> rows;
    if (!query->reads_items()) {
      ORRERY_RETURN_IF_ERROR(query->EvaluateDocument(json::Value(), rows));
    }
    for (size_t i = 0; query->reads_items() && i < resources.size(); ++i) {
      ORRERY_RETURN_IF_ERROR(query->EvaluateDocument(resources[i], rows));
    }
    ORRERY_ASSIGN_OR_RETURN(result, query->Finish(std::move(rows)));
  }
  FeedPage page;
  page.loaded_count = resources.size();
  size_t end = std::min(result.size(), start + static_cast<size_t>(max_items));
  for (size_t i = start; i < end; ++i) {
    page.documents.push_back(json::Write(result[i]));
  }
  if (end < result.size()) {
    page.continuation = Base64Encode("R" + std::to_string(end));
  }
  return page;
}

}  // namespace orrery::engine
