// How much stack the deepest queries the limits admit need (README, "Budgets"): runs
// each of query/deepest_queries.h on threads with stacks of 1, 2, 4, ... MB and prints
// the smallest that gives the right result without the stack guard answering. Build it
// Release for the server's figure, in build-asan (-DORRERY_BUILD_BENCH=ON) for the
// sanitizers'.
//
//   ./build/bench/orrery_query_stack_bench

#include <cstdio>
#include <vector>

#include "common/stack.h"
#include "json/json.h"
#include "query/deepest_queries.h"
#include "query/query.h"

namespace orrery::query {
namespace {

// Whether `deepest` gives its expected result on a thread with `stack_bytes`.
bool RunsWithin(const DeepestQuery& deepest, size_t stack_bytes) {
  bool right = false;
  RunWithStack(stack_bytes, [&] {
    auto compiled = Compile(deepest.text, {});
    if (!compiled.ok()) return;
    std::vector<Row> rows;
    const json::Value items = *json::Parse(kDeepestQueryItems);
    for (const json::Value& item : items.as_array()) {
      if (!(*compiled)->EvaluateDocument(item, rows).ok()) return;
    }
    auto result = (*compiled)->Finish(std::move(rows));
    if (!result.ok()) return;
    std::string text = "[";
    for (size_t i = 0; i < result->size(); ++i) {
      text += (i > 0 ? "," : "") + json::Write((*result)[i]);
    }
    right = text + "]" == deepest.expected;
  });
  return right;
}

}  // namespace
}  // namespace orrery::query

int main() {
  using orrery::query::DeepestQueries;
  size_t most = 0;
  for (const auto& deepest : DeepestQueries()) {
    size_t megabytes = 1;
    while (megabytes <= 64 && !orrery::query::RunsWithin(deepest, megabytes << 20)) megabytes *= 2;
    most = std::max(most, megabytes);
    std::printf("%-18s needs at most %zu MB of stack\n", deepest.name, megabytes);
  }
  std::printf("deepest admitted query: at most %zu MB; request threads have %zu MB\n", most,
              orrery::kRequestThreadStackBytes >> 20);
  return 0;
}
