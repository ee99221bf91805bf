#pragma once

// A container's server-side scripts: stored procedures, triggers and user-defined
// functions (server-side-scripts.md §1). Kept in the store (storage/keys.h, 0x17) and,
// once read, in memory: there are at most a few hundred per container and every
// execution, trigger and UDF call looks one up.

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "json/value.h"
#include "query/query.h"

namespace orrery::engine {

enum class ScriptType { kStoredProcedure, kTrigger, kUserDefinedFunction };

struct ScriptTypeInfo {
  ScriptType type;
  std::string_view segment;     // the path segment: sprocs, triggers, udfs
  std::string_view feed_array;  // the list's array: StoredProcedures, Triggers, ...
  std::string_view noun;        // in messages: "stored procedure", ...
  char key_byte;                // in the store's key
  uint8_t rid_type;             // the high byte of the rid's last 8 bytes
  size_t limit;                 // per container (D-LIM; triggers: the quota header's)
};

const ScriptTypeInfo& InfoOf(ScriptType type);
std::optional<ScriptType> ScriptTypeOfSegment(std::string_view segment);

// A trigger's kind and the operations it runs for (triggerType, triggerOperation).
enum class TriggerType { kPre, kPost };
enum class TriggerOperation { kAll, kCreate, kReplace, kDelete, kUpsert, kUpdate };
std::optional<TriggerType> ParseTriggerType(std::string_view text);
std::optional<TriggerOperation> ParseTriggerOperation(std::string_view text);

// The scripts in memory, guarded by their own mutex. Loaded from the store on first use.
struct ScriptCatalog {
  std::mutex mutex;
  bool loaded = false;
  // By type, then id: the resource as stored.
  std::map<ScriptType, std::map<std::string, json::Value, std::less<>>> scripts;
  // The user-defined functions as queries call them, made on first use after a change.
  std::shared_ptr<const query::UserFunctions> user_functions;
};

}  // namespace orrery::engine
