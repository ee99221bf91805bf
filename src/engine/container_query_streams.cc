// Queries whose result comes in the order of one indexed path, resumed page after page
// from where the last page ended (continuation_token.h), so that reading N rows in pages
// reads each item about once:
//   - StreamOrdered: ORDER BY on one item path. A row's position is its encoded sort
//     value followed by its item key; a page reads, in each physical partition, the
//     items after the token's position until it has enough rows, and the next page
//     starts after the position of the last row returned.
//     With a composite index (composite_plan.h) the position is the entry's encoded
//     values, in the composite's order (descending components inverted), and its key.
//   - StreamGroups: GROUP BY on one item path, or DISTINCT of one item path (ordered by
//     it, either way, or not at all). The items of one value are adjacent in the index,
//     so each value's group is finished as soon as the next value starts; a page returns
//     whole groups and the next page starts after the value of the last.
// Items where the path is undefined have no index entries unless the path is included
// explicitly; they sort first, and are found by reading the partition in key order.
// Positions compare as byte strings: the value encoding is self-delimiting and ordered
// (index_key.h), the key suffix orders items of one value as their index entries.

#include <algorithm>
#include <deque>
#include <map>

#include "engine/container.h"
#include "engine/continuation_token.h"
#include "engine/query_run.h"
#include "index/composite_key.h"
#include "index/index_key.h"
#include "json/json.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

constexpr char kUndefinedTag = static_cast<char>(index::ValueTag::kUndefined);
// After every key suffix (they are uppercase hex EPKs, a 0x00 and an id of text).
constexpr char kAfterEveryKey = '\xff';

const json::Value& LookUp(const json::Value& document, const query::DocumentPath& path) {
  static const json::Value kUndefined;
  const json::Value* at = &document;
  for (const std::string& name : path) {
    if (!at->is_object()) return kUndefined;
    at = at->Find(name);
    if (at == nullptr) return kUndefined;
  }
  return *at;
}

// The index encoding of the value at `path`, where a computed property (the path's
// first name) counts as a member of the item, as the index holds it.
std::string EncodedValueAt(const query::ComputedProperties& computed, const json::Value& document,
                           const query::DocumentPath& path) {
  std::string encoded;
  const query::ComputedProperty* property = path.empty() ? nullptr : computed.Find(path.front());
  if (property == nullptr) {
    index::AppendValue(encoded, LookUp(document, path));
    return encoded;
  }
  const json::Value value = property->Evaluate(document);
  index::AppendValue(encoded, LookUp(value, query::DocumentPath(path.begin() + 1, path.end())));
  return encoded;
}

// The values at `path` in a document, through every element at an array step ("[]"),
// with a computed property (the path's first name) counted as a member.
void CollectValuesAt(const json::Value& at, const query::DocumentPath& path, size_t step,
                     std::vector<json::Value>& out) {
  if (step == path.size()) {
    out.push_back(at);
    return;
  }
  if (path[step] == "[]") {
    if (!at.is_array()) return;
    for (const json::Value& element : at.as_array()) CollectValuesAt(element, path, step + 1, out);
    return;
  }
  if (!at.is_object()) return;
  if (const json::Value* next = at.Find(path[step])) CollectValuesAt(*next, path, step + 1, out);
}

std::vector<json::Value> ValuesAt(const query::ComputedProperties& computed,
                                  const json::Value& document, const query::DocumentPath& path) {
  std::vector<json::Value> values;
  const query::ComputedProperty* property = path.empty() ? nullptr : computed.Find(path.front());
  if (property == nullptr) {
    CollectValuesAt(document, path, 0, values);
  } else {
    CollectValuesAt(property->Evaluate(document), path, 1, values);
  }
  return values;
}

