#pragma once

// The SpiderMonkey context of the calling thread (one per thread, made on first use and
// destroyed with the thread): its memory and stack bounds, its interrupt callback, its
// promise job queue, and the compiled forms (stencils) of the server-side API and of
// the scripts it has run. Included by src/script/*.cc only.

#include <js/experimental/JSStencil.h>
#include <jsapi.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace orrery::script {

class JobQueue;

class JsThread {
 public:
  static JsThread& Current();
  ~JsThread();
  JsThread(const JsThread&) = delete;
  JsThread& operator=(const JsThread&) = delete;

  JSContext* context() const { return context_; }
  // Set by the watchdog when the running execution's time is up; the interrupt callback
  // then ends the script.
  std::atomic<bool>& expired() { return expired_; }

  // Runs the promise jobs queued so far (and those they queue); false if one could not
  // finish (the script was interrupted, or ran out of memory).
  bool RunJobs();
  bool HasJobs() const;
  // Drops what an ended execution left queued.
  void ClearJobs();
  // Each execution leaves a global (a realm) behind; the incremental collector does not
  // keep up with thousands a second, and the heap bound would end a script that needs
  // little. A full collection once the heap passes a fraction of the bound.
  void CollectAfterExecution();

  // The compiled form of `source` (a script whose completion value is a function),
  // cached by its text; null with the compile error in *error. `file` names it in stacks.
  JS::Stencil* Compiled(std::string_view source, const char* file, std::string* error);

 private:
  JsThread();
  JSContext* context_ = nullptr;
  std::unique_ptr<JobQueue> jobs_;
  std::atomic<bool> expired_{false};
  std::unordered_map<std::string, RefPtr<JS::Stencil>> compiled_;
};

// The text of the pending exception, as "<name>: <message>" with its line and column
// where it has them; clears it. Empty when none is pending.
std::string TakePendingErrorText(JSContext* context);

// A JS string's UTF-8 text.
std::string Utf8Of(JSContext* context, JS::HandleString string);

}  // namespace orrery::script
