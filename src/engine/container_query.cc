// Container::Query: runs a compiled query over a scope (an EPK range, or one logical
// partition) of a container, one physical partition at a time, using the range index
// where the plan allows (index_plan.h):
//   - kLookup: the item keys matching one WHERE predicate come from index entries,
//     then only those items are loaded;
//   - kOrdered, kGrouped: items come in the order of the ORDER BY or group path from
//     the index, and each page resumes where the last ended (container_query_streams.cc);
//   - otherwise every item of the scope is read, in creation order.
// The whole WHERE is evaluated on every loaded item, so the index only narrows. Rows
// that keep the storage order stream (TOP, OFFSET and LIMIT count them); the shapes no
// index can order (ORDER BY with an equality seek, aggregates without GROUP BY, GROUP
// BY or DISTINCT over expressions only) are evaluated whole by their first page, which
// keeps the rest for the pages after it (result_cursors.h). An equality with
// one ORDER BY key is sought only while its matches are few enough that reading them on
// every page costs less than streaming the ORDER BY path (StreamingReadsLess).
// A page that runs past QueryPageTimeBudget ends early with a continuation.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "engine/container.h"
#include "engine/continuation_token.h"
#include "engine/creation_order.h"
#include "engine/full_text_index.h"
#include "engine/index_plan.h"
#include "engine/item_record.h"
#include "engine/partition/partition_key_path.h"
#include "engine/query_routing.h"
#include "engine/query_run.h"
#include "engine/result_cursors.h"
#include "index/index_key.h"
#include "index/index_scan.h"
#include "json/json.h"
#include "query/full_text_ranking.h"
#include "query/full_text_statistics.h"
#include "query/vector_references.h"
#include "storage/counter.h"
#include "storage/keys.h"

