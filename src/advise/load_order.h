#pragma once

// The order in which `orrery advise` loads a candidate's items: by their EPK under that
// candidate. The engine then inserts each key of an item write next to the one the write
// before inserted (the item, its logical partition's counter and creation entry, the index
// entries of the key's paths), so the memtable's skip list is walked down nodes still in
// the cache instead of one cache miss per level, the loading's main cost
// (bench/README.md).
//
// Loading also skips the engine's look-up of each created id (with many table files from
// an unflushed scratch store, the costliest part of a create) for the items no other item
// of its logical partition can clash with: those whose (EPK, id) hash is unique among its
// logical partition's items. The others are `checked`: the engine looks them up and refuses
// a duplicate as it always does.

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace orrery::advise {

struct LoadOrder {
  std::vector<uint32_t> items;  // item numbers, in loading order
  std::vector<bool> checked;    // beside `items`: whether the engine must look the id up

  // The stretch of the order [begin, end) that thread `thread` of `threads` loads: threads
  // inserting next to each other would contend for the same skip-list nodes.
  std::pair<size_t, size_t> Stretch(int thread, int threads) const;
};

class LoadOrderBuilder {
 public:
  // Adds item `item` with its EPK and id under the candidate (an empty EPK for an item the
  // candidate refuses: it is loaded first and refused then).
  void Add(std::string_view epk, std::string_view id, uint32_t item);
  // Moves the items of `other` (another thread's builder) into this one.
  void Merge(LoadOrderBuilder&& other);
  LoadOrder Build() &&;

 private:
  struct Slot {
    uint64_t first = 0;   // the first 16 hex digits of the EPK's first level
    uint64_t second = 0;  // the same of its second level (hierarchical keys)
    uint32_t item = 0;
    uint64_t identity = 0;  // hash of the whole EPK and the id
  };
  std::vector<Slot> slots_;
};

}  // namespace orrery::advise
