#pragma once

// The x-ms-documentdb-query-metrics header (query-language.md §10): what one query
// page did, as `key=value` pairs separated by ';', in the service's order. The SDKs
// read the keys by name (@azure/cosmos QueryMetrics.createFromDelimitedString).

#include <string>

#include "engine/container.h"

namespace orrery::api {

struct QueryPageTimes {
  query::CompileTimings compile;  // parse, bind, access shape
  double function_ms = 0;         // built-in functions, within execution_ms
  double compile_ms = 0;          // the whole compile
  double execution_ms = 0;        // the engine's whole page, index and loads included
  double write_ms = 0;            // serialising the response body
};

std::string QueryMetricsHeader(const engine::FeedPage& page, const QueryPageTimes& times,
                               size_t output_bytes);

}  // namespace orrery::api
