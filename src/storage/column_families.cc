#include "storage/column_families.h"

#include <rocksdb/comparator.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/write_batch.h>

#include <memory>
#include <string>

#include "storage/keys.h"

namespace orrery::storage {
namespace {

constexpr char kDerivedSpaces[] = {keys::kIndexSpace, keys::kCreationOrderSpace};
// Each memtable flushed is one more sorted run the single compaction thread has to merge,
// and the items' large merges hold that thread: with 2 MB memtables, creates at 40,000/s
// filled the family with 36 runs and RocksDB stopped every write for up to a second
// (bench/README.md, stop 45). 8 MB flush a quarter as often, for the same CPU per create.
constexpr uint64_t kDerivedWriteBufferBytes = 8 << 20;
// Moved keys go in batches of about this many bytes.
constexpr size_t kMoveBatchBytes = 4 << 20;
const char kMovedMarker[] = "derived-family";

class RoutingHandle : public rocksdb::ColumnFamilyHandle {
 public:
  const std::string& GetName() const override { return name_; }
  uint32_t GetID() const override { return kDerivedFamilyId; }
  rocksdb::Status GetDescriptor(rocksdb::ColumnFamilyDescriptor*) override {
    return rocksdb::Status::NotSupported("a routing handle has no descriptor");
  }
  const rocksdb::Comparator* GetComparator() const override {
    return rocksdb::BytewiseComparator();
  }

 private:
  const std::string name_ = kDerivedFamilyName;
};

bool IsDerivedSpace(char space) {
  for (char derived : kDerivedSpaces) {
    if (space == derived) return true;
  }
  return false;
}

}  // namespace

bool InDerivedFamily(std::string_view key) { return !key.empty() && IsDerivedSpace(key[0]); }

bool SpansFamilies(std::string_view begin, std::string_view end) {
  return begin.empty() || end.empty() || begin[0] != end[0];
}

rocksdb::ColumnFamilyHandle* DerivedFamilyInBatch() {
  static RoutingHandle handle;
  return &handle;
}

rocksdb::ColumnFamilyOptions DerivedFamilyOptions(const rocksdb::Options& db_options,
                                                  const rocksdb::BlockBasedTableOptions& table,
                                                  bool scratch) {
  rocksdb::ColumnFamilyOptions options(db_options);
  if (!scratch) options.write_buffer_size = kDerivedWriteBufferBytes;
  options.memtable_prefix_bloom_size_ratio = 0;
  options.memtable_whole_key_filtering = false;
  rocksdb::BlockBasedTableOptions without_filters = table;
  without_filters.filter_policy.reset();
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(without_filters));
  return options;
}

rocksdb::Status DerivedKeysMoved(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* default_family,
                                 bool* moved) {
  std::string value;
  rocksdb::Status s =
      db.Get(rocksdb::ReadOptions(), default_family, keys::Meta(kMovedMarker), &value);
  *moved = s.ok();
  return s.IsNotFound() ? rocksdb::Status::OK() : s;
}

rocksdb::Status MoveDerivedKeysOnce(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* default_family,
                                    rocksdb::ColumnFamilyHandle* derived_family,
                                    const rocksdb::WriteOptions& synced) {
  bool moved = false;
  rocksdb::Status s = DerivedKeysMoved(db, default_family, &moved);
  if (!s.ok() || moved) return s;
  const std::string marker = keys::Meta(kMovedMarker);

  rocksdb::WriteBatch finish;
  for (char space : kDerivedSpaces) {
    const std::string begin(1, space);
    const std::string end(1, static_cast<char>(space + 1));
    rocksdb::Slice upper(end);
    rocksdb::ReadOptions read;
    read.iterate_upper_bound = &upper;
    read.fill_cache = false;
    std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(read, default_family));
    rocksdb::WriteBatch batch;
    bool moved_any = false;
    for (it->Seek(begin); it->Valid(); it->Next()) {
      if (s = batch.Put(derived_family, it->key(), it->value()); !s.ok()) return s;
      moved_any = true;
      if (batch.GetDataSize() >= kMoveBatchBytes) {
        if (s = db.Write(synced, &batch); !s.ok()) return s;
        batch.Clear();
      }
    }
    if (!it->status().ok()) return it->status();
    if (batch.Count() > 0) {
      if (s = db.Write(synced, &batch); !s.ok()) return s;
    }
    // Only where keys were moved: a range deletion makes every read of the memtable
    // it sits in rebuild its cache of range tombstones until it is flushed.
    if (moved_any) {
      if (s = finish.DeleteRange(default_family, begin, end); !s.ok()) return s;
    }
  }
  if (s = finish.Put(default_family, marker, "1"); !s.ok()) return s;
  if (s = db.Write(synced, &finish); !s.ok()) return s;
  if (finish.Count() > 1) return db.Flush(rocksdb::FlushOptions(), default_family);
  return s;
}

}  // namespace orrery::storage
