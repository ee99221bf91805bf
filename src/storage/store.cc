#include "storage/store.h"

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/sst_file_manager.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <cassert>
#include <chrono>
#include <filesystem>

#include "common/log.h"
#include "storage/column_families.h"
#include "storage/out_of_space_listener.h"
#include "storage/rocks_logger.h"
#include "storage/rocks_status.h"
#include "storage/writes_in_flight.h"

namespace orrery::storage {
namespace {

// The memtable size. After a full disk, RocksDB resumes writes once this much is free:
// it first flushes the memtable into a table file of about this size.
constexpr uint64_t kWriteBufferBytes = 16 << 20;
constexpr uint64_t kScratchWriteBufferBytes = 64 << 20;

Status ToStatus(const rocksdb::Status& s) { return FromRocks(s, kWriteBufferBytes); }

rocksdb::Slice ToSlice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }

// The ReadView open on this thread (one store at a time): its store and snapshot.
thread_local const Store* view_store = nullptr;
thread_local const rocksdb::Snapshot* view_snapshot = nullptr;

// How long a ReadView waits for earlier writes to be applied. Applying one takes
// microseconds; a write that waits longer (RocksDB delaying writers while compaction
// catches up) has not been given its sequence number yet, so it falls after the view's
// snapshot and is invisible to it anyway.
constexpr std::chrono::milliseconds kViewWaitLimit{200};

// Reads at the thread's view of `store`, if one is open.
rocksdb::ReadOptions ReadOptionsFor(const Store* store) {
  rocksdb::ReadOptions options;
  if (view_store == store) options.snapshot = view_snapshot;
  return options;
}

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

namespace {
rocksdb::ColumnFamilyHandle* BatchFamilyOf(std::string_view key) {
  return InDerivedFamily(key) ? DerivedFamilyInBatch() : nullptr;
}
}  // namespace

// A null family is the default one.
void WriteBatch::Put(std::string_view key, std::string_view value) {
  rep_->batch.Put(BatchFamilyOf(key), ToSlice(key), ToSlice(value)).PermitUncheckedError();
}
void WriteBatch::Delete(std::string_view key) {
  rep_->batch.Delete(BatchFamilyOf(key), ToSlice(key)).PermitUncheckedError();
}
void WriteBatch::AddToCounter(std::string_view key, const Counter& delta) {
  rep_->batch.Merge(BatchFamilyOf(key), ToSlice(key), EncodeCounter(delta)).PermitUncheckedError();
}
void WriteBatch::DeleteRange(std::string_view begin, std::string_view end) {
  if (SpansFamilies(begin, end)) {
    rep_->batch.DeleteRange(DerivedFamilyInBatch(), ToSlice(begin), ToSlice(end))
        .PermitUncheckedError();
    rep_->batch.DeleteRange(nullptr, ToSlice(begin), ToSlice(end)).PermitUncheckedError();
    return;
  }
  rep_->batch.DeleteRange(BatchFamilyOf(begin), ToSlice(begin), ToSlice(end))
      .PermitUncheckedError();
}
size_t WriteBatch::count() const { return rep_->batch.Count(); }

struct Store::Rep {
  std::unique_ptr<rocksdb::Env> memory_env;  // outlives db
  std::unique_ptr<rocksdb::DB> db;
  // Owned by db; the derived family is the default one in a store opened read-only
  // before its derived keys were moved (column_families.h).
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::ColumnFamilyHandle* default_family = nullptr;
  rocksdb::ColumnFamilyHandle* derived_family = nullptr;
  rocksdb::ColumnFamilyHandle* FamilyOf(std::string_view key) const {
    return InDerivedFamily(key) ? derived_family : default_family;
  }
  rocksdb::WriteOptions write_options;
  rocksdb::WriteOptions synced_write_options;
  std::shared_ptr<OutOfSpaceListener> space;  // on disk only
  // Opened read-only because the disk was full at start; writes wait for a restart.
  bool read_only = false;
  std::string directory;  // empty in memory
  uint64_t sequence_at_open = 0;
  WritesInFlight writes;
};

Store::Store(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

Store::~Store() {
  if (rep_ && rep_->db) {
    for (rocksdb::ColumnFamilyHandle* handle : rep_->handles) {
      rep_->db->DestroyColumnFamilyHandle(handle).PermitUncheckedError();
    }
    rep_->db->Close().PermitUncheckedError();  // best effort: the WAL already holds every write
  }
}

Result<std::unique_ptr<Store>> Store::Open(const StoreOptions& options) {
  auto rep = std::make_unique<Rep>();
  rocksdb::Options db_options;
  db_options.create_if_missing = true;
  db_options.max_background_jobs = 2;
  db_options.write_buffer_size = options.scratch ? kScratchWriteBufferBytes : kWriteBufferBytes;
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
  // A point lookup binary-searches the restart points of its 16 KB block and then
  // walks the entries after one; a hash index inside each block finds the entry in
  // one probe. Tables written before hold no such index and are read as before.
  table_options.data_block_index_type =
      rocksdb::BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinaryAndHash;
  // On a few cores, writer threads that spin-yield waiting for the group leader
  // burn the CPU the request threads need.
  db_options.enable_write_thread_adaptive_yield = false;
  // Every point lookup searches the memtables first, and most miss them: a create's
  // look-up of its id, and reads of items already flushed. A whole-key bloom filter
  // per memtable answers those misses without walking the skip list (a few cache
  // misses per level). It costs about 2% of the memtable's size.
  db_options.memtable_prefix_bloom_size_ratio = 0.02;
  db_options.memtable_whole_key_filtering = true;
  // Each writer applies its own batch to the memtable, in parallel with the others,
  // instead of the group's leader applying all of them while the rest sleep: creates
  // ran about 1.35x faster on 2 cores (bench/README.md). RocksDB then makes a write's
  // keys visible one by one while it is applied; reads that need writes whole read
  // through a ReadView.
  // With sync_writes the WAL's group syncs before anyone applies its batches, and
  // pipelined writes let the next group write and sync its records while the last one
  // applies them (unordered writes cannot be pipelined): 32 connections of synced
  // creates ran 6% faster, at 0.50-0.53 of unsynced ones instead of 0.47-0.51
  // (bench/README.md, stop 45).
  db_options.unordered_write = !options.sync_writes;
  db_options.enable_pipelined_write = options.sync_writes;
  db_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table_options));
  // Scans decompress every block they read; LZ4 decompresses about twice as fast as
  // the default Snappy for a similar ratio on JSON. Blocks written before keep their
  // own compression and stay readable.
  db_options.compression = options.scratch ? rocksdb::kNoCompression : rocksdb::kLZ4Compression;
  // Level 0 stays compressed too: written uncompressed (2% less CPU on creates), its
  // larger flushes met a full disk at another moment, where Debian's build of RocksDB 7.8
  // (still linked with `make ROCKSDB_DIR=`) aborts on an assertion in WritableFileWriter
  // (EngineFullDiskTest, 2 runs in 8).
  // Keys spread by the EPK hash made every leveled compaction from level 0 rewrite all of
  // level 1 (and level 1 all of level 2), so sustained inserts paid for their data again
  // at each level. Universal (tiered) compaction merges sorted runs of similar size
  // instead: over 40 s of creates on disk a create cost 15-20% less CPU, and the reads
  // after them less too (bench/sustained_writes.sh, bench/README.md). The price is disk
  // space: replaced versions stay until their runs merge (10,000 items upserted
  // for 40 s took 34-54 MB against 27-30 MB), and merging every run needs free space
  // the size of the store: a merge that finds the disk full is a full disk like any
  // other (out_of_space_listener.h; a 400 MB disk filled by creates answered 507 and
  // resumed as with leveled compaction). A store written with leveled compaction opens as
  // it is: its levels are sorted runs.
  db_options.compaction_style = rocksdb::kCompactionStyleUniversal;
  // Merge once 8 sorted runs are there (each flushed memtable is one): a point lookup
  // checks each run through its bloom filter; 4 cost creates 14% more.
  db_options.level0_file_num_compaction_trigger = 8;
  // A scratch store is loaded once and then read for a few seconds: compacting while it
  // loads cost orrery advise 15% of its CPU, more than its reads lose to the level-0
  // files left (bench/README.md). Writes must then never wait for compactions.
  if (options.scratch) {
    db_options.disable_auto_compactions = true;
    db_options.level0_slowdown_writes_trigger = 1 << 30;
    db_options.level0_stop_writes_trigger = 1 << 30;
    // Its memtables are dropped with it: flushing them at close (RocksDB does when the
    // WAL is off) writes tables nobody reads.
    db_options.avoid_flush_during_shutdown = true;
  }
  // Only counter keys are ever merged (WriteBatch::AddToCounter).
  db_options.merge_operator = std::make_shared<CounterMergeOperator>();

