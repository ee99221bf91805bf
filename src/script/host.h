#pragma once

// What a script's data operations are done by: the engine's transaction of the
// execution's logical partition (engine/script_execution.h), or a test's fake.

#include <string>
#include <string_view>

namespace orrery::script {

class ScriptHost {
 public:
  virtual ~ScriptHost() = default;
  // Performs one data operation of the server-side API (server_api.js) and returns its
  // reply. `operation`: read, readFeed, query, create, upsert, replace, delete;
  // `request`: a JSON object of its arguments ({"id","byRid","body","etag",
  // "ifNoneMatch","indexAction","query","parameters","pageSize","continuation"}).
  // The reply is a JSON object: {"s": status, "ss": substatus, "m": error message,
  // "b": the resource or page of documents, "c": continuation}, or {"na": true} when the
  // operation is not accepted because the execution's time or request units are spent.
  virtual std::string Call(std::string_view operation, std::string_view request) = 0;
};

}  // namespace orrery::script