// Whether a row at `position` comes after `after` in a stream's direction, or at it
// when `inclusive` (positions compare as byte strings; IndexRangeAfter's bounds).
bool Passes(std::string_view position, const std::string* after, bool descending, bool inclusive) {
  if (after == nullptr) return true;
  if (inclusive && position == *after) return true;
  return descending ? position < *after : position > *after;
}

// Where a stream of several partitions may end a page: the least far position any
// partition that stopped early reached (beyond it, that partition was not read).
class Frontier {
 public:
  explicit Frontier(bool descending) : descending_(descending) {}
  bool Before(std::string_view a, std::string_view b) const { return descending_ ? a > b : a < b; }
  void StoppedAt(std::string position) {
    if (!at_ || Before(position, *at_)) at_ = std::move(position);
  }
  // Whether `position` is within what every partition read.
  bool Covers(std::string_view position) const { return !at_ || !Before(*at_, position); }
  const std::optional<std::string>& at() const { return at_; }

 private:
  bool descending_;
  std::optional<std::string> at_;
};

// Rows to read beyond the token, and the rows already counted.
struct Paging {
  int64_t emitted = 0;
  int64_t offset = 0;
  std::optional<int64_t> end;
  bool done() const { return end && emitted >= *end; }
  // Rows a partition must provide for the page to be full (one more tells whether
  // another page follows).
  size_t Wanted(int max_items) const {
    int64_t wanted = std::max<int64_t>(offset - emitted, 0) + max_items + 1;
    if (end) wanted = std::min(wanted, *end - emitted);
    return static_cast<size_t>(std::max<int64_t>(wanted, 1));
  }
};

Paging PagingOf(const query::CompiledQuery& query, const DecodedToken* token) {
  return Paging{token != nullptr ? token->number : 0, query.offset().value_or(0),
                ResultRowEnd(query)};
}

}  // namespace

index::KeyRange Container::IndexRangeAfter(const QueryRun& run, const std::string& prefix,
                                           const std::string* after, bool descending) const {
  index::KeyRange range = run.plan.order_bound != nullptr
                              ? RangesFor(*run.plan.order_bound, prefix).front()
                              : index::AllEntries(prefix);
  if (after != nullptr) {
    // A long string's position lies within its group, which is read whole and ordered
    // by the items' values (VisitBoundedGroup).
    if (const std::optional<std::string> group = index::BoundedGroupOf(*after)) {
      if (descending) {
        range.end = std::min(range.end, prefix + *group + kAfterEveryKey);
      } else {
        range.begin = std::max(range.begin, prefix + *group);
      }
      return range;
    }
    std::string at = prefix + *after;
    // Entry keys are the prefix and a position: '\0' makes the bound pass just it.
    if (descending) {
      if (run.resume_at_position) at += '\0';
      range.end = std::min(range.end, at);
    } else {
      if (!run.resume_at_position) at += '\0';
      range.begin = std::max(range.begin, at);
    }
  }
  return range;
}

Result<std::vector<std::string>> Container::NextIndexedValues(
    QueryRun& run, const PhysicalPartition& partition, const query::DocumentPath& path,
    const std::string* after, bool descending, size_t wanted) const {
  std::vector<std::string> values;
  // A token among the items without the value (which have no entries): every indexed
  // value is still to come in ascending order, none in descending order.
  if (after != nullptr && !after->empty() && (*after)[0] == kUndefinedTag &&
      !run.plan.undefined_indexed && run.plan.order_bound == nullptr) {
    if (descending) return values;
    after = nullptr;
  }
  const std::string prefix = index::PathPrefix(settings_.number, partition.number, path);
  const index::KeyRange range = IndexRangeAfter(run, prefix, after, descending);
  // A bounded string's values are its items' own (VisitBoundedGroup).
  const auto add = [&](std::string_view value) {
    if (values.empty() || values.back() != value) values.emplace_back(value);
    return values.size() < wanted;
  };
  ORRERY_RETURN_IF_ERROR(ScanInValueOrder(
      run, path, prefix, range, descending, after,
      [&](const index::EntryView& entry) { return add(entry.value); },
      [&](std::string_view value, std::string_view, const json::Value&) { return add(value); }));
  return values;
}

