#pragma once

// The query language front door: compile a query text with its parameters once, then
// evaluate it document by document and finish the result set.
// This seam is what the engine uses; the lexer, parser, AST and evaluator behind it
// are internal to src/query/.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "json/value.h"
#include "query/access_path.h"
#include "spatial/geojson.h"

namespace orrery::script {
class UserFunction;
}  // namespace orrery::script

namespace orrery::query {

class ComputedProperties;        // computed_properties.h
class VectorPolicy;              // vector_policy.h
class FullTextPolicy;            // full_text_policy.h
struct VectorRanking;            // vector_references.h
struct FullTextRanking;          // full_text_ranking.h
struct FullTextStatisticsQuery;  // full_text_statistics.h

struct Parameter {
  std::string name;  // with the leading '@'
  json::Value value;
};

// One output row of one document, with the values of its ORDER BY keys.
struct Row {
  json::Value value;
  std::vector<json::Value> sort_keys;
};

// What evaluating one page of a query may take, so that no query can take the server's
// memory or stall it on one item (README, "Budgets"). A page charges every row it
// holds: the rows one item yields (JOINs multiply them; a subquery's rows count while
// it runs) may take kMaxItemRowBytes, and the rows a page holds across items (to sort,
// group, de-duplicate or skip them) kMaxPageRowBytes; one item may be bound at most
// kMaxItemBindings times (each combination of its JOINs, in subqueries too). Beyond
// any of them evaluation stops with a 400 that names the limit.
inline constexpr size_t kMaxItemRowBytes = size_t{64} << 20;
inline constexpr size_t kMaxPageRowBytes = size_t{1} << 30;
inline constexpr size_t kMaxItemBindings = size_t{1} << 24;
// One value an expression builds (an array or object literal, a concatenation, a
// function's result) may take kMaxItemRowBytes too: `[c, c, c, ...]` copies the item
// once per reference, and would otherwise multiply a 2 MB item by the length of the
// query text.
inline constexpr size_t kMaxBuiltValueBytes = kMaxItemRowBytes;

class RowBudget {
 public:
  // Starts the budget of the next item; what the page holds stays charged.
  void StartItem() {
    item_bytes_ = 0;
    item_bindings_ = 0;
  }
  // Charges a row of `bytes`; false once a limit is passed.
  bool ChargeRow(size_t bytes);
  // Charges one binding of the item's sources; false once a limit is passed.
  bool ChargeBinding();
  // Gives back what a finished subquery held.
  void Refund(size_t bytes);
  bool exceeded() const { return exceeded_ != Exceeded::kNone; }
  // The 400 for the limit that was passed. REQUIRES: exceeded().
  Status Error() const;

 private:
  enum class Exceeded : uint8_t { kNone, kItemRows, kPageRows, kItemBindings };
  size_t item_bytes_ = 0;
  size_t page_bytes_ = 0;
  size_t item_bindings_ = 0;
  Exceeded exceeded_ = Exceeded::kNone;
};

// Where compiling took its time (query metrics: queryCompileTimeInMs,
// queryLogicalPlanBuildTimeInMs, queryOptimizationTimeInMs).
struct CompileTimings {
  double parse_ms = 0;  // text to syntax tree
  double bind_ms = 0;   // names, parameters and computed properties resolved
  double shape_ms = 0;  // what an index can serve (access_path.h) and the members read
};

// Measures the time built-in functions take on this thread (query metrics:
// systemFunctionExecuteTimeInMs) from Start to Stop, which returns it. Off otherwise:
// a query without metrics pays nothing but a flag test per call.
void StartFunctionTiming();
double StopFunctionTiming();

// Immutable once compiled; safe to use from several threads.
class CompiledQuery {
 public:
  virtual ~CompiledQuery() = default;

  // Appends the rows `document` produces (none if it fails WHERE; several with JOIN
  // or FROM x IN), charging them to `budget` (after budget.StartItem()).
  // Errors: BadRequest for run-time errors the service reports, and for rows beyond
  // the budget.
  virtual Status EvaluateDocument(const json::Value& document, std::vector<Row>& out,
                                  RowBudget& budget) const = 0;
  // The same with a budget for this one item.
  Status EvaluateDocument(const json::Value& document, std::vector<Row>& out) const {
    RowBudget budget;
    return EvaluateDocument(document, out, budget);
  }

