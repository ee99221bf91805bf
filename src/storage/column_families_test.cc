// Derived key spaces (index entries, creation-order lists) live in a column family of
// their own (column_families.h); a store written before keeps them in the default
// family until it is opened once.

#include "storage/column_families.h"

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "storage/keys.h"
#include "storage/store.h"
#include "storage/test_data_directory.h"
#include "storage/test_raw_database.h"

namespace orrery::storage {
namespace {

using KeyValues = std::map<std::string, std::string>;

std::string InSpace(char space, std::string_view rest) {
  return std::string(1, space) + std::string(rest);
}

class ColumnFamiliesTest : public DataDirectoryTest {
 protected:
  std::unique_ptr<Store> OpenStore() {
    StoreOptions options;
    options.path = dir_;
    auto store = Store::Open(options);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::move(*store) : nullptr;
  }

  // What RocksDB itself holds in each family, read without Store.
  std::map<std::string, KeyValues> RawFamilies() {
    std::vector<std::string> names;
    EXPECT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir_, &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    for (const std::string& name : names)
      descriptors.emplace_back(name, rocksdb::ColumnFamilyOptions());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    rocksdb::Options options;
    options.merge_operator = nullptr;
    EXPECT_TRUE(rocksdb::DB::OpenForReadOnly(options, dir_, descriptors, &handles, &raw).ok());
    std::map<std::string, KeyValues> out;
    for (size_t i = 0; i < handles.size(); ++i) {
      std::unique_ptr<rocksdb::Iterator> it(raw->NewIterator(rocksdb::ReadOptions(), handles[i]));
      KeyValues& family = out[names[i]];
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        family[it->key().ToString()] = it->value().ToString();
      }
      raw->DestroyColumnFamilyHandle(handles[i]).PermitUncheckedError();
    }
    delete raw;
    return out;
  }

  static KeyValues ScanSpace(const Store& store, char space) {
    KeyValues seen;
    EXPECT_TRUE(store
                    .Scan(std::string(1, space), std::string(1, static_cast<char>(space + 1)),
                          [&](std::string_view key, std::string_view value) {
                            seen.emplace(key, value);
                            return true;
                          })
                    .ok());
    return seen;
  }
};

TEST(DerivedFamilyTest, HoldsIndexAndCreationOrderKeysOnly) {
  EXPECT_TRUE(InDerivedFamily(InSpace(keys::kIndexSpace, "x")));
  EXPECT_TRUE(InDerivedFamily(InSpace(keys::kCreationOrderSpace, "x")));
  for (char space : {keys::kMetaSpace, keys::kDatabaseSpace, keys::kContainerSpace,
                     keys::kItemSpace, keys::kUniqueSpace, keys::kChangeFeedSpace,
                     keys::kLogicalPartitionSpace, keys::kExpirySpace}) {
    EXPECT_FALSE(InDerivedFamily(InSpace(space, "x"))) << static_cast<int>(space);
  }
  EXPECT_FALSE(InDerivedFamily(""));
}

TEST_F(ColumnFamiliesTest, WritesLandInTheirFamilyAndReadBackThroughTheStore) {
  const std::string item = InSpace(keys::kItemSpace, "item");
  const std::string entry = InSpace(keys::kIndexSpace, "entry");
  const std::string creation = InSpace(keys::kCreationOrderSpace, "creation");
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    WriteBatch batch;
    batch.Put(item, "the item");
    batch.Put(entry, "");
    batch.Put(creation, "item");
    ASSERT_TRUE(store->Write(batch).ok());
    auto got = store->MultiGet({item, entry, creation, InSpace(keys::kIndexSpace, "absent")});
    ASSERT_TRUE(got.ok());
    EXPECT_EQ((*got)[0], std::optional<std::string>("the item"));
    EXPECT_EQ((*got)[1], std::optional<std::string>(""));
    EXPECT_EQ((*got)[2], std::optional<std::string>("item"));
    EXPECT_EQ((*got)[3], std::nullopt);
    EXPECT_EQ(ScanSpace(*store, keys::kIndexSpace), (KeyValues{{entry, ""}}));
  }
  std::map<std::string, KeyValues> raw = RawFamilies();
  EXPECT_EQ(raw[kDerivedFamilyName], (KeyValues{{entry, ""}, {creation, "item"}}));
  EXPECT_EQ(raw[rocksdb::kDefaultColumnFamilyName].count(item), 1u);
  EXPECT_EQ(raw[rocksdb::kDefaultColumnFamilyName].count(entry), 0u);
}