namespace orrery::engine {

namespace {

// The partition key's paths when a read stays in one logical partition: every item it
// reads holds the same value at each.
std::vector<query::DocumentPath> PinnedPaths(const partition::PartitionKeyDefinition& key,
                                             const ReadScope& scope) {
  std::vector<query::DocumentPath> paths;
  if (!scope.exact_epk || key.system_key) return paths;
  for (const std::string& path : key.paths) {
    Result<std::vector<std::string>> segments = partition::ParsePartitionKeyPath(path);
    if (segments.ok()) paths.push_back(std::move(*segments));
  }
  return paths;
}

std::atomic<int64_t> query_page_budget_ms{kServiceQueryPageTime.count()};
}  // namespace

std::chrono::milliseconds QueryPageTimeBudget() {
  return std::chrono::milliseconds(query_page_budget_ms.load(std::memory_order_relaxed));
}
void SetQueryPageTimeBudget(std::chrono::milliseconds budget) {
  query_page_budget_ms.store(budget.count(), std::memory_order_relaxed);
}

std::vector<index::KeyRange> RangesFor(const query::PathPredicate& predicate,
                                       std::string_view prefix) {
  std::vector<index::KeyRange> ranges;
  switch (predicate.kind) {
    case query::PathPredicate::Kind::kEqual:
      for (const json::Value& value : predicate.values) {
        ranges.push_back(index::IndexedEqualRange(prefix, value));
      }
      break;
    case query::PathPredicate::Kind::kRange:
      ranges.push_back(index::IndexedBoundedRange(
          prefix, predicate.low ? &*predicate.low : nullptr, predicate.low_inclusive,
          predicate.high ? &*predicate.high : nullptr, predicate.high_inclusive));
      break;
    case query::PathPredicate::Kind::kPrefix:
      ranges.push_back(index::IndexedStringPrefixRange(prefix, predicate.prefix));
      break;
    case query::PathPredicate::Kind::kFullText:
      break;  // stems first (FullTextLookupStems), then read as an equality
    case query::PathPredicate::Kind::kSpatial:
      for (const auto& [first, last] : predicate.cells) {
        const json::Value low = json::Value::Int(first);
        const json::Value high = json::Value::Int(last);
        ranges.push_back(index::BoundedRange(prefix, &low, true, &high, true));
      }
      break;
  }
  return ranges;
}

// Only the members the query reads are converted (CompiledQuery::item_members).
Result<json::Value> ParseForQuery(const query::CompiledQuery& query, std::string_view json) {
  json::ParseOptions options;
  options.only_members = query.item_members();
  return json::Parse(json, options);
}

std::optional<int64_t> ResultRowEnd(const query::CompiledQuery& query) {
  std::optional<int64_t> rows = query.limit();
  if (query.top()) rows = rows ? std::min(*rows, *query.top()) : *query.top();
  if (!rows) return std::nullopt;
  return query.offset().value_or(0) + *rows;
}

namespace {

using Clock = std::chrono::steady_clock;

double MillisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// What a kept result is served to: this query, over this scope of this container.
uint64_t CursorFingerprint(const query::CompiledQuery& query, const ReadScope& scope,
                           const std::string& container_rid) {
  std::string identity = std::to_string(query.fingerprint());
  for (const std::string* part : {&container_rid, &scope.range.min, &scope.range.max,
                                  scope.exact_epk ? &*scope.exact_epk : &container_rid}) {
    identity += '\0';
    identity += *part;
  }
  identity += scope.exact_epk ? '1' : '0';
  return std::hash<std::string>{}(identity);
}

// Adds the rows of a whole result from `start` until the page holds max_items rows or is
// full, or the result ends (at `total`); the row after the last added.
template <typename RowAt>
size_t AddResultRows(FeedPage& page, size_t start, size_t total, int max_items, RowAt row_at) {
  const size_t last = std::min(total, start + static_cast<size_t>(max_items));
  size_t end = start;
  for (; end < last && !page.full(); ++end) page.Add(row_at(end));
  return end;
}

// Up to this many index matches are put in creation order by reading their numbers;
// beyond, the creation lists are walked instead.
constexpr size_t kCandidatesToNumber = 512;
// About how many creation-list entries a walk steps over in the time of one item read.
constexpr double kListStepsPerRead = 16;

// A position after every item of a partition (item numbers stay far below it).
constexpr uint64_t kAfterEveryItem = uint64_t{1} << 62;

// The most items a creation-order scan reads in one batch.
constexpr size_t kMaxLoadBatch = 128;

std::string_view EpkOfSuffix(std::string_view suffix) {
  return suffix.substr(0, suffix.find('\0'));
}

// Where a partition's items start in creation order, given where the last page ended
// (continuation_token.h): partitions before the first range listed are done (nullopt);
// one inside a listed range (the one the page ended in, or one a split made of it or of
// a range still pending) goes on after that range's number; others start at the
// beginning.
std::optional<uint64_t> StartAfter(const PhysicalPartition& p,
                                   const std::vector<CreationPosition>* resume) {
  if (resume == nullptr || resume->empty()) return 0;
  if (p.max_exclusive != "FF" && p.max_exclusive <= resume->front().min) return std::nullopt;
  uint64_t after = 0;
  for (const CreationPosition& range : *resume) {
    if (!Intersect(EpkRange{range.min, range.max}, EpkRange{p.min_inclusive, p.max_exclusive})
             .empty()) {
      after = std::max(after, range.number);
    }
  }
  return after;
}

// Where the next page starts: after `ended` in its partition, and, beyond that partition,
// whatever the previous token still listed (the rest of a range a split divided).
std::vector<CreationPosition> NextResume(const CreationPosition& ended,
                                         const std::vector<CreationPosition>* previous) {
  std::vector<CreationPosition> next{ended};
  if (previous == nullptr || ended.max == "FF") return next;
  for (const CreationPosition& range : *previous) {
    const std::string& min = std::max(range.min, ended.max);
    if (range.max == "FF" || min < range.max) next.push_back({min, range.max, range.number});
  }
  return next;
}

}  // namespace

Result<std::optional<std::string>> Container::LoadItem(QueryRun& run,
                                                       std::string_view key_suffix) const {
  const auto start = Clock::now();
  std::string key = storage::keys::ItemsFrom(settings_.number, "");
  key += key_suffix;
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored, store_.Get(key));
  run.page.document_load_ms += MillisSince(start);
  if (!stored) return std::optional<std::string>();  // deleted since the entry was read
  std::optional<ItemRecordView> record = DecodeItemRecord(*stored);
  if (!record || IsGone(EpkOfSuffix(key_suffix), *record) ||
      (!record->indexed && run.skips_unindexed())) {
    return std::optional<std::string>();
  }
  run.page.loaded_bytes += record->json.size();
  ++run.page.loaded_count;
  return std::optional<std::string>(std::string(record->json));
}