Status Container::VisitInIndexOrder(QueryRun& run, const PhysicalPartition& partition,
                                    const query::DocumentPath& path, bool descending,
                                    const std::string* after, const PositionedVisit& visit) const {
  ReadScope within = run.scope;
  within.range =
      Intersect(run.scope.range, EpkRange{partition.min_inclusive, partition.max_exclusive});
  const bool complete = run.plan.undefined_indexed || run.plan.order_bound != nullptr;
  // Whether the token points into the items read by scan (undefined, not indexed).
  const bool after_undefined =
      after != nullptr && !complete && !after->empty() && (*after)[0] == kUndefinedTag;
  const std::string resume_key = after_undefined ? after->substr(1) : std::string();
  const std::string undefined(1, kUndefinedTag);
  bool go_on = true;
  Status status;

  // A stream across partitions resumes each of them from one position, so the item key
  // of the token may be another physical partition's: every item of a partition before
  // it is still to come in ascending order, none of one after it. Descending order
  // gathers a partition's undefined items from its start and skips those at or after it.
  std::string scan_from = resume_key;
  bool past_partition = false;
  if (!resume_key.empty() && resume_key[0] != kAfterEveryKey) {
    const uint32_t n = settings_.number;
    const std::string at = storage::keys::ItemsFrom(n, "") + resume_key;
    const std::string end = within.range.max == "FF"
                                ? storage::keys::ItemsEnd(n)
                                : storage::keys::ItemsFrom(n, within.range.max);
    if (at < storage::keys::ItemsFrom(n, within.range.min)) scan_from.clear();
    if (at >= end) past_partition = true;
  }
  const auto each_undefined =
      [&](const std::function<bool(std::string_view key, const json::Value& doc)>& each) {
        // After every key: none is left in ascending order, all are in descending order.
        if (!resume_key.empty() && resume_key[0] == kAfterEveryKey && !descending) {
          return Status::Ok();
        }
        if (!descending && past_partition) return Status::Ok();
        const std::string& from = descending ? std::string() : scan_from;
        return ScanScope(
            within, from,
            [&](std::string_view key, std::string_view json) {
              run.page.loaded_bytes += json.size();
              ++run.page.loaded_count;
              Result<json::Value> doc = ParseForQuery(run.query, json);
              if (!doc.ok() || EncodedValueAt(*computed_, *doc, path) != undefined) return true;
              return each(key, *doc);
            },
            run.skips_unindexed());
      };
  const std::string prefix = index::PathPrefix(settings_.number, partition.number, path);
  const bool elements = query::ThroughArrayElements(path);
  const auto undefined_in_key_order = [&]() -> Status {
    // Reading every item to find those without the value is needed only when some
    // item of the partition lacks it (path_presence.h).
    ORRERY_ASSIGN_OR_RETURN(const bool some_lack, SomeItemLacks(run, partition.number, prefix));
    if (!some_lack) return Status::Ok();
    if (descending) {
      // Key order reversed: the partition's undefined items are gathered first.
      std::vector<std::pair<std::string, json::Value>> items;
      ORRERY_RETURN_IF_ERROR(each_undefined([&](std::string_view key, const json::Value& doc) {
        items.emplace_back(std::string(key), doc);
        return true;
      }));
      for (auto it = items.rbegin(); it != items.rend() && go_on; ++it) {
        if (after_undefined && it->first >= resume_key) continue;
        go_on = visit(std::string_view(&kUndefinedTag, 1), it->first, it->second);
      }
      return Status::Ok();
    }
    return each_undefined([&](std::string_view key, const json::Value& doc) {
      go_on = visit(std::string_view(&kUndefinedTag, 1), key, doc);
      return go_on;
    });
  };
  const auto indexed = [&]() -> Status {
    const std::string* from = after_undefined ? nullptr : after;
    ORRERY_RETURN_IF_ERROR(ScanInValueOrder(
        run, path, prefix, IndexRangeAfter(run, prefix, from, descending), descending, from,
        [&](const index::EntryView& entry) {
          const std::string suffix = storage::keys::ItemSuffix(entry.epk, entry.id);
          std::optional<json::Value> doc = LoadForQuery(run, suffix, status);
          if (!doc) return status.ok();
          // An item changed since its entry was read is at its new value's place. (Along
          // array elements the visitor keeps only the rows of the entry's value.)
          if (!elements && EncodedValueAt(*computed_, *doc, path) != entry.value) return true;
          go_on = visit(entry.value, suffix, *doc);
          return go_on;
        },
        [&](std::string_view value, std::string_view key, const json::Value& doc) {
          go_on = visit(value, key, doc);
          return go_on;
        }));
    return status;
  };

  if (complete) return indexed();
  if (descending) {
    if (!after_undefined) ORRERY_RETURN_IF_ERROR(indexed());
    if (go_on) ORRERY_RETURN_IF_ERROR(undefined_in_key_order());
    return Status::Ok();
  }
  if (after == nullptr || after_undefined) ORRERY_RETURN_IF_ERROR(undefined_in_key_order());
  if (go_on) ORRERY_RETURN_IF_ERROR(indexed());
  return Status::Ok();
}