  db_options.info_log = NewForwardingLogger();

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
    // With an SstFileManager, RocksDB recovers from a full disk by itself: it polls
    // the free space and resumes writes once there is room (out_of_space_listener.h).
    db_options.sst_file_manager.reset(rocksdb::NewSstFileManager(rocksdb::Env::Default()));
    rep->space = std::make_shared<OutOfSpaceListener>(path, kWriteBufferBytes);
    db_options.listeners.push_back(rep->space);
  }

  db_options.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyDescriptor> families = {
      {rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions(db_options)},
      {kDerivedFamilyName, DerivedFamilyOptions(db_options, table_options, options.scratch)}};
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, path, families, &rep->handles, &db);
  if (!s.ok() && IsOutOfSpace(s)) {
    // Opening writes (the WAL replayed into a table file, a new MANIFEST and WAL), so it
    // fails on a full disk. Reading needs none of that: serve reads, refuse writes. A
    // store from before the derived family has none to open.
    std::vector<std::string> existing;
    if (rocksdb::DB::ListColumnFamilies(db_options, path, &existing).ok() && existing.size() == 1) {
      families.pop_back();
    }
    rocksdb::Status read_only =
        rocksdb::DB::OpenForReadOnly(db_options, path, families, &rep->handles, &db);
    if (!read_only.ok()) {
      return Status::IoError("cannot open data directory " + path +
                             ": the disk holding it is full (" + s.ToString() + ")");
    }
    Log(LogLevel::kError, "the disk holding the data directory " + path +
                              " is full, so it was opened read-only: reads go on, writes are "
                              "refused; free space and restart the server to write again");
    rep->read_only = true;
    s = rocksdb::Status::OK();
  }
  if (!s.ok()) {
    if (s.IsIOError() && s.ToString().find("lock") != std::string::npos) {
      return Status::IoError("data directory " + path +
                             " is in use by another process (its LOCK file is held)");
    }
    return Status::IoError("cannot open data directory " + path + ": " + s.ToString());
  }
  rep->db.reset(db);
  rep->default_family = rep->handles.front();
  rep->derived_family = rep->handles.back();
  if (!options.in_memory) rep->directory = path;
  rep->write_options.sync = options.sync_writes;
  rep->write_options.disableWAL = options.scratch;
  rep->synced_write_options.sync = !options.in_memory;
  rep->synced_write_options.disableWAL = options.scratch;
  // From here the store owns the handles (its destructor releases them), errors included.
  std::unique_ptr<Store> store(new Store(std::move(rep)));
  Rep& opened = *store->rep_;
  if (opened.handles.size() == 2 && opened.derived_family->GetID() != kDerivedFamilyId) {
    return Status::Corruption("data directory " + path + ": its column family \"" +
                              kDerivedFamilyName + "\" has id " +
                              std::to_string(opened.derived_family->GetID()) + ", not " +
                              std::to_string(kDerivedFamilyId));
  }
  if (opened.read_only) {
    // Not moved yet (a store from before the family, or a move cut short): the default
    // family still holds every derived key.
    bool moved = false;
    s = DerivedKeysMoved(*opened.db, opened.default_family, &moved);
    if (!s.ok()) return Status::IoError("cannot read data directory " + path + ": " + s.ToString());
    if (!moved) opened.derived_family = opened.default_family;
  } else {
    s = MoveDerivedKeysOnce(*opened.db, opened.default_family, opened.derived_family,
                            opened.synced_write_options);
    if (!s.ok()) {
      return Status::IoError("cannot move the index entries of data directory " + path +
                             " into their column family: " + s.ToString());
    }
  }
  opened.sequence_at_open = opened.db->GetLatestSequenceNumber();
  return store;
}

