#pragma once

// Runs a stored procedure in one logical partition of a container: the script in
// SpiderMonkey (src/script/), its data operations through a Container::Transaction,
// committed when the script completes and dropped when it fails, times out or runs out
// of memory.

#include <string>
#include <string_view>

#include "common/status.h"
#include "engine/container.h"
#include "script/runtime.h"

namespace orrery::engine {

struct StoredProcedureCall {
  partition::PartitionKeyValue partition_key;
  std::string_view body;       // the procedure's source
  std::string_view arguments;  // its parameters: a JSON array
  bool logging = false;        // x-ms-documentdb-script-enable-logging
  std::string alt_link;        // "dbs/<db id>/colls/<container id>"
};

struct ScriptRun {
  script::Outcome outcome;
  double operations_charge = 0;  // the request units of the operations the script ran
  double charge = 0;             // those and the script's own run (cost_model.h)
  size_t operations = 0;
  // Of the last write, for the session token (empty when it wrote nothing).
  std::string pkrange_id;
  uint64_t lsn = 0;
};

// Errors: those of the transaction (storage, RetryWith); the script's own failures are
// in the outcome, and then nothing is written.
Result<ScriptRun> ExecuteStoredProcedure(Container& container, const StoredProcedureCall& call);

// An item write or delete that names a pre- and/or post-trigger
// (x-ms-documentdb-pre-trigger-include, -post-trigger-include): one transaction of the
// item's logical partition in which the pre-trigger may change or refuse the item, the
// operation runs, and the post-trigger may read the result and write more items.
struct TriggeredOperation {
  enum class Kind { kCreate, kUpsert, kReplace, kDelete };
  Kind kind = Kind::kCreate;
  partition::PartitionKeyValue partition_key;
  std::string id;    // replace, delete
  std::string body;  // create, upsert, replace
  std::optional<std::string> if_match;
  std::optional<bool> indexing_directive;
  const json::Value* pre_trigger = nullptr;  // the trigger resources, or null
  const json::Value* post_trigger = nullptr;
  std::string alt_link;
};

struct TriggeredRun {
  ItemResult item;                        // the operation's own result
  double triggers_charge = 0;             // the triggers' runs and the operations they ran
  std::optional<script::Outcome> failed;  // the trigger that did not complete: nothing written
};

// Errors: BadRequest for a trigger of the wrong type or for another operation; the
// operation's own errors (then nothing is written); the transaction's.
Result<TriggeredRun> ExecuteTriggered(Container& container, const TriggeredOperation& operation);

// The service's answer to a script that did not complete (outcome.kind other than
// kCompleted): 400 with the thrown Error's number as substatus, 408 past the time limit.
Status StatusOfFailedScript(const script::Outcome& outcome);

}  // namespace orrery::engine
