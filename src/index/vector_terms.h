#pragma once

// The vector-index entries of an item (persisted; docs/storage-format.md), one per
// vector index of the container whose path holds a vector of the declared dimensions:
//
//   0x11 | container (4, BE) | partition (4, BE) | 0x05 | vector index (4, BE)
//        | EPK | 0x00 | id | 0x00 | the vector as float32 (4 bytes each, little-endian)
//
// `vector index` is the index's position in the policy's vectorIndexes list (fixed when
// the container is created). The vector rides in the key so that the entries are kept
// like every other index entry (Container::IndexKeysOf: writes, deletes, TTL purges,
// splits and rebuilds), and a search reads one partition's vectors in one key-range scan
// without parsing any item. 0x05 follows the partition where a range-index path starts
// with 0x01..0x03 and a composite index with 0x04.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "index/index_terms.h"
#include "json/value.h"
#include "query/vector_policy.h"

namespace orrery::index {

inline constexpr char kVectorMarker = '\x05';

// Everything up to the EPK: the start of one vector index's entries in one partition.
std::string VectorIndexPrefix(uint32_t container, uint32_t partition, uint32_t vector_index);

// The entry keys of `document` for the vector indexes of `policy`, in index order.
std::vector<std::string> VectorEntryKeys(const query::VectorPolicy& policy,
                                         const json::Value& document, const ItemLocation& where);

struct VectorEntryView {
  std::string_view epk;
  std::string_view id;
  std::string_view vector;  // dimensions × 4 bytes, float32 little-endian
};
// Splits what follows the prefix of an entry of a `dimensions`-long vector index.
std::optional<VectorEntryView> ParseVectorEntry(std::string_view after_prefix, int dimensions);

// The vector index (its position in vectorIndexes) of an index-entry key, or nullopt
// when the key is another kind of entry.
std::optional<uint32_t> VectorIndexOfKey(std::string_view key);

// The float at position i of an entry's vector.
float VectorElement(std::string_view vector, size_t i);

}  // namespace orrery::index