const std::string& Store::directory() const { return rep_->directory; }

uint64_t Store::LatestSequence() const { return rep_->db->GetLatestSequenceNumber(); }

uint64_t Store::SequenceAtOpen() const { return rep_->sequence_at_open; }

Result<std::optional<std::string>> Store::Get(std::string_view key) const {
  std::string value;
  rocksdb::Status s =
      rep_->db->Get(ReadOptionsFor(this), rep_->FamilyOf(key), ToSlice(key), &value);
  if (s.IsNotFound()) {
    return std::optional<std::string>();
  }
  ORRERY_RETURN_IF_ERROR(ToStatus(s));
  return std::optional<std::string>(std::move(value));
}

Result<std::vector<std::optional<std::string>>> Store::MultiGet(
    const std::vector<std::string>& keys) const {
  std::vector<rocksdb::Slice> slices;
  std::vector<rocksdb::ColumnFamilyHandle*> families;
  slices.reserve(keys.size());
  families.reserve(keys.size());
  for (const std::string& key : keys) {
    slices.emplace_back(key);
    families.push_back(rep_->FamilyOf(key));
  }
  std::vector<rocksdb::PinnableSlice> values(keys.size());
  std::vector<rocksdb::Status> statuses(keys.size());
  rep_->db->MultiGet(ReadOptionsFor(this), keys.size(), families.data(), slices.data(),
                     values.data(), statuses.data());
  std::vector<std::optional<std::string>> out(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    if (statuses[i].IsNotFound()) continue;
    ORRERY_RETURN_IF_ERROR(ToStatus(statuses[i]));
    out[i] = values[i].ToString();
  }
  return out;
}