Status Container::ScanInValueOrder(QueryRun& run, const query::DocumentPath& path,
                                   const std::string& prefix, index::KeyRange range,
                                   bool descending, const std::string* after,
                                   const std::function<bool(const index::EntryView&)>& on_entry,
                                   const PositionedVisit& in_group) const {
  bool go_on = true;
  while (go_on && range.begin < range.end) {
    // Entries of a bounded string met next: read as a group, below.
    std::optional<std::string> group;
    ORRERY_RETURN_IF_ERROR(index::ScanEntries(store_, range, prefix.size(), descending,
                                              [&](const index::EntryView& entry) {
                                                if (index::IsBoundedString(entry.value)) {
                                                  group.emplace(entry.value);
                                                  return false;
                                                }
                                                ++run.page.index_entries;
                                                if (!run.scope.Contains(entry.epk)) return true;
                                                go_on = on_entry(entry);
                                                return go_on;
                                              }));
    if (!group || !go_on) break;
    ORRERY_RETURN_IF_ERROR(
        VisitBoundedGroup(run, path, prefix, *group, descending, after, in_group, go_on));
    // On past the group: its entries are the group's encoding, an EPK and an id.
    if (descending) {
      range.end = prefix + *group;
    } else {
      range.begin = prefix + *group + kAfterEveryKey;
    }
  }
  return Status::Ok();
}

std::optional<json::Value> Container::LoadForQuery(QueryRun& run, std::string_view key_suffix,
                                                   Status& status) const {
  Result<std::optional<std::string>> json = LoadItem(run, key_suffix);
  if (!json.ok()) {
    status = json.status();
    return std::nullopt;
  }
  if (!*json) return std::nullopt;
  Result<json::Value> doc = ParseForQuery(run.query, **json);
  if (!doc.ok()) return std::nullopt;  // unreadable: skipped, as by scans
  return std::move(*doc);
}

