// Reading items through a composite index (composite_plan.h): in the composite's order
// for ORDER BY, or as the key suffixes of the entries an equality prefix and a range
// select. The scan can start after any position (index::CompositePosition), which is
// what a continuation resuming an ORDER BY through the index needs.

#include <algorithm>
#include <chrono>

#include "engine/container.h"
#include "engine/item_record.h"
#include "index/composite_key.h"
#include "index/index_key.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

using Clock = std::chrono::steady_clock;

double MillisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The entries of one partition the use selects: its equal components (one range per
// combination of IN values, in key order), then its range.
std::vector<index::KeyRange> SelectedEntries(const CompositeUse& use,
                                             std::string_view composite_prefix) {
  const std::vector<index::CompositePath>& components = use.index->paths;
  std::vector<std::string> prefixes{std::string(composite_prefix)};
  for (size_t i = 0; i < use.equal_values.size(); ++i) {
    std::vector<std::string> longer;
    for (const std::string& prefix : prefixes) {
      for (const json::Value& value : use.equal_values[i]) {
        longer.push_back(prefix);
        index::AppendComponent(longer.back(), value, components[i].descending);
      }
    }
    prefixes = std::move(longer);
  }
  std::sort(prefixes.begin(), prefixes.end());
  prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
  std::vector<index::KeyRange> ranges;
  for (const std::string& prefix : prefixes) {
    if (use.range == nullptr) {
      ranges.push_back(index::ComponentsPrefixRange(prefix));
      continue;
    }
    const query::PathPredicate& range = *use.range;
    const bool descending = components[use.equal_values.size()].descending;
    if (range.kind == query::PathPredicate::Kind::kPrefix) {
      ranges.push_back(index::ComponentStringPrefixRange(prefix, range.prefix, descending));
      continue;
    }
    ranges.push_back(index::ComponentRange(prefix, range.low ? &*range.low : nullptr,
                                           range.low_inclusive, range.high ? &*range.high : nullptr,
                                           range.high_inclusive, descending));
  }
  return ranges;
}

}  // namespace

Status Container::ScanCompositeEntries(
    const CompositeUse& use, const PhysicalPartition& partition, const ReadScope& scope,
    const index::CompositePosition* after, FeedPage& page,
    const std::function<bool(const index::CompositeEntryView&)>& visit) const {
  const std::string prefix = index::CompositePrefix(settings_.number, partition.number, use.number);
  std::vector<index::KeyRange> ranges = SelectedEntries(use, prefix);
  if (use.reverse) std::reverse(ranges.begin(), ranges.end());
  bool go_on = true;
  const auto on_key = [&](std::string_view key, std::string_view) {
    std::optional<index::CompositeEntryView> entry =
        index::ParseCompositeEntry(key.substr(prefix.size()), *use.index);
    if (!entry) return true;
    ++page.index_entries;
    if (!scope.Contains(entry->epk)) return true;
    go_on = visit(*entry);
    return go_on;
  };
  for (index::KeyRange& range : ranges) {
    if (after != nullptr) {
      std::string at = index::CompositePositionKey(prefix, *after);
      if (use.reverse) {
        range.end = std::min(range.end, at);
      } else {
        at += '\0';  // the first key after `at`
        range.begin = std::max(range.begin, at);
      }
    }
    if (range.begin >= range.end) continue;
    ORRERY_RETURN_IF_ERROR(use.reverse ? store_.ScanReverse(range.begin, range.end, on_key)
                                       : store_.Scan(range.begin, range.end, on_key));
    if (!go_on) break;
  }
  return Status::Ok();
}

Result<std::optional<std::string>> Container::LoadIndexedItem(std::string_view epk,
                                                              std::string_view id,
                                                              FeedPage& page) const {
  const auto start = Clock::now();
  ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                          store_.Get(storage::keys::ItemsFrom(settings_.number, "") +
                                     storage::keys::ItemSuffix(epk, id)));
  page.document_load_ms += MillisSince(start);
  if (!stored) return std::optional<std::string>();  // deleted since the entry was read
  std::optional<ItemRecordView> record = DecodeItemRecord(*stored);
  if (!record || IsGone(epk, *record)) return std::optional<std::string>();
  page.loaded_bytes += record->json.size();
  ++page.loaded_count;
  return std::optional<std::string>(std::string(record->json));
}

Status Container::VisitInCompositeOrder(const CompositeUse& use, const PhysicalPartition& partition,
                                        const ReadScope& scope,
                                        const index::CompositePosition* after, FeedPage& page,
                                        const CompositeVisit& visit) const {
  Status load_status;
  ORRERY_RETURN_IF_ERROR(ScanCompositeEntries(
      use, partition, scope, after, page, [&](const index::CompositeEntryView& entry) {
        Result<std::optional<std::string>> json = LoadIndexedItem(entry.epk, entry.id, page);
        if (!json.ok()) {
          load_status = json.status();
          return false;
        }
        return !*json || visit(entry, **json);
      }));
  return load_status;
}

Status Container::CollectCompositeKeys(const CompositeUse& use, const ReadScope& scope,
                                       std::string_view resume_after, FeedPage& page,
                                       std::vector<std::string>& keys) const {
  const auto start = Clock::now();
  for (const PhysicalPartition* partition : PartitionsIn(scope)) {
    ORRERY_RETURN_IF_ERROR(ScanCompositeEntries(
        use, *partition, scope, nullptr, page, [&](const index::CompositeEntryView& entry) {
          std::string suffix = storage::keys::ItemSuffix(entry.epk, entry.id);
          if (suffix > resume_after) keys.push_back(std::move(suffix));
          return true;
        }));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  page.index_lookup_ms += MillisSince(start);
  return Status::Ok();
}

}  // namespace orrery::engine
