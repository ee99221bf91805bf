#pragma once

// What one page of a query works with, shared by the executors of container_query.cc
// (scans, lookups, creation order) and container_query_streams.cc (ORDER BY and group
// streams through the index). Internal to the engine.

#include <chrono>
#include <optional>
#include <vector>

#include "engine/container.h"
#include "engine/index_plan.h"
#include "engine/query_page_budget.h"
#include "index/index_scan.h"

namespace orrery::engine {

struct Container::QueryRun {
  const query::CompiledQuery& query;
  const ReadScope& scope;
  IndexPlan plan;
  FeedPage& page;
  std::vector<query::Row> rows;
  // What the rows may take (query.h): charged across the page when the rows are kept
  // for Finish, per item when they stream.
  query::RowBudget budget;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point deadline = started + QueryPageTimeBudget();
  // An index stream resumes at its `after` position, not after it (an in-position
  // token: the page ended among that position's rows).
  bool resume_at_position = false;

  // Whether items kept out of the index are passed over (query::AccessShape).
  bool skips_unindexed() const { return !query.access_shape().reaches_unindexed_items; }
  bool out_of_time() const { return std::chrono::steady_clock::now() > deadline; }
  // Whether half the page's time is spent: work that gives nothing back unless it runs
  // to its end gives up here, leaving the rest of the time to work that can stop anywhere.
  bool half_time_spent() const {
    return std::chrono::steady_clock::now() > started + (deadline - started) / 2;
  }
};

// Only the members the query reads are converted (CompiledQuery::item_members).
Result<json::Value> ParseForQuery(const query::CompiledQuery& query, std::string_view json);

// The index key ranges of the entries a predicate selects.
std::vector<index::KeyRange> RangesFor(const query::PathPredicate& predicate,
                                       std::string_view prefix);

// How many rows of the result exist at most, counting those OFFSET skips: OFFSET plus
// the least of LIMIT and TOP; nullopt without either.
std::optional<int64_t> ResultRowEnd(const query::CompiledQuery& query);

}  // namespace orrery::engine
