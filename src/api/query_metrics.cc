#include "api/query_metrics.h"

#include <algorithm>
#include <cstdio>

namespace orrery::api {
namespace {

void AppendMillis(std::string& out, const char* key, double ms) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%s=%.2f;", key, std::max(0.0, ms));
  out += buffer;
}

void AppendCount(std::string& out, const char* key, size_t n) {
  out += key;
  out += '=';
  out += std::to_string(n);
  out += ';';
}

}  // namespace

std::string QueryMetricsHeader(const engine::FeedPage& page, const QueryPageTimes& times,
                               size_t output_bytes) {
  const size_t output_count = page.documents.size();
  // The share of the loaded items that made it into the result; 1 when nothing had to
  // be loaded (an answer from the index, or an empty one).
  const double utilization = page.loaded_count == 0
                                 ? 1.0
                                 : std::min(1.0, static_cast<double>(output_count) /
                                                     static_cast<double>(page.loaded_count));
  // What the engine did besides index lookups and loads is evaluation.
  const double vm_ms =
      times.execution_ms - page.plan_ms - page.index_lookup_ms - page.document_load_ms;
  std::string out;
  out.reserve(512);
  AppendMillis(out, "totalExecutionTimeInMs",
               times.compile_ms + times.execution_ms + times.write_ms);
  AppendMillis(out, "queryCompileTimeInMs", times.compile.parse_ms);
  AppendMillis(out, "queryLogicalPlanBuildTimeInMs", times.compile.bind_ms);
  AppendMillis(out, "queryPhysicalPlanBuildTimeInMs", page.plan_ms);
  AppendMillis(out, "queryOptimizationTimeInMs", times.compile.shape_ms);
  AppendMillis(out, "indexLookupTimeInMs", page.index_lookup_ms);
  AppendMillis(out, "documentLoadTimeInMs", page.document_load_ms);
  AppendMillis(out, "VMExecutionTimeInMs", vm_ms);
  AppendMillis(out, "systemFunctionExecuteTimeInMs", times.function_ms);
  // Orrery runs no user-defined functions (they are refused), so they take no time.
  AppendMillis(out, "userFunctionExecuteTimeInMs", 0);
  AppendCount(out, "retrievedDocumentCount", page.loaded_count);
  AppendCount(out, "retrievedDocumentSize", page.loaded_bytes);
  AppendCount(out, "outputDocumentCount", output_count);
  AppendCount(out, "outputDocumentSize", output_bytes);
  AppendMillis(out, "writeOutputTimeInMs", times.write_ms);
  char ratio[48];
  std::snprintf(ratio, sizeof ratio, "indexUtilizationRatio=%.2f", utilization);
  out += ratio;
  return out;
}

}  // namespace orrery::api
