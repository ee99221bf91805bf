#pragma once

// RocksDB's own log ("info log"), sent to Orrery's log instead of a LOG file in the
// data directory: a full disk cannot take the lines that explain it, and the Debian
// build of RocksDB 7.8 (which `make ROCKSDB_DIR=` links) keeps its assertions, one of
// which aborts the process when its LOG file is written to again after a failed write
// (ENOSPC). RocksDB's lines are internals, so they appear at debug level; the store logs
// what a person needs to know (a full disk, writes resumed) itself.

#include <rocksdb/env.h>

#include <memory>

namespace orrery::storage {

std::shared_ptr<rocksdb::Logger> NewForwardingLogger();

}  // namespace orrery::storage