Status Store::Write(WriteBatch& batch) { return Apply(batch, /*synced=*/false); }

Status Store::WriteSynced(WriteBatch& batch) { return Apply(batch, /*synced=*/true); }

Status Store::Apply(WriteBatch& batch, bool synced) {
  // A write's reads (of the records it replaces) must see the latest state, not a view.
  assert(view_store != this && "no writes from a thread that holds a ReadView of the store");
  if (rep_->read_only) return ReadOnlyAfterDiskFullError();
  const uint64_t ticket = rep_->writes.Begin();
  const rocksdb::Status s = rep_->db->Write(
      synced ? rep_->synced_write_options : rep_->write_options, &batch.rep_->batch);
  rep_->writes.End(ticket);
  // Right after RocksDB resumes from a full disk, a write may still meet the WAL
  // writer's error of then ("Writer has previous error"): still the full disk's doing,
  // and answered as such, for the client to retry.
  if (s.IsIOError() && rep_->space && rep_->space->was_out_of_space() &&
      s.ToString().find("Writer has previous error") != std::string::npos) {
    return DiskFullError(kWriteBufferBytes);
  }
  return ToStatus(s);
}

Store::ReadView::ReadView(const Store& store) {
  if (view_store == &store) return;  // nested: the outer view serves
  assert(view_store == nullptr && "a thread holds views of one store at a time");
  // The snapshot first: a write that begins after it gets a later sequence number and
  // stays invisible; the ones in flight now may be inside it, so wait for them.
  view_snapshot = store.rep_->db->GetSnapshot();
  view_store = &store;
  store_ = &store;
  WritesInFlight& writes = store.rep_->writes;
  writes.WaitForEarlier(writes.Issued(), kViewWaitLimit);
}

