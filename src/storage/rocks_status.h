#pragma once

// How RocksDB's statuses become Orrery's, at the edge of storage/ (store.cc and its
// helpers include this; nothing outside storage/ sees rocksdb:: types).

#include <rocksdb/status.h>

#include <cstdint>

#include "common/status.h"

namespace orrery::storage {

// Whether `status` says that the disk holding the data directory is full: RocksDB's
// NoSpace (ENOSPC) or SpaceLimit subcode, also when it comes back as the background
// error every write gets until RocksDB recovers, or as an Incomplete (a write stalled
// by it) that kept only its text.
bool IsOutOfSpace(const rocksdb::Status& status);

// The error a write gets while the disk is full: InsufficientStorage, with a message
// for the person reading it. `resume_bytes` is how much must be free before writes
// resume (RocksDB first flushes one write buffer).
Status DiskFullError(uint64_t resume_bytes);
// The error a write gets when the store was opened read-only because the disk was
// full at start: InsufficientStorage until a restart with space.
Status ReadOnlyAfterDiskFullError();

// Corruption stays Corruption, a full disk is DiskFullError(resume_bytes), anything
// else an IoError that keeps RocksDB's text.
Status FromRocks(const rocksdb::Status& status, uint64_t resume_bytes);

}  // namespace orrery::storage