  // Whether the final result needs every row before the first can be returned
  // (ORDER BY, aggregates, GROUP BY, DISTINCT, OFFSET/LIMIT). Otherwise rows may be
  // streamed in storage order and only TOP applies.
  virtual bool needs_full_result() const = 0;
  virtual std::optional<int64_t> top() const = 0;
  // Whether the result keeps the rows' storage order (no ORDER BY, aggregate, GROUP BY
  // or DISTINCT): then the first n rows give the first results, and a scan for OFFSET
  // and LIMIT may stop once it has enough.
  virtual bool keeps_row_order() const = 0;
  // OFFSET and LIMIT (both or neither).
  virtual std::optional<int64_t> offset() const = 0;
  virtual std::optional<int64_t> limit() const = 0;

  // False for a query without FROM (`SELECT VALUE 1 + 2`): it reads no items. Call
  // EvaluateDocument exactly once, with any document (an undefined Value will do), and
  // Finish its rows; the result is the same whatever the container holds.
  virtual bool reads_items() const = 0;

  // Turns all rows of the scope into the final result: sorts by the ORDER BY keys,
  // groups and aggregates, de-duplicates, applies OFFSET/LIMIT and TOP.
  virtual Result<std::vector<json::Value>> Finish(std::vector<Row> rows) const = 0;
  // The same without OFFSET, LIMIT and TOP: the result of one group of a stream of
  // groups (AccessShape::grouped_by), which the caller pages itself.
  virtual Result<std::vector<json::Value>> FinishUnpaged(std::vector<Row> rows) const = 0;

  // What an index can serve of this query (access_path.h).
  virtual const AccessShape& access_shape() const = 0;

  virtual const CompileTimings& compile_timings() const = 0;

  // ORDER BY RANK with FullTextScore (rank_plan.h): the statistics query to run over
  // the whole container first (nullptr when none is needed), and its summed row, which
  // completes the query. Until then the full-text scores are undefined.
  virtual const std::string* rank_statistics_query() const = 0;
  // Whether the query is ranked by a score (VectorDistance, ORDER BY RANK, a hybrid
  // plan's per-range query): its TOP rows come in one page, as the service sends them
  // (the SDKs' hybrid pipelines read one page per range).
  virtual bool ranks_by_score() const = 0;
  // ORDER BY VectorDistance that a vector index can serve (vector_references.h), or null.
  virtual const VectorRanking* vector_ranking() const = 0;
  // A ranking by one BM25 score with its statistics (full_text_ranking.h), or null.
  virtual const FullTextRanking* full_text_ranking() const = 0;
  virtual Status SetRankStatistics(const json::Value& statistics) = 0;
  // The query is a FullTextScore ranking's statistics query (full_text_statistics.h),
  // or null.
  virtual const FullTextStatisticsQuery* full_text_statistics() const = 0;

  // The top-level members of an item the query reads (sorted), or nullptr when it may
  // read the whole item: EvaluateDocument gives the same rows for a document holding
  // only these members (field_usage.h).
  virtual const std::vector<std::string>* item_members() const = 0;

  // Tells this query (its text and parameters) from others: the results kept between
  // its pages (engine/result_cursors.h) are served only to the same query.
  virtual uint64_t fingerprint() const = 0;
};

// Parses and binds. Errors: BadRequest with the service's error shape in the message
// and the position of the problem.
Result<std::unique_ptr<CompiledQuery>> Compile(std::string_view text,
                                               std::vector<Parameter> parameters);
// The same over a container with computed properties: `c.<name>` reads the computed
// value (computed_references.h). The query keeps `computed` alive.
// `vectors` (may be null) resolves what VectorDistance calls leave unsaid
// (vector_references.h), `full_text` (may be null) the language of the paths full-text
// functions search (full_text_references.h); neither need outlive the call. `spatial`:
// the container's geospatialConfig type; in a geometry container the ST_ functions
// measure in the plane (geometry_references.h).
// `udfs` (may be null): the container's user-defined functions, which udf.<name> calls
// run; a call of one it lacks is an error. Without them (null) such calls compile and
// give undefined: what a query plan needs.
using UserFunctions =
    std::map<std::string, std::shared_ptr<const script::UserFunction>, std::less<>>;
Result<std::unique_ptr<CompiledQuery>> Compile(
    std::string_view text, std::vector<Parameter> parameters,
    std::shared_ptr<const ComputedProperties> computed, const VectorPolicy* vectors = nullptr,
    const FullTextPolicy* full_text = nullptr,
    spatial::CoordinateSystem spatial = spatial::CoordinateSystem::kGeography,
    const UserFunctions* udfs = nullptr);

}  // namespace orrery::query