Store::ReadView::~ReadView() {
  if (store_ == nullptr) return;
  store_->rep_->db->ReleaseSnapshot(view_snapshot);
  view_snapshot = nullptr;
  view_store = nullptr;
}

Store::LatestReads::LatestReads() : store_(view_store), snapshot_(view_snapshot) {
  view_store = nullptr;
  view_snapshot = nullptr;
}

Store::LatestReads::~LatestReads() {
  view_store = store_;
  view_snapshot = static_cast<const rocksdb::Snapshot*>(snapshot_);
}

bool Store::OutOfSpace() const {
  return rep_->read_only || (rep_->space && rep_->space->out_of_space());
}

bool Store::ReadOnly() const { return rep_->read_only; }

uint64_t Store::ApproximateBytes(std::string_view begin, std::string_view end) const {
  const rocksdb::Range range(ToSlice(begin), ToSlice(end));
  rocksdb::SizeApproximationOptions options;
  options.include_memtables = true;
  options.include_files = true;
  uint64_t total = 0;
  for (rocksdb::ColumnFamilyHandle* family : rep_->handles) {
    if (!SpansFamilies(begin, end) && family != rep_->FamilyOf(begin)) continue;
    uint64_t bytes = 0;
    rep_->db->GetApproximateSizes(options, family, &range, 1, &bytes).PermitUncheckedError();
    total += bytes;
  }
  return total;
}

Status Store::CompactAll() {
  if (rep_->read_only) return ReadOnlyAfterDiskFullError();
  ORRERY_RETURN_IF_ERROR(ToStatus(rep_->db->Flush(rocksdb::FlushOptions(), rep_->handles)));
  rocksdb::CompactRangeOptions options;
  options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  for (rocksdb::ColumnFamilyHandle* family : rep_->handles) {
    ORRERY_RETURN_IF_ERROR(ToStatus(rep_->db->CompactRange(options, family, nullptr, nullptr)));
  }
  return Status::Ok();
}

Status Store::Scan(std::string_view begin, std::string_view end,
                   const std::function<bool(std::string_view, std::string_view)>& visit,
                   ScanMode mode) const {
  rocksdb::ReadOptions read_options = ReadOptionsFor(this);
  // A bulk scan reads far more than the block cache holds; caching its blocks would
  // only evict the hot ones that point reads use.
  read_options.fill_cache = mode != ScanMode::kBulk;
  rocksdb::Slice upper = ToSlice(end);
  read_options.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it(rep_->db->NewIterator(read_options, rep_->FamilyOf(begin)));
  for (it->Seek(ToSlice(begin)); it->Valid(); it->Next()) {
    rocksdb::Slice k = it->key();
    rocksdb::Slice v = it->value();
    if (!visit(std::string_view(k.data(), k.size()), std::string_view(v.data(), v.size()))) {
      break;
    }
  }
  return ToStatus(it->status());
}

Status Store::ScanReverse(
    std::string_view begin, std::string_view end,
    const std::function<bool(std::string_view, std::string_view)>& visit) const {
  rocksdb::ReadOptions read_options = ReadOptionsFor(this);
  rocksdb::Slice lower = ToSlice(begin);
  rocksdb::Slice upper = ToSlice(end);
  read_options.iterate_lower_bound = &lower;
  read_options.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it(rep_->db->NewIterator(read_options, rep_->FamilyOf(begin)));
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    rocksdb::Slice k = it->key();
    rocksdb::Slice v = it->value();
    if (!visit(std::string_view(k.data(), k.size()), std::string_view(v.data(), v.size()))) {
      break;
    }
  }
  return ToStatus(it->status());
}

}  // namespace orrery::storage
