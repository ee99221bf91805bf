#pragma once

// Store: the one RocksDB database of a data directory (or of an in-memory
// environment). Every write goes through the write-ahead log before Write() returns,
// so an acknowledged write survives a crash of the process (kill -9); with
// StoreOptions::sync_writes it also survives a crash of the machine.
// When the disk holding the data directory is full, writes fail with
// InsufficientStorage and change nothing, reads go on, and writes resume by themselves
// once there is room again; a store opened on a full disk serves reads only until it
// is opened again.
// Thread-safe: all methods may be called concurrently.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "storage/counter.h"

namespace orrery::storage {

struct StoreOptions {
  std::string path = "./orrery-data";  // data directory (ignored when in_memory)
  bool in_memory = false;              // same code, RocksDB's in-memory Env
  bool sync_writes = false;            // fdatasync the WAL on every write
  size_t block_cache_bytes = 32 << 20;
  // A throwaway store, dropped when the process ends (orrery advise's measurements):
  // no write-ahead log, no compression, large memtables, no compaction (it is loaded
  // once and read briefly), no flush at close. Never for data a client was told is
  // written.
  bool scratch = false;
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
  // Opens (creating if missing); read-only (ReadOnly()) when the disk is too full to
  // open for writing. Errors: IoError with a one-line message, e.g. when another
  // process holds the data directory.
  static Result<std::unique_ptr<Store>> Open(const StoreOptions& options);
  ~Store();

  // The value, or nullopt when the key is absent.
  Result<std::optional<std::string>> Get(std::string_view key) const;
  // The values of several keys, in their order (one lookup batch: cheaper than a Get
  // each when the keys are many).
  Result<std::vector<std::optional<std::string>>> MultiGet(
      const std::vector<std::string>& keys) const;
  // Errors: InsufficientStorage while the disk is full (nothing of the batch is
  // written), IoError, Corruption.
  Status Write(WriteBatch& batch);
  // Like Write, but always synced to disk (for rarely written metadata such as id
  // allocation high-water marks).
  Status WriteSynced(WriteBatch& batch);
  // True while writes fail with InsufficientStorage for lack of space, from the write
  // that found the disk full until the store has recovered (or for good when
  // ReadOnly()). Background work waits while it holds instead of retrying.
  bool OutOfSpace() const;
  // Opened read-only because the disk was full: every write fails with
  // InsufficientStorage until the store is opened again with room on the disk.
  bool ReadOnly() const;
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

  // Reads that must see every write whole (a query page, a feed page). Writes are
  // applied to the memtable by their own threads in parallel (RocksDB's unordered
  // writes), so a write becomes visible key by key while it is applied. While a
  // ReadView is alive, its thread's Get, MultiGet, Scan and ScanReverse of this store
  // read the point in time the view was opened at, and the view waits (when opened)
  // until every write that could be part of that point in time has been applied whole.
  // Reads outside a view see single keys whole, which is all a point read needs.
  // A thread holding a view does not write to the store (its reads would be stale).
  class ReadView {
   public:
    explicit ReadView(const Store& store);
    ~ReadView();
    ReadView(const ReadView&) = delete;
    ReadView& operator=(const ReadView&) = delete;

   private:
    const Store* store_ = nullptr;  // null: nested in a view of the same store
  };

  // While alive, this thread's reads see the latest state even inside a ReadView: what
  // a count taken while no write runs must read (the writes committed since the view
  // opened included), or it would miss them for good. The view resumes after.
  class LatestReads {
   public:
    LatestReads();
    ~LatestReads();
    LatestReads(const LatestReads&) = delete;
    LatestReads& operator=(const LatestReads&) = delete;

   private:
    const Store* store_;
    const void* snapshot_;
  };

  // The data directory; empty for an in-memory store.
  const std::string& directory() const;
  // The sequence number of the last write, now and when the store was opened: equal at
  // open to what it was at the last close when nothing wrote in between.
  uint64_t LatestSequence() const;
  uint64_t SequenceAtOpen() const;

  // About how many bytes the keys in [begin, end) take, in files and memtables
  // (compressed as stored; cheap: no data is read).
  uint64_t ApproximateBytes(std::string_view begin, std::string_view end) const;

 private:
  struct Rep;
  explicit Store(std::unique_ptr<Rep> rep);
  Status Apply(WriteBatch& batch, bool synced);
  std::unique_ptr<Rep> rep_;
};

}  // namespace orrery::storage
