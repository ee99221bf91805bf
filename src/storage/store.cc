#include "storage/store.h"

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <filesystem>

namespace orrery::storage {
namespace {

Status FromRocks(const rocksdb::Status& s) {
  if (s.ok()) {
    return Status::Ok();
  }
  if (s.IsCorruption()) {
    return Status::Corruption("storage corruption: " + s.ToString());
  }
  return Status::IoError("storage error: " + s.ToString());
}

rocksdb::Slice ToSlice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }

}  // namespace

// Sums counters (storage/counter.h); an operand's label replaces the stored one.
class CounterMergeOperator : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing, const rocksdb::Slice& value,
             std::string* new_value, rocksdb::Logger*) const override {
    Counter sum;
    if (existing != nullptr) {
      std::optional<Counter> old =
          DecodeCounter(std::string_view(existing->data(), existing->size()));
      if (!old) return false;
      sum = std::move(*old);
    }
    std::optional<Counter> delta = DecodeCounter(std::string_view(value.data(), value.size()));
    if (!delta) return false;
    sum.count += delta->count;
    sum.bytes += delta->bytes;
    if (!delta->label.empty()) sum.label = std::move(delta->label);
    *new_value = EncodeCounter(sum);
    return true;
  }
  const char* Name() const override { return "orrery.counter"; }
};

struct WriteBatch::Rep {
  rocksdb::WriteBatch batch;
};

WriteBatch::WriteBatch() : rep_(std::make_unique<Rep>()) {}
WriteBatch::~WriteBatch() = default;
WriteBatch::WriteBatch(WriteBatch&&) noexcept = default;
WriteBatch& WriteBatch::operator=(WriteBatch&&) noexcept = default;

void WriteBatch::Put(std::string_view key, std::string_view value) {
  rep_->batch.Put(ToSlice(key), ToSlice(value)).PermitUncheckedError();
}
void WriteBatch::Delete(std::string_view key) {
  rep_->batch.Delete(ToSlice(key)).PermitUncheckedError();
}
void WriteBatch::AddToCounter(std::string_view key, const Counter& delta) {
  rep_->batch.Merge(ToSlice(key), EncodeCounter(delta)).PermitUncheckedError();
}
void WriteBatch::DeleteRange(std::string_view begin, std::string_view end) {
  rep_->batch.DeleteRange(ToSlice(begin), ToSlice(end)).PermitUncheckedError();
}
size_t WriteBatch::count() const { return rep_->batch.Count(); }

struct Store::Rep {
  std::unique_ptr<rocksdb::Env> memory_env;  // outlives db
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::WriteOptions write_options;
  rocksdb::WriteOptions synced_write_options;
};

Store::Store(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

Store::~Store() {
  if (rep_ && rep_->db) {
    rep_->db->Close().PermitUncheckedError();  // best effort: the WAL already holds every write
  }
}

Result<std::unique_ptr<Store>> Store::Open(const StoreOptions& options) {
  auto rep = std::make_unique<Rep>();
  rocksdb::Options db_options;
  db_options.create_if_missing = true;
  db_options.max_background_jobs = 2;
  db_options.write_buffer_size = 16 << 20;
  db_options.max_write_buffer_number = 3;
  db_options.keep_log_file_num = 3;
  db_options.max_manifest_file_size = 8 << 20;
  db_options.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  rocksdb::BlockBasedTableOptions table_options;
  table_options.block_cache = rocksdb::NewLRUCache(options.block_cache_bytes);
  // Items are about 1 KB: 4 KB blocks hold three or four of them, and a scan pays the
  // per-block cost (cache lookup, decompression call, block set-up) for every few
  // items. 16 KB blocks make scans markedly faster; hot point reads are served from
  // the cache of uncompressed blocks either way.
  table_options.block_size = 16 << 10;
  // Creates look up the id first; most of those lookups miss, which a bloom filter
  // answers without reading table blocks.
  table_options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  // On a few cores, writer threads that spin-yield waiting for the group leader
  // burn the CPU the request threads need.
  db_options.enable_write_thread_adaptive_yield = false;
  db_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table_options));
  // Scans decompress every block they read; LZ4 decompresses about twice as fast as
  // the default Snappy for a similar ratio on JSON. Blocks written before keep their
  // own compression and stay readable.
  db_options.compression = rocksdb::kLZ4Compression;
  // Only counter keys are ever merged (WriteBatch::AddToCounter).
  db_options.merge_operator = std::make_shared<CounterMergeOperator>();

  std::string path = options.path;
  if (options.in_memory) {
    rep->memory_env.reset(rocksdb::NewMemEnv(rocksdb::Env::Default()));
    db_options.env = rep->memory_env.get();
    path = "/orrery-in-memory";
  } else {
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    if (ec) {
      return Status::IoError("cannot create data directory " + path + ": " + ec.message());
    }
  }

  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, path, &db);
  if (!s.ok()) {
    if (s.IsIOError() && s.ToString().find("lock") != std::string::npos) {
      return Status::IoError("data directory " + path +
                             " is in use by another process (its LOCK file is held)");
    }
    return Status::IoError("cannot open data directory " + path + ": " + s.ToString());
  }
  rep->db.reset(db);
  rep->write_options.sync = options.sync_writes;
  rep->write_options.disableWAL = false;
  rep->synced_write_options.sync = !options.in_memory;
  return std::unique_ptr<Store>(new Store(std::move(rep)));
}

