// The store of query results kept between pages: found only by the query they were kept
// for, dropped when read to the end, when idle, and oldest first beyond the byte limit.

#include "engine/result_cursors.h"

#include <gtest/gtest.h>

namespace orrery::engine {
namespace {

using std::chrono::seconds;

ResultCursors::Kept RowsOf(size_t first, size_t count, size_t row_bytes = 10) {
  ResultCursors::Kept kept;
  kept.first = first;
  for (size_t i = 0; i < count; ++i) kept.rows.push_back(std::string(row_bytes, 'a' + (i % 26)));
  return kept;
}

TEST(ResultCursorsTest, KeptRowsAreFoundByTheirQueryOnly) {
  ResultCursors cursors;
  const auto now = std::chrono::steady_clock::now();
  const uint64_t id = cursors.Keep(42, RowsOf(5, 3), now);
  ASSERT_NE(id, 0u);
  auto kept = cursors.Find(id, 42, now);
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(kept->first, 5u);
  ASSERT_EQ(kept->rows.size(), 3u);
  EXPECT_EQ(kept->rows[1], std::string(10, 'b'));
  EXPECT_EQ(cursors.Find(id, 43, now), nullptr);      // another query
  EXPECT_EQ(cursors.Find(id + 1, 42, now), nullptr);  // another id
  cursors.Release(id);
  EXPECT_EQ(cursors.Find(id, 42, now), nullptr);
  EXPECT_EQ(cursors.size(), 0u);
  EXPECT_EQ(cursors.bytes(), 0u);
}

TEST(ResultCursorsTest, IdleCursorsAreDropped) {
  ResultCursors::Limits limits;
  limits.idle = seconds(60);
  ResultCursors cursors(limits);
  const auto start = std::chrono::steady_clock::now();
  const uint64_t read_again = cursors.Keep(1, RowsOf(0, 2), start);
  const uint64_t left = cursors.Keep(2, RowsOf(0, 2), start);
  EXPECT_NE(cursors.Find(read_again, 1, start + seconds(50)), nullptr);
  // 70 s after it was kept, 20 s after read_again was last read.
  EXPECT_NE(cursors.Find(read_again, 1, start + seconds(70)), nullptr);
  EXPECT_EQ(cursors.Find(left, 2, start + seconds(70)), nullptr);
  EXPECT_EQ(cursors.size(), 1u);
}

TEST(ResultCursorsTest, BeyondTheByteLimitTheLeastRecentlyUsedGoFirst) {
  ResultCursors::Limits limits;
  limits.max_bytes = 10000;
  limits.max_cursor_bytes = 10000;
  ResultCursors cursors(limits);
  const auto now = std::chrono::steady_clock::now();
  // Each about 3 KB: three fit, a fourth pushes out the least recently used.
  const uint64_t a = cursors.Keep(1, RowsOf(0, 10, 250), now);
  const uint64_t b = cursors.Keep(2, RowsOf(0, 10, 250), now);
  const uint64_t c = cursors.Keep(3, RowsOf(0, 10, 250), now);
  ASSERT_NE(cursors.Find(a, 1, now), nullptr);  // a is now the most recently used
  const uint64_t d = cursors.Keep(4, RowsOf(0, 10, 250), now);
  EXPECT_NE(cursors.Find(a, 1, now), nullptr);
  EXPECT_EQ(cursors.Find(b, 2, now), nullptr);
  EXPECT_NE(cursors.Find(c, 3, now), nullptr);
  EXPECT_NE(cursors.Find(d, 4, now), nullptr);
  EXPECT_LE(cursors.bytes(), limits.max_bytes);
}

TEST(ResultCursorsTest, AResultLargerThanACursorMayHoldIsNotKept) {
  ResultCursors::Limits limits;
  limits.max_cursor_bytes = 1000;
  ResultCursors cursors(limits);
  EXPECT_EQ(cursors.Keep(1, RowsOf(0, 100, 100)), 0u);
  EXPECT_EQ(cursors.size(), 0u);
  EXPECT_NE(cursors.Keep(1, RowsOf(0, 2, 100)), 0u);
}

}  // namespace
}  // namespace orrery::engine