Result<std::vector<std::optional<std::string>>> Container::LoadItems(
    QueryRun& run, const std::vector<std::pair<uint64_t, std::string>>& items) const {
  const auto start = Clock::now();
  std::vector<std::string> keys;
  keys.reserve(items.size());
  for (const auto& [number, suffix] : items) {
    keys.push_back(storage::keys::ItemsFrom(settings_.number, ""));
    keys.back() += suffix;
  }
  ORRERY_ASSIGN_OR_RETURN(std::vector<std::optional<std::string>> stored, store_.MultiGet(keys));
  run.page.document_load_ms += MillisSince(start);
  std::vector<std::optional<std::string>> out(stored.size());
  for (size_t i = 0; i < stored.size(); ++i) {
    if (!stored[i]) continue;  // deleted since the entry was read
    std::optional<ItemRecordView> record = DecodeItemRecord(*stored[i]);
    if (!record || IsGone(EpkOfSuffix(items[i].second), *record) ||
        (!record->indexed && run.skips_unindexed())) {
      continue;
    }
    out[i] = std::string(record->json);
  }
  return out;
}

Result<std::optional<int64_t>> Container::ItemsIn(const ReadScope& scope) const {
  if (scope.exact_epk) {
    ORRERY_ASSIGN_OR_RETURN(
        std::optional<std::string> counter,
        store_.Get(storage::keys::LogicalPartition(settings_.number, *scope.exact_epk)));
    if (!counter) return std::optional<int64_t>(0);
    std::optional<storage::Counter> decoded = storage::DecodeCounter(*counter);
    if (!decoded) return std::optional<int64_t>();
    return std::optional<int64_t>(decoded->count);
  }
  int64_t items = 0;
  for (const PhysicalPartition* partition : PartitionsIn(scope)) {
    std::optional<int64_t> counted = write_state_->presence.Items(partition->number);
    if (!counted) return std::optional<int64_t>();
    items += *counted;
  }
  return std::optional<int64_t>(items);
}

Result<bool> Container::StreamingReadsLess(const ReadScope& scope,
                                           const query::PathPredicate& equality, int max_items,
                                           FeedPage& page) const {
  ORRERY_ASSIGN_OR_RETURN(std::optional<int64_t> items, ItemsIn(scope));
  if (!items || *items == 0 || max_items <= 0) return false;
  // Seeking loads the M matches on every page; streaming about max_items x N / M items
  // (N items in scope). Streaming wins once M x M > max_items x N: count M up to there.
  const double bound = std::sqrt(static_cast<double>(max_items) * static_cast<double>(*items));
  int64_t matches = 0;
  for (const PhysicalPartition* partition : PartitionsIn(scope)) {
    const LookupRanges lookup = LookupRangesIn(partition->number, equality);
    for (const index::KeyRange& range : lookup.ranges) {
      ORRERY_RETURN_IF_ERROR(index::ScanEntries(store_, range, lookup.prefix.size(), false,
                                                [&](const index::EntryView& entry) {
                                                  ++page.index_entries;
                                                  if (scope.Contains(entry.epk)) ++matches;
                                                  return static_cast<double>(matches) <= bound;
                                                }));
      if (static_cast<double>(matches) > bound) return true;
    }
  }
  return false;
}

Container::LookupRanges Container::LookupRangesIn(uint32_t partition,
                                                  const query::PathPredicate& predicate) const {
  LookupRanges lookup;
  if (predicate.kind == query::PathPredicate::Kind::kFullText) {
    // The entries of its stems in the inverted index (which holds them whole), read as
    // equalities.
    lookup.prefix = FullTextPathPrefix(settings_.number, partition, predicate.path);
    for (const json::Value& stem : FullTextLookupStems(predicate, *full_text_)) {
      lookup.ranges.push_back(index::EqualRange(lookup.prefix, stem));
    }
    return lookup;
  }
  lookup.prefix = index::PathPrefix(settings_.number, partition, predicate.path);
  lookup.ranges = RangesFor(predicate, lookup.prefix);
  return lookup;
}

