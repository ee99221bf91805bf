#pragma once

// What a point operation on an item returns to the API layer.

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/throughput/cost_model.h"

namespace orrery::engine {

struct ItemResult {
  std::string json;  // the item as returned
  std::string etag;
  bool created = false;
  size_t bytes = 0;              // size that the charge is computed from
  throughput::IndexWrite index;  // what the version written (or deleted) indexes
  std::string pkrange_id;        // owner partition, for session tokens
  uint64_t lsn = 0;
  bool indexed = true;  // a write: whether the version written is in the index
};

}  // namespace orrery::engine
