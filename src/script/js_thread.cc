#include "script/js_thread.h"

#include <js/CompilationAndEvaluation.h>
#include <js/ErrorReport.h>
#include <js/Exception.h>
#include <js/Initialization.h>
#include <js/Promise.h>
#include <js/SourceText.h>
#include <js/Stack.h>

#include <cstdlib>
#include <deque>
#include <mutex>

namespace orrery::script {
namespace {

// A script's heap: past it, allocations fail and the script ends (out of memory). The
// service does not document its bound; 128 MB holds any bulk import of 2 MB requests.
constexpr uint32_t kHeapBytes = 128u << 20;
// Native stack a script may use, of the worker's 8 MB: deep recursion ends as
// "InternalError: too much recursion" well before the thread's stack does.
constexpr size_t kStackBytes = 1u << 20;
// Compiled scripts kept per thread; past it the cache starts over.
constexpr size_t kCompiledKept = 256;

// Contexts alive: SpiderMonkey is shut down at exit only when none is (a thread that
// still holds one at exit keeps it running to the end).
std::atomic<int> live_contexts{0};

void ShutDownAtExit() {
  // SpiderMonkey's helper threads must stop before its static mutexes are destroyed.
  if (live_contexts.load() == 0) JS_ShutDown();
}

void InitializeOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!JS_Init()) std::abort();
    // Registered after SpiderMonkey's own statics, so it runs before their destructors;
    // the main thread's context (thread_local) is destroyed before it.
    std::atexit(ShutDownAtExit);
  });
}

bool OnInterrupt(JSContext* /*context*/) {
  // False ends the running script with an uncatchable error.
  return !JsThread::Current().expired().load();
}

}  // namespace

// Promise jobs (the reactions of async functions and then()), kept per thread so that
// what an ended execution left queued can be dropped before the next one.
class JobQueue final : public JS::JobQueue {
 public:
  explicit JobQueue(JSContext* context) : context_(context) {}

  JSObject* getIncumbentGlobal(JSContext* context) override {
    return JS::CurrentGlobalOrNull(context);
  }

  bool enqueuePromiseJob(JSContext* context, JS::HandleObject /*promise*/, JS::HandleObject job,
                         JS::HandleObject /*allocation_site*/,
                         JS::HandleObject /*incumbent_global*/) override {
    jobs_.push_back(std::make_unique<JS::PersistentRootedObject>(context, job));
    return true;
  }

  void runJobs(JSContext* /*context*/) override { (void)Run(); }

  bool empty() const override { return jobs_.empty(); }

  bool Run() {
    while (!jobs_.empty()) {
      std::unique_ptr<JS::PersistentRootedObject> job = std::move(jobs_.front());
      jobs_.pop_front();
      JS::RootedObject function(context_, *job);
      JSAutoRealm realm(context_, function);
      JS::RootedValue ignored(context_);
      if (!JS::Call(context_, JS::UndefinedHandleValue, function, JS::HandleValueArray::empty(),
                    &ignored)) {
        // A job's own exceptions settle its promise; this is an interrupt or out of
        // memory, which ends the execution.
        if (!JS_IsExceptionPending(context_)) return false;
        JS_ClearPendingException(context_);
      }
    }
    return true;
  }

  void Clear() { jobs_.clear(); }

 private:
  class Saved final : public SavedJobQueue {};
  js::UniquePtr<SavedJobQueue> saveJobQueue(JSContext* /*context*/) override {
    return js::MakeUnique<Saved>();
  }

  JSContext* context_;
  std::deque<std::unique_ptr<JS::PersistentRootedObject>> jobs_;
};

JsThread& JsThread::Current() {
  thread_local std::unique_ptr<JsThread> current(new JsThread());
  return *current;
}

JsThread::JsThread() {
  InitializeOnce();
  context_ = JS_NewContext(kHeapBytes);
  if (context_ == nullptr || !JS::InitSelfHostedCode(context_)) std::abort();
  JS_SetGCParameter(context_, JSGC_MAX_BYTES, kHeapBytes);
  JS_SetNativeStackQuota(context_, kStackBytes);
  JS_AddInterruptCallback(context_, OnInterrupt);
  jobs_ = std::make_unique<JobQueue>(context_);
  JS::SetJobQueue(context_, jobs_.get());
  live_contexts.fetch_add(1);
}

JsThread::~JsThread() {
  compiled_.clear();
  jobs_->Clear();
  JS_DestroyContext(context_);
  live_contexts.fetch_sub(1);
}

bool JsThread::RunJobs() { return jobs_->Run(); }

bool JsThread::HasJobs() const { return !jobs_->empty(); }

void JsThread::ClearJobs() { jobs_->Clear(); }

void JsThread::CollectAfterExecution() {
  constexpr uint32_t kCollectAboveBytes = kHeapBytes / 4;
  if (JS_GetGCParameter(context_, JSGC_BYTES) > kCollectAboveBytes) {
    JS_GC(context_);
  } else {
    JS_MaybeGC(context_);
  }
}

JS::Stencil* JsThread::Compiled(std::string_view source, const char* file, std::string* error) {
  auto it = compiled_.find(std::string(source));
  if (it != compiled_.end()) return it->second.get();
  JS::CompileOptions options(context_);
  options.setFileAndLine(file, 1);
  JS::SourceText<mozilla::Utf8Unit> text;
  if (!text.init(context_, source.data(), source.size(), JS::SourceOwnership::Borrowed)) {
    *error = TakePendingErrorText(context_);
    return nullptr;
  }
  RefPtr<JS::Stencil> stencil = JS::CompileGlobalScriptToStencil(context_, options, text);
  if (!stencil) {
    *error = TakePendingErrorText(context_);
    if (error->empty()) *error = "The script could not be compiled.";
    return nullptr;
  }
  if (compiled_.size() >= kCompiledKept) compiled_.clear();
  JS::Stencil* out = stencil.get();
  compiled_.emplace(std::string(source), std::move(stencil));
  return out;
}

std::string Utf8Of(JSContext* context, JS::HandleString string) {
  JS::UniqueChars chars = JS_EncodeStringToUTF8(context, string);
  return chars ? std::string(chars.get()) : std::string();
}

std::string TakePendingErrorText(JSContext* context) {
  if (!JS_IsExceptionPending(context)) return {};
  JS::ExceptionStack stack(context);
  if (!JS::StealPendingExceptionStack(context, &stack)) return {};
  JS::ErrorReportBuilder report(context);
  if (!report.init(context, stack, JS::ErrorReportBuilder::NoSideEffects)) {
    JS_ClearPendingException(context);
    return "The script threw an error that could not be described.";
  }
  std::string text = report.toStringResult().c_str();
  const JSErrorReport* where = report.report();
  if (where != nullptr && where->lineno > 0) {
    text += " (line " + std::to_string(where->lineno) + ", column " +
            std::to_string(where->column + 1) + ")";
  }
  return text;
}

}  // namespace orrery::script
