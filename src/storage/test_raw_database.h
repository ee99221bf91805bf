#pragma once

// RocksDB opened directly on a data directory, as RocksDB alone (or an earlier Orrery)
// wrote it, for tests of what Store makes of such a directory. Test-only.

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <memory>
#include <string>

namespace orrery::storage {

// Null (with a test failure) when it cannot be opened.
inline std::unique_ptr<rocksdb::DB> OpenRawDatabase(const std::string& dir,
                                                    rocksdb::Options options = {}) {
  options.create_if_missing = true;
  rocksdb::DB* raw = nullptr;
  const rocksdb::Status opened = rocksdb::DB::Open(options, dir, &raw);
  EXPECT_TRUE(opened.ok()) << opened.ToString();
  return std::unique_ptr<rocksdb::DB>(raw);
}

}  // namespace orrery::storage