TEST_F(ColumnFamiliesTest, ARangeDeletionAcrossSpacesDeletesInBothFamilies) {
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  WriteBatch batch;
  batch.Put(InSpace(keys::kItemSpace, "a"), "1");
  batch.Put(InSpace(keys::kIndexSpace, "b"), "2");
  batch.Put(InSpace(keys::kUniqueSpace, "c"), "3");
  ASSERT_TRUE(store->Write(batch).ok());
  WriteBatch clear;
  clear.DeleteRange(std::string(1, keys::kItemSpace), std::string(1, keys::kUniqueSpace));
  ASSERT_TRUE(store->Write(clear).ok());
  EXPECT_EQ(*store->Get(InSpace(keys::kItemSpace, "a")), std::nullopt);
  EXPECT_EQ(*store->Get(InSpace(keys::kIndexSpace, "b")), std::nullopt);
  EXPECT_EQ(*store->Get(InSpace(keys::kUniqueSpace, "c")), std::optional<std::string>("3"));
}

TEST_F(ColumnFamiliesTest, AStoreFromBeforeTheFamilyHasItsDerivedKeysMovedOnce) {
  KeyValues derived, others;
  {
    std::unique_ptr<rocksdb::DB> db = OpenRawDatabase(dir_);
    ASSERT_NE(db, nullptr);
    rocksdb::WriteBatch batch;
    for (int i = 0; i < 3000; ++i) {
      const std::string n = std::to_string(100000 + i);
      derived[InSpace(keys::kIndexSpace, "entry" + n)] = "";
      derived[InSpace(keys::kCreationOrderSpace, "number" + n)] = "id" + n;
      others[InSpace(keys::kItemSpace, "item" + n)] = "item " + n + std::string(300, 'v');
      others[InSpace(keys::kChangeFeedSpace, "lsn" + n)] = "id" + n;
    }
    for (const auto& [key, value] : derived) ASSERT_TRUE(batch.Put(key, value).ok());
    for (const auto& [key, value] : others) ASSERT_TRUE(batch.Put(key, value).ok());
    ASSERT_TRUE(db->Write(rocksdb::WriteOptions(), &batch).ok());
    // Some in a table file, some only in the WAL.
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
    rocksdb::WriteBatch more;
    const std::string late = InSpace(keys::kIndexSpace, "late entry");
    ASSERT_TRUE(more.Put(late, "").ok());
    derived[late] = "";
    ASSERT_TRUE(db->Write(rocksdb::WriteOptions(), &more).ok());
    ASSERT_TRUE(db->Close().ok());
  }
  for (int open = 0; open < 2; ++open) {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    KeyValues seen = ScanSpace(*store, keys::kIndexSpace);
    KeyValues creation = ScanSpace(*store, keys::kCreationOrderSpace);
    seen.insert(creation.begin(), creation.end());
    EXPECT_EQ(seen, derived) << "open " << open;
    KeyValues items = ScanSpace(*store, keys::kItemSpace);
    KeyValues feed = ScanSpace(*store, keys::kChangeFeedSpace);
    items.insert(feed.begin(), feed.end());
    EXPECT_EQ(items, others) << "open " << open;
    if (open == 0) {
      WriteBatch batch;  // written after the move: kept by the second open
      batch.Put(InSpace(keys::kIndexSpace, "new entry"), "");
      ASSERT_TRUE(store->Write(batch).ok());
      derived[InSpace(keys::kIndexSpace, "new entry")] = "";
    }
  }
  std::map<std::string, KeyValues> raw = RawFamilies();
  EXPECT_EQ(raw[kDerivedFamilyName], derived);
  for (const auto& [key, value] : raw[rocksdb::kDefaultColumnFamilyName]) {
    EXPECT_FALSE(InDerivedFamily(key)) << "left in the default family: " << key;
  }
}

}  // namespace
}  // namespace orrery::storage
