#pragma once

// Results kept between the pages of a query that no index can stream (GROUP BY or
// DISTINCT over expressions, ORDER BY of what no index orders, aggregates without
// GROUP BY, ranked searches). The first page evaluates the query whole; what it did not
// return waits here under an id its continuation names, and each later page is read from
// it instead of evaluating the query again: paging through N rows costs O(N), and every
// page sees the point in time of the first, so no row is returned twice or skipped.
//
// Bounded in bytes (all cursors, and each one) and in idle time, oldest dropped first.
// A page whose cursor is gone (evicted, a restart, another server) evaluates the query
// again and resumes at its offset, as pages did before cursors. A cursor is only served
// to the query it was kept for: ids are random, and each is tied to a fingerprint of the
// query text, its parameters and its scope.

#include <chrono>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace orrery::engine {

class ResultCursors {
 public:
  using Rows = std::vector<std::string>;  // JSON texts, in result order
  // The rows of a result from its row `first` on (those of the first page are not kept).
  struct Kept {
    size_t first = 0;
    Rows rows;
  };
  using TimePoint = std::chrono::steady_clock::time_point;

  struct Limits {
    size_t max_bytes = size_t{64} << 20;
    size_t max_cursor_bytes = size_t{16} << 20;
    std::chrono::seconds idle{300};
  };

  ResultCursors() : ResultCursors(Limits{}) {}
  explicit ResultCursors(Limits limits);

  // Keeps a whole result for `fingerprint`; its id, or 0 when the rows exceed the
  // per-cursor limit (the next page then evaluates the query again).
  uint64_t Keep(uint64_t fingerprint, Kept kept, TimePoint now = std::chrono::steady_clock::now());
  // The rows kept under `id` for `fingerprint`, or null when they are gone or were kept
  // for another query.
  std::shared_ptr<const Kept> Find(uint64_t id, uint64_t fingerprint,
                                   TimePoint now = std::chrono::steady_clock::now());
  // The last page was read: the rows are not needed any more.
  void Release(uint64_t id);

  size_t bytes() const;
  size_t size() const;

 private:
  struct Cursor {
    uint64_t fingerprint = 0;
    std::shared_ptr<const Kept> kept;
    size_t bytes = 0;
    TimePoint last_used;
    std::list<uint64_t>::iterator in_order;  // position in use_order_
  };

  void EvictLocked(TimePoint now, size_t incoming_bytes);
  void EraseLocked(std::unordered_map<uint64_t, Cursor>::iterator it);

  const Limits limits_;
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, Cursor> cursors_;
  std::list<uint64_t> use_order_;  // least recently used first
  size_t bytes_ = 0;
};

}  // namespace orrery::engine
