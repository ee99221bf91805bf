#pragma once

// Partial document update (wire-protocol.md §7.4): the operations of a PATCH body and
// their application to an item. Paths are JSON pointers (`/a/b/0`, `~1` for '/', `~0`
// for '~'); array steps are indexes, or `-` (the end) for add and set.

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "json/value.h"

namespace orrery::engine {

struct PatchOperation {
  enum class Kind { kAdd, kSet, kReplace, kRemove, kIncr, kMove };
  Kind kind = Kind::kSet;
  std::string path;                 // as given, for messages
  std::vector<std::string> tokens;  // the path's steps, unescaped
  std::vector<std::string> from;    // kMove: the source path's steps
  json::Value value;                // not for kRemove and kMove
};

struct PatchRequest {
  std::vector<PatchOperation> operations;
  // `FROM c WHERE ...`: the patch applies only when the current item matches.
  std::optional<std::string> condition;
};

// The service allows at most this many operations in one patch.
inline constexpr size_t kMaxPatchOperations = 10;

// Accepts a bare array of operations or {"operations": [...], "condition": "..."}.
// Errors: BadRequest naming what is wrong.
Result<PatchRequest> ParsePatchRequest(const json::Value& body);

// Applies the operations in order; any failing one fails the whole patch (the caller
// discards `item`). Errors: BadRequest naming the operation and path.
Status ApplyPatch(json::Value& item, const std::vector<PatchOperation>& operations);

}  // namespace orrery::engine
