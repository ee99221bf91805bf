// The change feed in latest-version mode (wire-protocol.md §12), and the LSN
// bookkeeping that keeps it from skipping writes: LSNs are handed out before a write
// reaches the store, so two writes can land out of LSN order. The feed only reads up
// to the stable LSN, below every write still in flight.

#include <algorithm>

#include "engine/change_feed.h"
#include "engine/container.h"
#include "engine/creation_order.h"
#include "engine/item_record.h"
#include "json/json.h"
#include "json/member_scan.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

// The LSNs this thread registered and not yet released, oldest first. A thread runs
// one write at a time (a patch's replace nests inside it, on the same thread), so a
// CommitScope releases exactly what was registered while it was open.
thread_local std::vector<std::pair<ContainerWriteState*, uint64_t>> registered_lsns;

// The item with `_lsn` after its other members.
std::string WithLsn(std::string_view json, uint64_t lsn) {
  std::string out(json.substr(0, json.rfind('}')));
  out += ",\"_lsn\":" + std::to_string(lsn) + "}";
  return out;
}

}  // namespace

Result<uint64_t> Container::AllocateLsn() {
  ContainerWriteState& state = *write_state_;
  std::lock_guard lock(state.lsn_mutex);
  ORRERY_ASSIGN_OR_RETURN(uint64_t lsn, state.item_numbers->Next());
  state.in_flight_lsns.insert(lsn);
  registered_lsns.emplace_back(&state, lsn);
  return lsn;
}

// The container is named for the reader: the scope covers its writes on this thread.
Container::CommitScope::CommitScope(const Container& /*container*/)
    : first_(registered_lsns.size()), first_presence_(PresenceMark()) {}

void Container::CommitScope::Committed() {
  ApplyPresence(first_presence_);
  first_presence_ = PresenceMark();
}

Container::CommitScope::~CommitScope() {
  DropPresence(first_presence_);
  for (size_t i = first_; i < registered_lsns.size(); ++i) {
    ContainerWriteState& state = *registered_lsns[i].first;
    std::lock_guard lock(state.lsn_mutex);
    auto it = state.in_flight_lsns.find(registered_lsns[i].second);
    if (it != state.in_flight_lsns.end()) state.in_flight_lsns.erase(it);
  }
  registered_lsns.resize(first_);
}

uint64_t Container::StableLsn() const {
  ContainerWriteState& state = *write_state_;
  std::lock_guard lock(state.lsn_mutex);
  return state.in_flight_lsns.empty() ? state.item_numbers->last()
                                      : *state.in_flight_lsns.begin() - 1;
}

Result<Container::ChangeFeedPage> Container::ReadChangeFeed(const ReadScope& scope,
                                                            uint64_t after_lsn,
                                                            std::optional<int64_t> since_ts,
                                                            int max_items) const {
  const uint64_t stable = StableLsn();
  // After StableLsn: every write up to it is applied whole, and the view's snapshot
  // holds it (a write's keys are visible one by one only while it is applied).
  const storage::Store::ReadView view(store_);
  ChangeFeedPage page;
  // Everything up to `complete` has been read from every partition.
  uint64_t complete = stable;
  struct Change {
    uint64_t lsn;
    std::string json;
  };
  std::vector<Change> changes;
  const size_t limit = static_cast<size_t>(std::max(max_items, 1));
  // Reads one list of a partition's entries, keyed by LSN from `begin`, until `limit`
  // changes or kMaxPageBytes; `lsn_of` reads an entry key's LSN.
  const auto read_list = [&](const std::string& begin, const std::string& end,
                             std::optional<uint64_t> (*lsn_of)(std::string_view)) -> Status {
    size_t taken = 0;
    size_t taken_bytes = 0;
    uint64_t last_taken = 0;
    Status status;
    ORRERY_RETURN_IF_ERROR(
        store_.Scan(begin, end, [&](std::string_view key, std::string_view suffix) {
          std::optional<uint64_t> lsn = lsn_of(key);
          if (!lsn || *lsn > stable) return false;
          const size_t zero = suffix.find('\0');
          if (zero == std::string_view::npos || !scope.Contains(suffix.substr(0, zero))) {
            return true;
          }
          std::string item_key = storage::keys::ItemsFrom(settings_.number, "");
          item_key += suffix;
          Result<std::optional<std::string>> stored = store_.Get(item_key);
          if (!stored.ok()) {
            status = stored.status();
            return false;
          }
          std::optional<ItemRecordView> record =
              *stored ? DecodeItemRecord(**stored) : std::nullopt;
          // Rewritten since this entry was written: its version now has a later entry.
          if (!record || record->lsn != *lsn || IsGone(suffix.substr(0, zero), *record)) {
            return true;
          }
          if (since_ts) {
            std::optional<int64_t> ts;
            static const std::vector<std::string> kTs{"_ts"};
            if (std::optional<json::Value> m = json::ParseTopLevelMembers(record->json, kTs)) {
              if (const json::Value* t = m->Find("_ts"); t && t->is_number()) {
                ts = static_cast<int64_t>(t->as_double());
              }
            }
            if (ts && *ts < *since_ts) return true;
          }
          page.loaded_bytes += record->json.size();
          changes.push_back(Change{*lsn, WithLsn(record->json, *lsn)});
          taken_bytes += changes.back().json.size();
          last_taken = *lsn;
          return ++taken < limit && taken_bytes < kMaxPageBytes;
        }));
    ORRERY_RETURN_IF_ERROR(status);
    // A list cut at the page size is complete only up to its last change.
    if (taken == limit || taken_bytes >= kMaxPageBytes) complete = std::min(complete, last_taken);
    return Status::Ok();
  };
  const uint32_t n = settings_.number;
  for (const PhysicalPartition* partition : PartitionsIn(scope)) {
    const uint32_t p = partition->number;
    // A version written by a create is filed under its creation-order entry alone, whose
    // number is its LSN (creation_order.h); later versions have change-feed entries.
    ORRERY_RETURN_IF_ERROR(
        read_list(CreationBegin(n, p, after_lsn), CreationEnd(n, p), &CreationNumberOf));
    ORRERY_RETURN_IF_ERROR(
        read_list(ChangeFeedBegin(n, p, after_lsn), ChangeFeedEnd(n, p), &ChangeFeedLsnOf));
  }
  // Across partitions, modification order is LSN order (LSNs are container-wide).
  std::sort(changes.begin(), changes.end(),
            [](const Change& a, const Change& b) { return a.lsn < b.lsn; });
  // Stores written before creates were filed under their creation-order entry alone hold
  // both entries for such versions: one LSN is one version.
  changes.erase(std::unique(changes.begin(), changes.end(),
                            [](const Change& a, const Change& b) { return a.lsn == b.lsn; }),
                changes.end());
  while (!changes.empty() && changes.back().lsn > complete) changes.pop_back();
  // The page ends at `limit` changes or after the change that reaches kMaxPageBytes.
  size_t keep = 0;
  size_t bytes = 0;
  while (keep < changes.size() && keep < limit && bytes < kMaxPageBytes) {
    bytes += changes[keep++].json.size();
  }
  if (keep < changes.size()) {
    changes.resize(keep);
    complete = changes.back().lsn;
  }
  page.last_lsn = std::max(after_lsn, complete);
  for (Change& change : changes) page.documents.push_back(std::move(change.json));
  return page;
}

}  // namespace orrery::engine
