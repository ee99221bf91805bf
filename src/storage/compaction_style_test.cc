// Stores are compacted universally (store.cc); stores written before that were compacted
// by levels and must open with their data as it was.

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <map>
#include <memory>
#include <string>

#include "storage/store.h"
#include "storage/test_data_directory.h"
#include "storage/test_raw_database.h"

namespace orrery::storage {
namespace {

// Fixed width, so that the keys sort as their numbers do.
std::string KeyNumber(int i) { return "k" + std::to_string(1000000 + i); }

class CompactionStyleTest : public DataDirectoryTest {
 protected:
  // Writes keys [begin, end) with RocksDB's default (leveled) compaction and a flush.
  static void WriteLeveled(rocksdb::DB& db, int begin, int end,
                           std::map<std::string, std::string>& expected) {
    rocksdb::WriteBatch batch;
    for (int i = begin; i < end; ++i) {
      const std::string value = "value of " + KeyNumber(i) + std::string(200, 'v');
      ASSERT_TRUE(batch.Put(KeyNumber(i), value).ok());
      expected[KeyNumber(i)] = value;
    }
    ASSERT_TRUE(db.Write(rocksdb::WriteOptions(), &batch).ok());
    ASSERT_TRUE(db.Flush(rocksdb::FlushOptions()).ok());
  }

  static int FilesAtLevel(rocksdb::DB& db, int level) {
    std::string files;
    EXPECT_TRUE(db.GetProperty("rocksdb.num-files-at-level" + std::to_string(level), &files));
    return std::stoi(files);
  }

  static void ExpectExactly(const Store& store,
                            const std::map<std::string, std::string>& expected) {
    std::map<std::string, std::string> seen;
    ASSERT_TRUE(store
                    .Scan("k", "l",
                          [&](std::string_view key, std::string_view value) {
                            seen.emplace(std::string(key), std::string(value));
                            return true;
                          })
                    .ok());
    EXPECT_EQ(seen.size(), expected.size());
    EXPECT_TRUE(seen == expected);
    for (const auto& [key, value] : expected) {
      auto got = store.Get(key);
      ASSERT_TRUE(got.ok());
      ASSERT_TRUE(got->has_value()) << key;
      EXPECT_EQ(**got, value);
    }
  }
};

TEST_F(CompactionStyleTest, AStoreCompactedByLevelsOpensWithItsDataAndKeepsWriting) {
  std::map<std::string, std::string> expected;
  {
    rocksdb::Options options;
    options.compaction_style = rocksdb::kCompactionStyleLevel;
    std::unique_ptr<rocksdb::DB> db = OpenRawDatabase(dir_, options);
    ASSERT_NE(db, nullptr);
    ASSERT_NO_FATAL_FAILURE(WriteLeveled(*db, 0, 3000, expected));
    ASSERT_NO_FATAL_FAILURE(WriteLeveled(*db, 3000, 6000, expected));
    ASSERT_TRUE(db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
    // Later versions of some keys and a deletion, left in level 0 over the levels below.
    ASSERT_NO_FATAL_FAILURE(WriteLeveled(*db, 5000, 7000, expected));
    ASSERT_TRUE(db->Delete(rocksdb::WriteOptions(), KeyNumber(10)).ok());
    expected.erase(KeyNumber(10));
    int below_level_zero = 0;
    for (int level = 1; level < options.num_levels; ++level) {
      below_level_zero += FilesAtLevel(*db, level);
    }
    // The layout this test is about: files in level 0 and in a level below it.
    ASSERT_GT(FilesAtLevel(*db, 0), 0);
    ASSERT_GT(below_level_zero, 0);
    ASSERT_TRUE(db->Close().ok());
  }

  auto store = Store::Open({.path = dir_});
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  ASSERT_NO_FATAL_FAILURE(ExpectExactly(**store, expected));

  WriteBatch batch;
  for (int i = 6500; i < 8000; ++i) {
    batch.Put(KeyNumber(i), "rewritten " + KeyNumber(i));
    expected[KeyNumber(i)] = "rewritten " + KeyNumber(i);
  }
  batch.Delete(KeyNumber(20));
  expected.erase(KeyNumber(20));
  ASSERT_TRUE((*store)->Write(batch).ok());
  ASSERT_TRUE((*store)->CompactAll().ok());
  ExpectExactly(**store, expected);

  store = Status::Internal("close");
  auto reopened = Store::Open({.path = dir_});
  ASSERT_TRUE(reopened.ok()) << reopened.status().ToString();
  ExpectExactly(**reopened, expected);
}

}  // namespace
}  // namespace orrery::storage
