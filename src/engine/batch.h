#pragma once

// The operations of a transactional batch or a bulk request (wire-protocol.md §8), as
// the engine runs them: all in one logical partition and all or nothing
// (Container::ExecuteBatch), or one by one (bulk, in the API layer).

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "engine/item_result.h"
#include "engine/patch.h"

namespace orrery::engine {

// The service's limit on operations in one batch or bulk request.
inline constexpr size_t kMaxBatchOperations = 100;

struct BatchOperation {
  enum class Kind { kCreate, kUpsert, kReplace, kRead, kDelete, kPatch };
  Kind kind = Kind::kCreate;
  std::string id;    // read, replace, delete, patch
  std::string body;  // create, upsert, replace: the item's JSON text
  PatchRequest patch;
  std::optional<std::string> if_match;
  std::optional<std::string> if_none_match;
};

struct BatchOperationResult {
  Status status;              // ok, or why the operation failed
  ItemResult item;            // when ok
  bool not_modified = false;  // a read whose If-None-Match matched
};

}  // namespace orrery::engine