Status Container::CollectCandidateKeys(QueryRun& run, std::string_view resume_after,
                                       std::vector<std::string>& keys) const {
  if (run.plan.composite) {
    return CollectCompositeKeys(*run.plan.composite, run.scope, resume_after, run.page, keys);
  }
  const auto start = Clock::now();
  for (const PhysicalPartition* partition : PartitionsIn(run.scope)) {
    const LookupRanges lookup = LookupRangesIn(partition->number, *run.plan.predicate);
    for (const index::KeyRange& range : lookup.ranges) {
      ORRERY_RETURN_IF_ERROR(index::ScanEntries(
          store_, range, lookup.prefix.size(), false, [&](const index::EntryView& entry) {
            ++run.page.index_entries;
            if (!run.scope.Contains(entry.epk)) return true;
            std::string suffix = storage::keys::ItemSuffix(entry.epk, entry.id);
            if (suffix > resume_after) keys.push_back(std::move(suffix));
            return true;
          }));
    }
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  run.page.index_lookup_ms += MillisSince(start);
  return Status::Ok();
}

Status Container::ScanInCreationOrder(QueryRun& run, const std::vector<CreationPosition>* resume,
                                      const CreationVisit& visit,
                                      const std::unordered_set<std::string_view>* only,
                                      const WholePartitionRead* whole) const {
  const ReadScope& scope = run.scope;
  const uint32_t n = settings_.number;
  bool go_on = true;
  Status status;
  // The items a list names are read a batch at a time (one MultiGet), the batch growing
  // from a few (a page of one item reads little ahead) to kMaxLoadBatch.
  std::vector<std::pair<uint64_t, std::string>> pending;
  size_t batch = 4;
  for (const PhysicalPartition* p : PartitionsIn(scope)) {
    const std::optional<uint64_t> after = StartAfter(*p, resume);
    if (!after) continue;
    if (whole != nullptr && *after == 0) {
      ReadScope within = scope;
      within.range = Intersect(scope.range, EpkRange{p->min_inclusive, p->max_exclusive});
      ORRERY_ASSIGN_OR_RETURN(bool handled, (*whole)(*p, within, go_on));
      if (handled) {
        if (!go_on) break;
        continue;
      }
    }
    CreationPosition position{p->min_inclusive, p->max_exclusive, 0};
    const auto flush = [&] {
      if (pending.empty()) return go_on;
      Result<std::vector<std::optional<std::string>>> jsons = LoadItems(run, pending);
      if (!jsons.ok()) {
        status = jsons.status();
        return false;
      }
      for (size_t i = 0; i < pending.size() && go_on; ++i) {
        if (!(*jsons)[i]) continue;  // deleted or expired since the entry was read
        // Read ahead in a batch, charged as read only when visited (ru-model.md row 17).
        run.page.loaded_bytes += (*jsons)[i]->size();
        ++run.page.loaded_count;
        position.number = pending[i].first;
        go_on = visit(position, pending[i].second, *(*jsons)[i]);
      }
      pending.clear();
      batch = std::min(batch * 2, kMaxLoadBatch);
      return go_on;
    };
    const auto add = [&](uint64_t number, std::string suffix) {
      if (only != nullptr && only->count(suffix) == 0) return true;
      pending.emplace_back(number, std::move(suffix));
      return pending.size() < batch || flush();
    };
    if (scope.exact_epk) {
      // One logical partition: its own list, not the whole physical partition's.
      const std::string& epk = *scope.exact_epk;
      ORRERY_RETURN_IF_ERROR(
          store_.Scan(LogicalCreationBegin(n, epk, *after), LogicalCreationEnd(n, epk),
                      [&](std::string_view key, std::string_view id) {
                        const std::optional<uint64_t> number = CreationNumberOf(key);
                        return !number || add(*number, storage::keys::ItemSuffix(epk, id));
                      }));
    } else {
      ORRERY_RETURN_IF_ERROR(store_.Scan(
          CreationBegin(n, p->number, *after), CreationEnd(n, p->number),
          [&](std::string_view key, std::string_view suffix) {
            const std::optional<uint64_t> number = CreationNumberOf(key);
            if (!number || !scope.Contains(EpkOfSuffix(suffix))) return true;
            return add(*number, std::string(suffix));
          },
          storage::Store::ScanMode::kBulk));
    }
    if (status.ok()) flush();
    ORRERY_RETURN_IF_ERROR(status);
    if (!go_on) break;
  }
  return Status::Ok();
}

Status Container::VisitInCreationOrder(QueryRun& run, const std::vector<std::string>& keys,
                                       const std::vector<CreationPosition>* resume,
                                       const CreationVisit& visit) const {
  // The index gives keys, not numbers. Many keys, a good part of the scope: walk the
  // creation lists and take the items among them. Otherwise read each item's number from
  // its record (a rare word's 1,000 matches among 1,000,000 items: 1,000 reads instead of
  // a walk of a million entries, 211 ms a query before).
  if (keys.size() > kCandidatesToNumber) {
    ORRERY_ASSIGN_OR_RETURN(std::optional<int64_t> items, ItemsIn(run.scope));
    if (!items ||
        static_cast<double>(keys.size()) * kListStepsPerRead > static_cast<double>(*items)) {
      const std::unordered_set<std::string_view> only(keys.begin(), keys.end());
      return ScanInCreationOrder(run, resume, visit, &only);
    }
  }
  struct Candidate {
    size_t partition;  // position in the container's partitions, which are in EPK order
    uint64_t number;
    const std::string* key;
  };
  const std::vector<PhysicalPartition>& partitions = settings_.partitions.partitions();
  std::vector<Candidate> candidates;
  candidates.reserve(keys.size());
  for (const std::string& key : keys) {
    const PhysicalPartition& owner = settings_.partitions.Owner(EpkOfSuffix(key));
    const std::optional<uint64_t> after = StartAfter(owner, resume);
    if (!after) continue;
    std::string storage_key = storage::keys::ItemsFrom(settings_.number, "");
    storage_key += key;
    ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored, store_.Get(storage_key));
    std::optional<ItemRecordView> record =
        stored ? DecodeItemRecord(*stored) : std::optional<ItemRecordView>();
    if (!record) continue;
    const std::optional<uint64_t> number = ItemNumberOfJson(record->json);
    if (!number || *number <= *after) continue;
    candidates.push_back({static_cast<size_t>(&owner - partitions.data()), *number, &key});
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.partition != b.partition ? a.partition < b.partition : a.number < b.number;
  });
  for (const Candidate& c : candidates) {
    ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> json, LoadItem(run, *c.key));
    if (!json) continue;
    const PhysicalPartition& p = partitions[c.partition];
    if (!visit(CreationPosition{p.min_inclusive, p.max_exclusive, c.number}, *c.key, *json)) break;
  }
  return Status::Ok();
}

