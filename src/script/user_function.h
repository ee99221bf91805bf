#pragma once

// A user-defined function (udf.<name>(...) in a query): its body compiled once per
// thread that calls it, in a global of its own with no server-side API (UDFs only
// compute), each call bounded by the script time limit. Safe to call from any thread.

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

namespace orrery::script {

class UserFunction {
 public:
  UserFunction(std::string name, std::string body);

  struct Result {
    bool ok = true;
    bool undefined = false;  // returned undefined: the projection leaves it out
    std::string json;        // the returned value, when ok and not undefined
    std::string message;     // why not ok: the service's text
  };
  // `arguments_json` is the JSON array of the call's arguments.
  Result Call(std::string_view arguments_json) const;

  const std::string& name() const { return name_; }
  uint64_t calls() const { return calls_.load(std::memory_order_relaxed); }

 private:
  const std::string name_;
  const std::string body_;
  const uint64_t id_;  // tells this function's per-thread state from others'
  mutable std::atomic<uint64_t> calls_{0};
};

}  // namespace orrery::script
