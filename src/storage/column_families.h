#pragma once

// Where each key space lives inside the store's one RocksDB database (internal to
// storage/; rocksdb types never leave this folder).
//
// Keys derived from the items (range, composite, spatial, vector and full-text index
// entries, and the creation-order lists) live in a column family of their own,
// "derived"; everything else (items, counters, change feed, catalog, meta) in the
// default one. Both share the WAL and sequence numbers, so a batch that touches both is
// still atomic and a snapshot still covers both. Why a family: a create writes one item
// of about 1 KB and six or seven derived keys of about 100 bytes, each inserted into a
// memtable's skip list at a place the caches do not hold. Derived keys in a memtable of
// their own (8 MB), without the bloom filters that only point lookups use (nothing
// looks a derived key up by itself), cost a create 7-10% less CPU than in the 16 MB
// memtable they shared with the items (bench/README.md, stops 44 and 45).

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>

#include <string_view>

namespace orrery::storage {

inline constexpr const char* kDerivedFamilyName = "derived";
// The id RocksDB gives the first family created after the default one. A batch names
// its families by id (RoutingHandle below); Open checks that the family has it.
inline constexpr uint32_t kDerivedFamilyId = 1;

// True for keys of the derived family.
bool InDerivedFamily(std::string_view key);
// True when [begin, end) may hold keys of both families (a range that starts and ends
// in different key spaces).
bool SpansFamilies(std::string_view begin, std::string_view end);

// A WriteBatch is filled before it meets a store, and RocksDB's batch records a
// family by id only: this handle names the derived family of any store.
rocksdb::ColumnFamilyHandle* DerivedFamilyInBatch();

// The derived family's options, from the default family's: a small memtable and no
// bloom filters (see above); `scratch` stores keep the default family's memtable size.
rocksdb::ColumnFamilyOptions DerivedFamilyOptions(const rocksdb::Options& db_options,
                                                  const rocksdb::BlockBasedTableOptions& table,
                                                  bool scratch);

// Whether the derived keys live in the derived family (the move below is done). A store
// opened read-only while they do not reads them from the default family.
rocksdb::Status DerivedKeysMoved(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* default_family,
                                 bool* moved);

// A store written before the derived family existed holds its derived keys in the
// default family. Moves them (once: a meta key in the default family records it, written
// in the same batch that range-deletes the moved keys, so a crash in between moves them
// again). On a new store it only writes that key.
rocksdb::Status MoveDerivedKeysOnce(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* default_family,
                                    rocksdb::ColumnFamilyHandle* derived_family,
                                    const rocksdb::WriteOptions& synced);

}  // namespace orrery::storage