Result<FeedPage> Container::Query(const query::CompiledQuery& query,
                                  const ReadScope& requested_scope, int max_items,
                                  std::string_view continuation) const {
  // The page reads one point in time, with every write in it whole.
  const IndexReadiness readiness = ReadinessBeforeView();
  const storage::Store::ReadView view(store_);
  const bool index_ready = IndexServesView(readiness);
  if (query.ranks_by_score() && query.top()) {
    max_items =
        static_cast<int>(std::max<int64_t>(max_items, std::min<int64_t>(*query.top(), 100000)));
  }
  // Equality on the partition key keeps the query in its partition (query_routing.h).
  const ReadScope scope =
      NarrowScope(requested_scope, RouteQuery(settings_.partition_key, query.access_shape()));
  DecodedToken token;
  if (!continuation.empty()) {
    ORRERY_ASSIGN_OR_RETURN(token, DecodeToken(continuation));
  }
  FeedPage page;
  page.touched_partition_ids =
      scope.exact_epk ? std::vector<std::string>{settings_.partitions.Owner(*scope.exact_epk).id}
                      : settings_.partitions.OverlappingIds(scope.range);
  page.partitions_touched = static_cast<int>(page.touched_partition_ids.size());

  if (!query.reads_items()) {
    // `SELECT VALUE 1 + 2`: one evaluation, whatever the container holds.
    std::vector<query::Row> rows;
    ORRERY_RETURN_IF_ERROR(query.EvaluateDocument(json::Value(), rows));
    ORRERY_ASSIGN_OR_RETURN(std::vector<json::Value> result, query.Finish(std::move(rows)));
    for (const auto& value : result) page.Add(json::Write(value));
    return page;
  }

  // A statistics query's one row comes in its first page.
  const query::FullTextStatisticsQuery* statistics = query.full_text_statistics();
  if (statistics != nullptr && continuation.empty()) {
    ORRERY_ASSIGN_OR_RETURN(const bool answered,
                            AnswerFullTextStatistics(*statistics, scope, index_ready, page));
    if (answered) return page;
  }

  const auto plan_start = Clock::now();
  ORRERY_ASSIGN_OR_RETURN(IndexPlan plan,
                          PlanIndexUse(indexing_, query.access_shape(), index_ready,
                                       PinnedPaths(settings_.partition_key, scope)));
  if (std::optional<IndexPlan> ordered =
          OrderedAlternative(indexing_, query.access_shape(), plan)) {
    // An equality and one ORDER BY key: seeking the equality reads its matches on every
    // page (no index gives them in order); streaming the ORDER BY path reads about a
    // page of items per match rate and resumes. A later page goes on as the first did.
    bool stream = false;
    if (continuation.empty()) {
      ORRERY_ASSIGN_OR_RETURN(stream, StreamingReadsLess(scope, *plan.predicate, max_items, page));
    } else {
      stream = token.kind == DecodedToken::Kind::kOrdered;
    }
    if (stream) plan = *ordered;
  }
  if (plan.kind == IndexPlan::Kind::kLookup && plan.predicate != nullptr &&
      plan.predicate->kind == query::PathPredicate::Kind::kFullText && query.keeps_row_order() &&
      creation_order_kept()) {
    // Both walk the creation lists, so each page may choose: a common word's entries are
    // many, and reading items in creation order finds a page of matches sooner.
    const std::optional<int64_t> rows_end = ResultRowEnd(query);
    const int rows =
        rows_end ? static_cast<int>(std::min<int64_t>(max_items, *rows_end)) : max_items;
    ORRERY_ASSIGN_OR_RETURN(bool scan, StreamingReadsLess(scope, *plan.predicate, rows, page));
    if (scan) plan = IndexPlan();
  }
  page.plan_ms = MillisSince(plan_start);
  QueryRun run{query, scope, plan, page, {}, {}};
  // A token must be of the kind this query's execution issues.
  const auto expect_token = [&](std::initializer_list<DecodedToken::Kind> kinds) {
    return continuation.empty() || std::find(kinds.begin(), kinds.end(), token.kind) != kinds.end();
  };
  const DecodedToken* from_token = continuation.empty() ? nullptr : &token;
  page.index_utilization = DescribeIndexUse(indexing_, query.access_shape(), plan);
  if (plan.kind == IndexPlan::Kind::kOrdered || plan.kind == IndexPlan::Kind::kComposite) {
    if (!expect_token({DecodedToken::Kind::kOrdered})) return TokenOfAnotherQuery();
    ORRERY_RETURN_IF_ERROR(StreamOrdered(run, from_token, max_items));
    return page;
  }
  if (plan.kind == IndexPlan::Kind::kGrouped) {
    if (!expect_token({DecodedToken::Kind::kGroup})) return TokenOfAnotherQuery();
    ORRERY_RETURN_IF_ERROR(StreamGroups(run, from_token, max_items));
    return page;
  }
  Status eval_status;
  const auto evaluate = [&](std::string_view json) {
    Result<json::Value> doc = ParseForQuery(query, json);
    if (!doc.ok()) return true;
    eval_status = query.EvaluateDocument(*doc, run.rows, run.budget);
    return eval_status.ok();
  };

  if (!query.keeps_row_order()) {
    // Evaluated whole: no index gives these rows in the result's order. The first page
    // keeps what it does not return (result_cursors.h); later pages read from that.
    if (!expect_token({DecodedToken::Kind::kOffset})) return TokenOfAnotherQuery();
    const auto start = static_cast<size_t>(token.number);
    ResultCursors* cursors = write_state_->result_cursors.get();
    const uint64_t fingerprint = CursorFingerprint(query, scope, settings_.rid);
    if (token.cursor != 0 && cursors != nullptr) {
      if (std::shared_ptr<const ResultCursors::Kept> kept =
              cursors->Find(token.cursor, fingerprint)) {
        if (start < kept->first || start > kept->first + kept->rows.size()) {
          return TokenOfAnotherQuery();
        }
        const size_t end = AddResultRows(page, start, kept->first + kept->rows.size(), max_items,
                                         [&](size_t i) { return kept->rows[i - kept->first]; });
        if (end < kept->first + kept->rows.size()) {
          page.continuation = EncodeOffsetToken(end, token.cursor);
        } else {
          cursors->Release(token.cursor);
        }
        return page;
      }
    }
    const auto evaluate_in_order = [&](const CreationPosition&, std::string_view,
                                       std::string_view json) { return evaluate(json); };
    const query::VectorRanking* nearest = query.vector_ranking();
    const std::optional<uint32_t> vector_index =
        nearest != nullptr && index_ready ? VectorIndexOn(*nearest) : std::nullopt;
    // A ranking by one BM25 score reads the best items only (container_full_text_ranking.cc).
    bool ranked = false;
    const std::optional<int64_t> rows_end = ResultRowEnd(query);
    if (!vector_index && plan.kind == IndexPlan::Kind::kLookup &&
        query.full_text_ranking() != nullptr && rows_end) {
      ORRERY_ASSIGN_OR_RETURN(ranked, RankByTermFrequencies(run, *query.full_text_ranking(),
                                                            *rows_end, evaluate_in_order));
    }
    if (ranked) {
      // rows evaluated above
    } else if (vector_index) {
      ORRERY_RETURN_IF_ERROR(CollectNearest(run, *nearest, *vector_index, evaluate));
    } else if (plan.kind == IndexPlan::Kind::kLookup) {
      std::vector<std::string> keys;
      ORRERY_RETURN_IF_ERROR(CollectCandidateKeys(run, "", keys));
      if (creation_order_kept()) {
        ORRERY_RETURN_IF_ERROR(VisitInCreationOrder(run, keys, nullptr, evaluate_in_order));
      } else {
        for (const std::string& key : keys) {
          ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> json, LoadItem(run, key));
          if (json && !evaluate(*json)) break;
        }
      }
    } else if (creation_order_kept()) {
      ORRERY_RETURN_IF_ERROR(ScanInCreationOrder(run, nullptr, evaluate_in_order));
    } else {
      ORRERY_RETURN_IF_ERROR(ScanScope(
          scope, "",
          [&](std::string_view, std::string_view json) {
            page.loaded_bytes += json.size();
            ++page.loaded_count;
            return evaluate(json);
          },
          run.skips_unindexed()));
    }
    ORRERY_RETURN_IF_ERROR(eval_status);
    ORRERY_ASSIGN_OR_RETURN(std::vector<json::Value> result, query.Finish(std::move(run.rows)));
    if (start > result.size()) return TokenOfAnotherQuery();
    const size_t end = AddResultRows(page, start, result.size(), max_items,
                                     [&](size_t i) { return json::Write(result[i]); });
    if (end < result.size()) {
      uint64_t cursor = 0;
      if (cursors != nullptr) {
        ResultCursors::Kept rest;
        rest.first = end;
        rest.rows.reserve(result.size() - end);
        for (size_t i = end; i < result.size(); ++i) rest.rows.push_back(json::Write(result[i]));
        cursor = cursors->Keep(fingerprint, std::move(rest));
      }
      page.continuation = EncodeOffsetToken(end, cursor);
    }
    return page;
  }

  // Rows stream in the service's order (creation order within each physical partition;
  // key order for data of a read-only store that lists no creation order); a page ends
  // after max_items rows, or when it runs out of time. OFFSET skips rows and LIMIT and
  // TOP end them, counted across pages (ru-model.md row 18: skipped rows are read).
  const int64_t offset = query.offset().value_or(0);
  const std::optional<int64_t> end = ResultRowEnd(query);
  const auto done = [&](int64_t emitted) { return end && emitted >= *end; };
  int64_t emitted = token.number;
  // Key order: where the page resumed, until an item is visited whole.
  std::string last_key = token.key_suffix;
  CreationPosition last_position;
  bool more = false;
  bool visited = false;
  const auto room_left = [&] {
    return static_cast<int>(page.documents.size()) < max_items && !page.full();
  };
  const auto add_row = [&](std::string row) {
    if (emitted >= offset) page.Add(std::move(row));
    ++emitted;
  };
  // An item with more rows (a JOIN's) than the page has room for: its number and the
  // rows of it returned, so that the next page starts among them.
  size_t skip_in_item = token.in_item_rows;
  std::optional<std::pair<uint64_t, size_t>> cut;
  const bool in_creation_order = creation_order_kept();
  const auto visit = [&](std::string_view key, std::string_view json) {
    if (done(emitted)) return false;
    // A page holds at least one row, so that it always advances.
    if (!room_left() || (visited && run.out_of_time())) {
      more = true;
      return false;
    }
    visited = true;
    run.rows.clear();
    run.budget = query::RowBudget();  // the rows of earlier items are gone
    if (!evaluate(json)) return false;
    // Read from the item's _rid only where a page starts or ends among its rows.
    const auto number = [&] { return ItemNumberOfJson(json).value_or(0); };
    size_t i = 0;
    if (skip_in_item > 0) {
      // The rows the last page returned, if this is still the item it ended in.
      if (number() == token.in_item) i = std::min(skip_in_item, run.rows.size());
      skip_in_item = 0;
    }
    for (; i < run.rows.size() && !done(emitted); ++i) {
      if (!room_left()) {
        cut.emplace(number(), i);
        more = true;
        return false;
      }
      add_row(json::Write(run.rows[i].value));
    }
    last_key.assign(key);
    return true;
  };
  const auto visit_in_order = [&](const CreationPosition& position, std::string_view key,
                                  std::string_view json) {
    if (!visit(key, json)) {
      // Ended among the item's rows: the next page starts at the item.
      if (cut) last_position = CreationPosition{position.min, position.max, position.number - 1};
      return false;
    }
    last_position = position;
    return true;
  };
  if (!expect_token(
          {in_creation_order ? DecodedToken::Kind::kCreation : DecodedToken::Kind::kKey})) {
    return TokenOfAnotherQuery();
  }
  const std::vector<CreationPosition>* from = continuation.empty() ? nullptr : &token.positions;
  if (plan.kind == IndexPlan::Kind::kLookup) {
    std::vector<std::string> keys;
    ORRERY_RETURN_IF_ERROR(
        CollectCandidateKeys(run, in_creation_order ? "" : token.key_suffix, keys));
    if (in_creation_order) {
      ORRERY_RETURN_IF_ERROR(VisitInCreationOrder(run, keys, from, visit_in_order));
    } else {
      for (const std::string& key : keys) {
        ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> json, LoadItem(run, key));
        if (json && !visit(key, *json)) break;
      }
    }
  } else if (in_creation_order) {
    // A partition whose matching rows all fit in what the page still holds is read in key
    // order (sequential, several times cheaper than item by item in creation order) and
    // its rows sorted by creation; one with more falls back to the creation-order walk.
    const WholePartitionRead whole = [&](const PhysicalPartition& partition,
                                         const ReadScope& within, bool& go_on) -> Result<bool> {
      // (A page that starts among an item's rows walks to that item.)
      if (!room_left() || skip_in_item > 0) return false;
      // Rows OFFSET still skips take no room on the page.
      const size_t room = static_cast<size_t>(max_items) - page.documents.size() +
                          static_cast<size_t>(std::max<int64_t>(offset - emitted, 0));
      const size_t loaded_bytes = page.loaded_bytes;
      const size_t loaded_count = page.loaded_count;
      std::vector<std::pair<uint64_t, std::string>> found;
      size_t found_bytes = 0;
      bool overflow = false;
      ORRERY_RETURN_IF_ERROR(ScanScope(
          within, "",
          [&](std::string_view, std::string_view json) {
            // Rows read in key order are returned only once the partition is read whole: one
            // that takes too long is walked in creation order instead, which a page may end
            // anywhere in when its time is up.
            if (run.half_time_spent()) {
              overflow = true;
              return false;
            }
            page.loaded_bytes += json.size();
            ++page.loaded_count;
            run.rows.clear();
            run.budget = query::RowBudget();
            if (!evaluate(json)) return false;
            if (run.rows.empty()) return true;
            const uint64_t number = ItemNumberOfJson(json).value_or(0);
            for (const query::Row& row : run.rows) {
              found.emplace_back(number, json::Write(row.value));
              found_bytes += found.back().second.size();
            }
            overflow = found.size() > room || page.document_bytes + found_bytes > kMaxPageBytes;
            return !overflow;
          },
          run.skips_unindexed()));
      ORRERY_RETURN_IF_ERROR(eval_status);
      if (overflow) {
        // Read again by the walk: charge each item once.
        page.loaded_bytes = loaded_bytes;
        page.loaded_count = loaded_count;
        return false;
      }
      std::stable_sort(found.begin(), found.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (auto& [number, row] : found) {
        if (done(emitted)) break;
        add_row(std::move(row));
      }
      visited = true;
      // The whole partition is done: a later page starts after every number in it.
      last_position =
          CreationPosition{partition.min_inclusive, partition.max_exclusive, kAfterEveryItem};
      go_on = !done(emitted);
      return true;
    };
    ORRERY_RETURN_IF_ERROR(ScanInCreationOrder(run, from, visit_in_order, nullptr, &whole));
  } else {
    ORRERY_RETURN_IF_ERROR(ScanScope(
        scope, token.key_suffix,
        [&](std::string_view key, std::string_view json) {
          page.loaded_bytes += json.size();
          ++page.loaded_count;
          return visit(key, json);
        },
        run.skips_unindexed()));
  }
  ORRERY_RETURN_IF_ERROR(eval_status);
  if (more && !done(emitted)) {
    page.continuation = in_creation_order
                            ? EncodeCreationToken(NextResume(last_position, from), emitted,
                                                  cut ? cut->second : 0, cut ? cut->first : 0)
                        : cut ? EncodeKeyTokenInItem(last_key, emitted, cut->second, cut->first)
                              : EncodeKeyToken(last_key, emitted);
  }
  return page;
}

}  // namespace orrery::engine
