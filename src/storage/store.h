#pragma once

// Store: the one RocksDB database of a data directory (or of an in-memory
// environment). Every write goes through the write-ahead log before Write() returns,
// so an acknowledged write survives a crash of the process (kill -9); with
// StoreOptions::sync_writes it also survives a crash of the machine.
// Thread-safe: all methods may be called concurrently.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "storage/counter.h"

namespace orrery::storage {

struct StoreOptions {
  std::string path = "./orrery-data";  // data directory (ignored when in_memory)
  bool in_memory = false;              // same code, RocksDB's in-memory Env
  bool sync_writes = false;            // fdatasync the WAL on every write
  size_t block_cache_bytes = 32 << 20;
};

// A set of puts and deletes applied atomically by Store::Write.
class WriteBatch {
 public:
  WriteBatch();
  ~WriteBatch();
  WriteBatch(WriteBatch&&) noexcept;
  WriteBatch& operator=(WriteBatch&&) noexcept;

  void Put(std::string_view key, std::string_view value);
  void Delete(std::string_view key);
  // Deletes every key in [begin, end).
  void DeleteRange(std::string_view begin, std::string_view end);
  // Adds `delta`'s count and bytes to the counter at `key` (storage/counter.h), and
  // sets its label when `delta` has one; the key need not exist.
  void AddToCounter(std::string_view key, const Counter& delta);
  size_t count() const;

 private:
  friend class Store;
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

class Store {
 public:
  // Opens (creating if missing). Errors: IoError with a one-line message, e.g. when
  // another process holds the data directory.
  static Result<std::unique_ptr<Store>> Open(const StoreOptions& options);
  ~Store();

  // The value, or nullopt when the key is absent.
  Result<std::optional<std::string>> Get(std::string_view key) const;
  Status Write(WriteBatch& batch);
  // Like Write, but always synced to disk (for rarely written metadata such as id
  // allocation high-water marks).
  Status WriteSynced(WriteBatch& batch);
  // Flushes the memtables and compacts every level: the steady state that background
  // compaction reaches on an idle server, at once (benchmarks, and after bulk loads).
  Status CompactAll();

  // Calls visit(key, value) for keys in [begin, end) in order until it returns false.
  // The views are valid only during the call.
  enum class ScanMode { kNormal, kBulk };
  Status Scan(std::string_view begin, std::string_view end,
              const std::function<bool(std::string_view, std::string_view)>& visit,
              ScanMode mode = ScanMode::kNormal) const;
  // The same keys in descending order (for index scans that serve ORDER BY ... DESC).
  Status ScanReverse(std::string_view begin, std::string_view end,
                     const std::function<bool(std::string_view, std::string_view)>& visit) const;

  // About how many bytes the keys in [begin, end) take, in files and memtables
  // (compressed as stored; cheap: no data is read).
  uint64_t ApproximateBytes(std::string_view begin, std::string_view end) const;

 private:
  struct Rep;
  explicit Store(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace orrery::storage