Status Container::VisitBoundedGroup(QueryRun& run, const query::DocumentPath& path,
                                    const std::string& prefix, const std::string& group,
                                    bool descending, const std::string* after,
                                    const PositionedVisit& visit, bool& go_on) const {
  // The group's items in the order of their own values, kRowsPerRound at a time: each
  // round reads the group's entries and items again and keeps the first rows after the
  // last one visited, so that a large group costs bounded memory.
  constexpr size_t kRowsPerRound = 256;
  struct GroupRow {
    std::string position;  // the value's full encoding and the item key
    size_t value_size;
    json::Value doc;
  };
  const auto before = [&](std::string_view a, std::string_view b) {
    return descending ? a > b : a < b;
  };
  const auto first = [&](const GroupRow& a, const GroupRow& b) {
    return before(a.position, b.position);
  };
  const index::KeyRange range{prefix + group, prefix + group + kAfterEveryKey};
  std::optional<std::string> cursor;
  Status status;
  while (go_on) {
    const std::string* bound = cursor ? &*cursor : after;
    const bool inclusive = !cursor && run.resume_at_position;
    std::vector<GroupRow> best;  // a heap whose top is the last row kept
    ORRERY_RETURN_IF_ERROR(
        index::ScanEntries(store_, range, prefix.size(), false, [&](const index::EntryView& entry) {
          ++run.page.index_entries;
          if (!run.scope.Contains(entry.epk)) return true;
          const std::string suffix = storage::keys::ItemSuffix(entry.epk, entry.id);
          std::optional<json::Value> doc = LoadForQuery(run, suffix, status);
          if (!doc) return status.ok();
          std::vector<std::string> positions;
          for (const json::Value& value : ValuesAt(*computed_, *doc, path)) {
            std::string bounded;
            index::AppendIndexedValue(bounded, value);
            // An item changed since its entry was read is at its new value's place.
            if (bounded != group) continue;
            std::string position;
            index::AppendValue(position, value);
            position += suffix;
            if (Passes(position, bound, descending, inclusive)) positions.push_back(position);
          }
          std::sort(positions.begin(), positions.end());
          positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
          for (std::string& position : positions) {
            const size_t value_size = position.size() - suffix.size();
            if (best.size() == kRowsPerRound) {
              if (!before(position, best.front().position)) continue;
              std::pop_heap(best.begin(), best.end(), first);
              best.pop_back();
            }
            best.push_back(GroupRow{std::move(position), value_size, *doc});
            std::push_heap(best.begin(), best.end(), first);
          }
          return true;
        }));
    ORRERY_RETURN_IF_ERROR(status);
    std::sort_heap(best.begin(), best.end(), first);
    for (const GroupRow& row : best) {
      const std::string_view position(row.position);
      go_on = visit(position.substr(0, row.value_size), position.substr(row.value_size), row.doc);
      if (!go_on) break;
    }
    if (best.size() < kRowsPerRound) break;
    cursor = best.back().position;
  }
  return Status::Ok();
}

Status Container::VisitInOrder(QueryRun& run, const PhysicalPartition& partition,
                               const std::string* after, const PositionedVisit& visit) const {
  if (!run.plan.composite) {
    return VisitInIndexOrder(run, partition, run.plan.order->path, run.plan.order->descending,
                             after, visit);
  }
  // A composite position is its entry's values, EPK, a 0x00 and id: split at the last
  // 0x00 (ids hold none), the values and EPK stay together, as the entry key has them.
  std::optional<index::CompositePosition> from;
  if (after != nullptr) {
    const size_t nul = after->rfind('\0');
    if (nul == std::string::npos) return TokenOfAnotherQuery();
    from = index::CompositePosition{after->substr(0, nul), "", after->substr(nul + 1)};
  }
  ReadScope within = run.scope;
  within.range =
      Intersect(run.scope.range, EpkRange{partition.min_inclusive, partition.max_exclusive});
  return VisitInCompositeOrder(
      *run.plan.composite, partition, within, from ? &*from : nullptr, run.page,
      [&](const index::CompositeEntryView& entry, std::string_view json) {
        Result<json::Value> doc = ParseForQuery(run.query, json);
        if (!doc.ok()) return true;
        return visit(entry.values, storage::keys::ItemSuffix(entry.epk, entry.id), *doc);
      });
}

