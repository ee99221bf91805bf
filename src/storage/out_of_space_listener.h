#pragma once

// Follows RocksDB's background error state for a full disk. A write that finds no
// space (its WAL append, a flush, a MANIFEST write) makes RocksDB stop all writes
// with a NoSpace "hard" error; its SstFileManager then checks the free space every
// 5 seconds and, once a write buffer's worth is free, flushes and resumes writes.
// This listener turns those two events into a flag that background work reads to
// wait instead of failing over and over, and into one log line each.

#include <rocksdb/listener.h>

#include <atomic>
#include <cstdint>
#include <string>

namespace orrery::storage {

class OutOfSpaceListener : public rocksdb::EventListener {
 public:
  // `path`, the data directory, and `resume_bytes`, the free space RocksDB waits
  // for, appear in the log lines.
  OutOfSpaceListener(std::string path, uint64_t resume_bytes);

  // True from a NoSpace error that stopped writes until RocksDB has recovered.
  bool out_of_space() const { return out_of_space_.load(std::memory_order_acquire); }
  // Whether the disk has been full since the store opened.
  bool was_out_of_space() const { return was_out_of_space_.load(std::memory_order_acquire); }

  const char* Name() const override { return "orrery.out_of_space"; }
  // Called by RocksDB with its mutex held: only flips the flag and logs.
  void OnBackgroundError(rocksdb::BackgroundErrorReason reason, rocksdb::Status* error) override;
  void OnErrorRecoveryEnd(const rocksdb::BackgroundErrorRecoveryInfo& info) override;

 private:
  const std::string path_;
  const uint64_t resume_bytes_;
  std::atomic<bool> out_of_space_{false};
  std::atomic<bool> was_out_of_space_{false};
};

}  // namespace orrery::storage