Result<std::optional<std::string>> Store::Get(std::string_view key) const {
  std::string value;
  rocksdb::Status s = rep_->db->Get(rocksdb::ReadOptions(), ToSlice(key), &value);
  if (s.IsNotFound()) {
    return std::optional<std::string>();
  }
  ORRERY_RETURN_IF_ERROR(FromRocks(s));
  return std::optional<std::string>(std::move(value));
}

Status Store::Write(WriteBatch& batch) {
  return FromRocks(rep_->db->Write(rep_->write_options, &batch.rep_->batch));
}

Status Store::WriteSynced(WriteBatch& batch) {
  return FromRocks(rep_->db->Write(rep_->synced_write_options, &batch.rep_->batch));
}

uint64_t Store::ApproximateBytes(std::string_view begin, std::string_view end) const {
  const rocksdb::Range range(ToSlice(begin), ToSlice(end));
  uint64_t bytes = 0;
  rocksdb::SizeApproximationOptions options;
  options.include_memtables = true;
  options.include_files = true;
  rep_->db->GetApproximateSizes(options, rep_->db->DefaultColumnFamily(), &range, 1, &bytes)
      .PermitUncheckedError();
  return bytes;
}

Status Store::CompactAll() {
  ORRERY_RETURN_IF_ERROR(FromRocks(rep_->db->Flush(rocksdb::FlushOptions())));
  rocksdb::CompactRangeOptions options;
  options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  return FromRocks(rep_->db->CompactRange(options, nullptr, nullptr));
}

Status Store::Scan(std::string_view begin, std::string_view end,
                   const std::function<bool(std::string_view, std::string_view)>& visit,
                   ScanMode mode) const {
  rocksdb::ReadOptions read_options;
  // A bulk scan reads far more than the block cache holds; caching its blocks would
  // only evict the hot ones that point reads use.
  read_options.fill_cache = mode != ScanMode::kBulk;
  rocksdb::Slice upper = ToSlice(end);
  read_options.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it(rep_->db->NewIterator(read_options));
  for (it->Seek(ToSlice(begin)); it->Valid(); it->Next()) {
    rocksdb::Slice k = it->key();
    rocksdb::Slice v = it->value();
    if (!visit(std::string_view(k.data(), k.size()), std::string_view(v.data(), v.size()))) {
      break;
    }
  }
  return FromRocks(it->status());
}

Status Store::ScanReverse(
    std::string_view begin, std::string_view end,
    const std::function<bool(std::string_view, std::string_view)>& visit) const {
  rocksdb::ReadOptions read_options;
  rocksdb::Slice lower = ToSlice(begin);
  rocksdb::Slice upper = ToSlice(end);
  read_options.iterate_lower_bound = &lower;
  read_options.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it(rep_->db->NewIterator(read_options));
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    rocksdb::Slice k = it->key();
    rocksdb::Slice v = it->value();
    if (!visit(std::string_view(k.data(), k.size()), std::string_view(v.data(), v.size()))) {
      break;
    }
  }
  return FromRocks(it->status());
}

}  // namespace orrery::storage