Status Container::StreamOrdered(QueryRun& run, const DecodedToken* token, int max_items) const {
  const bool descending =
      run.plan.composite ? run.plan.composite->reverse : run.plan.order->descending;
  const Frontier order(descending);
  Paging paging = PagingOf(run.query, token);
  if (paging.done()) return Status::Ok();

  // A k-way merge of the partitions' streams, each read a chunk at a time from where
  // it stopped, so that a page reads about its own rows from all of them together.
  struct Found {
    std::string position;
    json::Value value;
  };
  struct Source {
    const PhysicalPartition* partition;
    std::deque<Found> rows;
    std::optional<std::string> resume;  // the last position read
    bool finished = false;
  };
  std::vector<Source> sources;
  for (const PhysicalPartition* partition : PartitionsIn(run.scope)) {
    sources.push_back(Source{partition, {}, std::nullopt, false});
  }
  if (sources.empty()) return Status::Ok();
  const size_t wanted = paging.Wanted(max_items);
  // Rows a partition reads ahead at a time. Bounded, so that a page asked for a huge
  // count and cut short by its size (kMaxPageBytes) or time has read, and is charged for,
  // little more than it returns: unbounded, each such page loaded every item left.
  constexpr size_t kMostRowsPerFill = 256;
  const size_t chunk =
      std::min({wanted, std::max<size_t>(16, wanted / sources.size() + 1), kMostRowsPerFill});
  // Ordered by a JOIN alias over an array: an item is met once per distinct element
  // value, and gives there the rows whose element has that value.
  const bool by_elements = !run.plan.composite && query::ThroughArrayElements(run.plan.order->path);
  const auto at_entry = [&](const query::Row& row, std::string_view value) {
    if (!by_elements) return true;
    if (row.sort_keys.empty()) return false;
    std::string encoded;
    index::AppendValue(encoded, row.sort_keys[0]);
    return encoded == value;
  };
  Status eval_status;
  const auto fill = [&](Source& source) -> Status {
    const std::string* after = source.resume      ? &*source.resume
                               : token != nullptr ? &token->position
                                                  : nullptr;
    const std::string from = after != nullptr ? *after : std::string();
    run.resume_at_position = !source.resume && token != nullptr && token->in_group > 0;
    bool stopped = false;
    size_t read = 0;
    ORRERY_RETURN_IF_ERROR(
        VisitInOrder(run, *source.partition, after != nullptr ? &from : nullptr,
                     [&](std::string_view value, std::string_view key, const json::Value& doc) {
                       // Each fill reads at least one item, so that a page always advances.
                       if (read > 0 && run.out_of_time()) {
                         stopped = true;
                         return false;
                       }
                       ++read;
                       std::string position(value);
                       position.append(key);
                       run.rows.clear();
                       eval_status = run.query.EvaluateDocument(doc, run.rows, run.budget);
                       if (!eval_status.ok()) return false;
                       for (query::Row& row : run.rows) {
                         if (!at_entry(row, value)) continue;
                         source.rows.push_back({position, std::move(row.value)});
                       }
                       source.resume = std::move(position);
                       stopped = source.rows.size() >= chunk;
                       return !stopped;
                     }));
    ORRERY_RETURN_IF_ERROR(eval_status);
    source.finished = !stopped;
    return Status::Ok();
  };

  std::optional<std::string> last_position;
  // Rows of last_position returned so far, and those of the token's position a page
  // that ended among them returned (skipped here).
  size_t at_last_position = 0;
  size_t to_skip = 0;
  if (token != nullptr && token->in_group > 0) {
    last_position = token->position;
    at_last_position = to_skip = token->in_group;
  }
  const auto token_here = [&] {
    const bool among_rows = std::any_of(sources.begin(), sources.end(), [&](const Source& s) {
      return !s.rows.empty() && s.rows.front().position == *last_position;
    });
    return among_rows ? EncodeInPositionToken(*last_position, at_last_position, paging.emitted)
                      : EncodeOrderedToken(*last_position, paging.emitted);
  };
  while (!paging.done()) {
    const bool room = static_cast<int>(run.page.documents.size()) < max_items && !run.page.full();
    // Until the page has passed the rows the token's page returned, it reads on whatever
    // the time: a page must advance.
    const bool may_stop = to_skip == 0;
    // Read on every unfinished partition with nothing buffered (a fill reads at least one
    // item); once time is up, only those this page has not read yet, so that each of them
    // is known to be done up to some position.
    for (Source& source : sources) {
      if (!source.rows.empty() || source.finished) continue;
      if (source.resume && may_stop && run.out_of_time()) continue;
      ORRERY_RETURN_IF_ERROR(fill(source));
    }
    Source* next = nullptr;
    for (Source& source : sources) {
      if (!source.rows.empty() && (next == nullptr || order.Before(source.rows.front().position,
                                                                   next->rows.front().position))) {
        next = &source;
      }
    }
    // The least far an unfinished partition with nothing buffered was read: a row beyond
    // it cannot be returned before that partition is read further (it may hold rows
    // before that row).
    const std::string* reached = nullptr;
    for (const Source& source : sources) {
      if (source.finished || !source.rows.empty() || !source.resume) continue;
      if (reached == nullptr || order.Before(*source.resume, *reached)) reached = &*source.resume;
    }
    if (next == nullptr && reached == nullptr) return Status::Ok();  // every partition is read
    if (reached != nullptr &&
        (next == nullptr || order.Before(*reached, next->rows.front().position))) {
      if (!may_stop || !run.out_of_time()) continue;
      // Out of time: every partition is done up to `reached`, and every row before it
      // was returned.
      last_position = *reached;
      run.page.continuation = token_here();
      return Status::Ok();
    }
    Found& front = next->rows.front();
    if (to_skip > 0 && front.position == *last_position) {
      --to_skip;  // returned by the page the token ended
      next->rows.pop_front();
      continue;
    }
    if (!room) {
      run.page.continuation = token_here();
      return Status::Ok();
    }
    Found row = std::move(front);
    next->rows.pop_front();
    at_last_position = last_position && row.position == *last_position ? at_last_position + 1 : 1;
    if (paging.emitted >= paging.offset) run.page.Add(json::Write(row.value));
    ++paging.emitted;
    last_position = std::move(row.position);
  }
  return Status::Ok();
}

