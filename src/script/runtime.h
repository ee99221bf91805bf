#pragma once

// Runs server-side JavaScript (stored procedures, pre- and post-triggers, user-defined
// functions) in SpiderMonkey, each execution in a fresh global of its own, on the
// calling thread's context (one per thread, made on first use). The engine sees only
// this header; SpiderMonkey's stay inside src/script/*.cc.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "script/host.h"

namespace orrery::script {

// The service's bound on one script execution (and on a query's UDF calls).
inline constexpr std::chrono::milliseconds kExecutionTimeLimit{5000};

enum class ScriptKind { kStoredProcedure, kPreTrigger, kPostTrigger };

struct Invocation {
  ScriptKind kind = ScriptKind::kStoredProcedure;
  std::string_view body;              // the script's source: one function
  std::string_view arguments = "[]";  // JSON array: a stored procedure's parameters
  // JSON object for server_api.js's start(): selfLink, altLink, logging,
  // partitionKeyPaths, requestBody, operationType, responseBody, quotaUsage, quotaMax.
  std::string facts;
  std::chrono::milliseconds time_limit = kExecutionTimeLimit;
};

struct Outcome {
  enum class Kind {
    kCompleted,    // ran to its end: commit
    kFailed,       // threw, or aborted: roll back; number and message say what
    kTimedOut,     // ran past its time limit: stopped and rolled back
    kOutOfMemory,  // past its memory bound: stopped and rolled back
    kNotAScript,   // the body does not compile to a function: message says why
  };
  Kind kind = Kind::kCompleted;
  int number = 0;       // kFailed: the thrown Error's number (0 when it had none)
  std::string message;  // kFailed, kNotAScript: the service's text
  // kCompleted: the response body (JSON text; empty when the script never set one), the
  // request body a pre-trigger leaves (JSON text), and the console.log output.
  std::string response_body;
  std::string request_body;
  std::string log;
  std::chrono::microseconds cpu_time{0};  // spent in the script (for its charge)
};

Outcome Execute(const Invocation& invocation, ScriptHost& host);

// Whether `body` compiles as a script the service would store: nullopt, or the
// SyntaxError (or "not a function") text, for the 400 of a create or replace.
std::optional<std::string> CompileError(std::string_view body);

}  // namespace orrery::script
