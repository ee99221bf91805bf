#include "engine/result_cursors.h"

#include "common/crypto.h"

namespace orrery::engine {
namespace {

// What a cursor costs in memory besides its texts: the strings' and the map's own
// bookkeeping, so that a result of many tiny rows is not counted as nearly free.
constexpr size_t kCursorOverhead = 128;
constexpr size_t kRowOverhead = sizeof(std::string);

size_t BytesOf(const ResultCursors::Rows& rows) {
  size_t bytes = kCursorOverhead;
  for (const std::string& row : rows) bytes += row.size() + kRowOverhead;
  return bytes;
}

}  // namespace

ResultCursors::ResultCursors(Limits limits) : limits_(limits) {}

uint64_t ResultCursors::Keep(uint64_t fingerprint, Kept kept, TimePoint now) {
  const size_t bytes = BytesOf(kept.rows);
  if (bytes > limits_.max_cursor_bytes || bytes > limits_.max_bytes) return 0;
  std::lock_guard lock(mutex_);
  EvictLocked(now, bytes);
  uint64_t id = 0;
  while (id == 0 || cursors_.count(id) != 0) id = RandomU64();
  use_order_.push_back(id);
  Cursor cursor;
  cursor.fingerprint = fingerprint;
  cursor.kept = std::make_shared<const Kept>(std::move(kept));
  cursor.bytes = bytes;
  cursor.last_used = now;
  cursor.in_order = std::prev(use_order_.end());
  cursors_.emplace(id, std::move(cursor));
  bytes_ += bytes;
  return id;
}

std::shared_ptr<const ResultCursors::Kept> ResultCursors::Find(uint64_t id, uint64_t fingerprint,
                                                               TimePoint now) {
  std::lock_guard lock(mutex_);
  EvictLocked(now, 0);
  auto it = cursors_.find(id);
  if (it == cursors_.end() || it->second.fingerprint != fingerprint) return nullptr;
  it->second.last_used = now;
  use_order_.splice(use_order_.end(), use_order_, it->second.in_order);
  return it->second.kept;
}

void ResultCursors::Release(uint64_t id) {
  std::lock_guard lock(mutex_);
  if (auto it = cursors_.find(id); it != cursors_.end()) EraseLocked(it);
}

size_t ResultCursors::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

size_t ResultCursors::size() const {
  std::lock_guard lock(mutex_);
  return cursors_.size();
}

void ResultCursors::EvictLocked(TimePoint now, size_t incoming_bytes) {
  while (!use_order_.empty()) {
    auto oldest = cursors_.find(use_order_.front());
    const bool idle = now - oldest->second.last_used >= limits_.idle;
    if (!idle && bytes_ + incoming_bytes <= limits_.max_bytes) break;
    EraseLocked(oldest);
  }
}

void ResultCursors::EraseLocked(std::unordered_map<uint64_t, Cursor>::iterator it) {
  bytes_ -= it->second.bytes;
  use_order_.erase(it->second.in_order);
  cursors_.erase(it);
}

}  // namespace orrery::engine