Status Container::StreamGroups(QueryRun& run, const DecodedToken* token, int max_items) const {
  Paging paging = PagingOf(run.query, token);
  if (paging.done()) return Status::Ok();
  const bool descending = run.plan.grouping_descending;
  const Frontier order(descending);
  // After every item of the token's value when its group was returned whole; from its
  // first item when the page ended inside its rows. A value's items lie between the value
  // and the value followed by kAfterEveryKey, whichever the direction.
  std::string after_group;
  const size_t returned_in_group = token != nullptr ? token->in_group : 0;
  if (token != nullptr) {
    const bool from_first_item = returned_in_group > 0;
    after_group =
        from_first_item != descending ? token->position : token->position + kAfterEveryKey;
  }
  const size_t wanted = paging.Wanted(max_items);

  // The page holds the first `wanted` values of all partitions together: reading index
  // keys only, each partition's first `wanted` values give the last of them, and no
  // partition loads the items of a group past it.
  const std::vector<const PhysicalPartition*> partitions = PartitionsIn(run.scope);
  std::optional<std::string> cutoff;
  if (partitions.size() > 1) {
    std::vector<std::string> values;
    for (const PhysicalPartition* partition : partitions) {
      ORRERY_ASSIGN_OR_RETURN(
          std::vector<std::string> next,
          NextIndexedValues(run, *partition, *run.plan.grouping,
                            token != nullptr ? &after_group : nullptr, descending, wanted));
      std::move(next.begin(), next.end(), std::back_inserter(values));
    }
    std::sort(values.begin(), values.end(),
              [&](const std::string& a, const std::string& b) { return order.Before(a, b); });
    values.erase(std::unique(values.begin(), values.end()), values.end());
    if (values.size() >= wanted) cutoff = std::move(values[wanted - 1]);
  }

  // Groups by encoded value, so in the result's order; one value's items may lie in
  // several partitions, and their rows make one group.
  std::map<std::string, std::vector<query::Row>> groups;
  Frontier frontier(descending);
  Status eval_status;
  for (const PhysicalPartition* partition : partitions) {
    std::optional<std::string> current;
    std::vector<query::Row> rows;
    std::optional<std::string> last_finished;
    size_t finished = 0;
    bool stopped = false;
    bool past_cutoff = false;
    const auto finish_group = [&] {
      if (!rows.empty()) {
        std::vector<query::Row>& group = groups[*current];
        std::move(rows.begin(), rows.end(), std::back_inserter(group));
        rows.clear();
        ++finished;
      }
      last_finished = current;
    };
    ORRERY_RETURN_IF_ERROR(VisitInIndexOrder(
        run, *partition, *run.plan.grouping, descending, token != nullptr ? &after_group : nullptr,
        [&](std::string_view value, std::string_view, const json::Value& doc) {
          if (!current || value != *current) {
            if (cutoff && order.Before(*cutoff, value)) {
              // Every group up to the cutoff is read whole; the ones after it wait.
              if (current) finish_group();
              past_cutoff = true;
              return false;
            }
            if (current) {
              finish_group();
              // A page ends between groups only, and after at least one.
              if (finished >= wanted || run.out_of_time()) {
                stopped = true;
                return false;
              }
            }
            current.emplace(value);
          }
          eval_status = run.query.EvaluateDocument(doc, rows, run.budget);
          return eval_status.ok();
        }));
    ORRERY_RETURN_IF_ERROR(eval_status);
    if (stopped) {
      frontier.StoppedAt(*last_finished);
    } else if (past_cutoff) {
      frontier.StoppedAt(*cutoff);
    } else if (current) {
      finish_group();
    }
  }

  std::optional<std::string> last_value;
  bool page_ended = false;
  const auto page_is_full = [&] {
    return static_cast<int>(run.page.documents.size()) >= max_items || run.page.full();
  };
  // The groups in the stream's order.
  std::vector<std::pair<const std::string, std::vector<query::Row>>*> in_order;
  for (auto& group : groups) in_order.push_back(&group);
  if (descending) std::reverse(in_order.begin(), in_order.end());
  for (auto* group : in_order) {
    const std::string& value = group->first;
    std::vector<query::Row>& rows = group->second;
    if (paging.done() || !frontier.Covers(value)) break;
    if (page_is_full()) {
      page_ended = true;
      break;
    }
    ORRERY_ASSIGN_OR_RETURN(std::vector<json::Value> result,
                            run.query.FinishUnpaged(std::move(rows)));
    // A value may give several rows (GROUP BY several keys; arrays or objects, whose
    // values share one index position): a page may end among them.
    size_t i = token != nullptr && returned_in_group > 0 && value == token->position
                   ? returned_in_group
                   : 0;
    for (; i < result.size() && !paging.done(); ++i) {
      if (page_is_full()) {
        run.page.continuation = EncodeInGroupToken(value, i, paging.emitted);
        return Status::Ok();
      }
      if (paging.emitted >= paging.offset) run.page.Add(json::Write(result[i]));
      ++paging.emitted;
    }
    last_value = value;
  }
  if (paging.done()) return Status::Ok();
  if (page_ended) {
    run.page.continuation = EncodeGroupToken(*last_value, paging.emitted);
  } else if (frontier.at()) {
    run.page.continuation = EncodeGroupToken(*frontier.at(), paging.emitted);
  }
  return Status::Ok();
}

}  // namespace orrery::engine
