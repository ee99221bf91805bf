#pragma once

// How many items of each physical partition have an index entry under a path, and how
// many items it holds: when the two are equal no item lacks the path, so the first
// page of an ORDER BY, GROUP BY or DISTINCT on a path whose undefined values have no
// entries (the default policy's /*) need not read every item to find them
// (Container::SomeItemLacks, container_query_streams.cc).
//
// In memory only. A new container's partitions are counted from empty, for every path;
// other partitions (after a restart or a split) count a path the first time a query
// needs it, while no write runs. Committed writes report their changes (CommitScope).
// Thread-safe.

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

namespace orrery::engine {

class PathPresence {
 public:
  // `partition` holds no items yet: every path is counted from here on.
  void StartEmpty(uint32_t partition);

  // Whether some item of `partition` has no entry under `path` (the bytes of an entry
  // key's path prefix after its container and partition); nullopt when not counted.
  std::optional<bool> SomeItemLacks(uint32_t partition, std::string_view path) const;
  // The entries counted under `path` in `partition` (for a full-text path's word-count
  // entries, the sum of their words: full_text_index.h), when counted.
  std::optional<int64_t> Entries(uint32_t partition, std::string_view path) const;
  // The items of `partition`, when counted.
  std::optional<int64_t> Items(uint32_t partition) const;
  // Counts made while no write could run.
  void Learn(uint32_t partition, std::string_view path, int64_t entries, int64_t items);

  // Whether any partition is counted: writes report nothing while none is.
  bool CountsAny() const { return counted_.load(std::memory_order_acquire) > 0; }
  // A committed write's change to the entries under `path`, or to the item count when
  // `path` is empty. Partitions and paths not counted ignore it.
  void Apply(uint32_t partition, std::string_view path, int64_t delta);
  // Several changes (one committed write's), under one lock.
  struct Change {
    uint32_t partition;
    std::string path;  // empty: the item count
    int64_t delta;
  };
  void Apply(std::span<const Change> changes);

  // After a split (the partition is gone) or a policy change (every entry changes).
  void Forget(uint32_t partition);
  void ForgetAll();

  // Past this many paths a partition counted from empty is forgotten (its paths are
  // then counted only when queried): documents with open-ended keys make paths without
  // end.
  static constexpr size_t kMaxPathsPerPartition = 10000;

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct Partition {
    bool every_path = false;  // counted from empty: a path not in `entries` has none
    std::optional<int64_t> items;
    std::unordered_map<std::string, int64_t, Hash, std::equal_to<>> entries;
  };
  void ForgetLocked(uint32_t partition);
  void ApplyLocked(uint32_t partition, std::string_view path, int64_t delta);

  mutable std::mutex mutex_;
  std::unordered_map<uint32_t, Partition> partitions_;
  std::atomic<int> counted_{0};
};

}  // namespace orrery::engine
