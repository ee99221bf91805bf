#include "script/runtime.h"

#include <js/CompilationAndEvaluation.h>
#include <js/Exception.h>
#include <js/SourceText.h>
#include <js/experimental/JSStencil.h>
#include <jsapi.h>
#include <time.h>

#include "json/json.h"
#include "script/js_thread.h"
#include "script/server_api_source.h"
#include "script/watchdog.h"

namespace orrery::script {
namespace {

JSClass kGlobalClass = {"global", JSCLASS_GLOBAL_FLAGS, &JS::DefaultGlobalClassOps};

// The names stacks give the two sources; server_api.js leaves its own frames out of the
// stack traces it reports.
constexpr const char* kScriptFile = "script.js";
constexpr const char* kServerApiFile = "orrery-server-api.js";

std::chrono::microseconds ThreadCpuTime() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return std::chrono::seconds(now.tv_sec) + std::chrono::duration_cast<std::chrono::microseconds>(
                                                std::chrono::nanoseconds(now.tv_nsec));
}

// The execution running on this thread: what the host function calls.
struct Running {
  ScriptHost* host = nullptr;
  std::chrono::microseconds host_time{0};
};
thread_local Running* running = nullptr;

// host(operation, request) -> reply, for server_api.js.
bool HostCall(JSContext* context, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  if (running == nullptr || args.length() < 2 || !args[0].isString() || !args[1].isString()) {
    JS_ReportErrorASCII(context, "host: expected (operation, request)");
    return false;
  }
  JS::RootedString operation_string(context, args[0].toString());
  JS::RootedString request_string(context, args[1].toString());
  const std::string operation = Utf8Of(context, operation_string);
  const std::string request = Utf8Of(context, request_string);
  const auto started = ThreadCpuTime();
  const std::string reply = running->host->Call(operation, request);
  running->host_time += ThreadCpuTime() - started;
  JSString* out = JS_NewStringCopyUTF8N(context, JS::UTF8Chars(reply.data(), reply.size()));
  if (out == nullptr) return false;
  args.rval().setString(out);
  return true;
}

// Instantiates and runs a compiled script in the current global; its completion value.
bool Evaluate(JSContext* context, JS::Stencil* stencil, JS::MutableHandleValue out) {
  JS::InstantiateOptions options;
  JS::RootedScript script(context, JS::InstantiateGlobalStencil(context, options, stencil));
  if (!script) return false;
  return JS_ExecuteScript(context, script, out);
}

bool CallMethod(JSContext* context, JS::HandleObject object, const char* name,
                const JS::HandleValueArray& args, JS::MutableHandleValue out) {
  return JS_CallFunctionName(context, object, name, args, out);
}

bool CallWithString(JSContext* context, JS::HandleObject object, const char* name,
                    std::string_view text, JS::MutableHandleValue out) {
  JS::RootedValue argument(context);
  JSString* string = JS_NewStringCopyUTF8N(context, JS::UTF8Chars(text.data(), text.size()));
  if (string == nullptr) return false;
  argument.setString(string);
  return CallMethod(context, object, name, JS::HandleValueArray(argument), out);
}

std::string StringOf(JSContext* context, JS::HandleValue value) {
  if (!value.isString()) return {};
  JS::RootedString string(context, value.toString());
  return Utf8Of(context, string);
}

// The script's source as a script whose completion value is its function.
std::string AsFunctionExpression(std::string_view body) {
  std::string source = "(";
  source += body;
  source += "\n)";
  return source;
}

class Execution {
 public:
  Execution(const Invocation& invocation, ScriptHost& host)
      : invocation_(invocation), thread_(JsThread::Current()), context_(thread_.context()) {
    running_.host = &host;
  }

  Outcome Run() {
    const auto started = ThreadCpuTime();
    running = &running_;
    thread_.expired().store(false);
    Outcome outcome;
    {
      Watchdog::Guard guard(context_, Watchdog::Clock::now() + invocation_.time_limit,
                            &thread_.expired());
      outcome = RunInNewGlobal();
    }
    thread_.ClearJobs();
    running = nullptr;
    if (JS_IsExceptionPending(context_)) JS_ClearPendingException(context_);
    thread_.CollectAfterExecution();
    outcome.cpu_time = ThreadCpuTime() - started - running_.host_time;
    if (outcome.cpu_time.count() < 0) outcome.cpu_time = std::chrono::microseconds(0);
    return outcome;
  }

 private:
  Outcome RunInNewGlobal() {
    JS::RealmOptions options;
    JS::RootedObject global(context_, JS_NewGlobalObject(context_, &kGlobalClass, nullptr,
                                                         JS::FireOnNewGlobalHook, options));
    if (!global) return Stopped();
    JSAutoRealm realm(context_, global);

    // The server-side API: its function, called with the global and the host.
    std::string error;
    JS::Stencil* api = thread_.Compiled(ServerApiSource(), kServerApiFile, &error);
    if (api == nullptr) return Internal("the server-side API does not compile: " + error);
    JS::RootedValue api_function(context_);
    if (!Evaluate(context_, api, &api_function)) return Stopped();
    JSFunction* host = JS_NewFunction(context_, HostCall, 2, 0, "host");
    if (host == nullptr) return Stopped();
    JS::RootedValueArray<2> api_args(context_);
    api_args[0].setObject(*global);
    api_args[1].setObject(*JS_GetFunctionObject(host));
    JS::RootedValue control_value(context_);
    if (!JS::Call(context_, JS::UndefinedHandleValue, api_function, api_args, &control_value) ||
        !control_value.isObject()) {
      return Stopped();
    }
    JS::RootedObject control(context_, &control_value.toObject());
    JS::RootedValue ignored(context_);
    if (!CallWithString(context_, control, "start", invocation_.facts, &ignored)) {
      return Stopped();
    }

    // The script's function.
    JS::Stencil* compiled =
        thread_.Compiled(AsFunctionExpression(invocation_.body), kScriptFile, &error);
    if (compiled == nullptr) return NotAScript(error);
    JS::RootedValue function(context_);
    if (!Evaluate(context_, compiled, &function)) return Threw(control);
    if (!function.isObject() || !JS_ObjectIsFunction(&function.toObject())) {
      return NotAScript("The script's body must be a function.");
    }

    JS::RootedValueArray<2> invoke_args(context_);
    invoke_args[0].set(function);
    JSString* arguments = JS_NewStringCopyUTF8N(
        context_, JS::UTF8Chars(invocation_.arguments.data(), invocation_.arguments.size()));
    if (arguments == nullptr) return Stopped();
    invoke_args[1].setString(arguments);
    if (!CallMethod(context_, control, "invoke", invoke_args, &ignored) && !Aborted(control)) {
      return Threw(control);
    }
    // The event loop: promise jobs, then the next operation's callback, until neither
    // is left.
    for (;;) {
      if (!thread_.RunJobs()) return Stopped();
      JS::RootedValue stepped(context_);
      if (!CallMethod(context_, control, "step", JS::HandleValueArray::empty(), &stepped)) {
        if (Aborted(control)) break;
        return Threw(control);
      }
      if (!stepped.isTrue() && !thread_.HasJobs()) break;
    }
    JS::RootedValue finished(context_);
    if (!CallMethod(context_, control, "finish", JS::HandleValueArray::empty(), &finished)) {
      return Threw(control);
    }
    return OutcomeOf(StringOf(context_, finished));
  }

  // Whether the pending exception is getContext().abort()'s signal (cleared if so).
  bool Aborted(JS::HandleObject control) {
    if (!JS_IsExceptionPending(context_)) return false;
    JS::RootedValue exception(context_);
    if (!JS_GetPendingException(context_, &exception)) return false;
    JS_ClearPendingException(context_);
    JS::RootedValue is_abort(context_);
    if (CallMethod(context_, control, "isAbort", JS::HandleValueArray(exception), &is_abort) &&
        is_abort.isTrue()) {
      return true;
    }
    JS_SetPendingException(context_, exception);
    return false;
  }

  // The script threw: the service's description of what it threw.
  Outcome Threw(JS::HandleObject control) {
    if (!JS_IsExceptionPending(context_)) return Stopped();
    JS::RootedValue exception(context_);
    if (!JS_GetPendingException(context_, &exception)) return Stopped();
    JS_ClearPendingException(context_);
    JS::RootedValue described(context_);
    if (!CallMethod(context_, control, "describe", JS::HandleValueArray(exception), &described)) {
      return Stopped();
    }
    Outcome outcome;
    Result<json::Value> parsed = json::Parse(StringOf(context_, described));
    if (parsed.ok() && parsed->is_object()) {
      SetFailure(*parsed, outcome);
    } else {
      outcome.kind = Outcome::Kind::kFailed;
    }
    return outcome;
  }

  // Ended without an exception to show: past its time, or out of memory.
  Outcome Stopped() {
    Outcome outcome;
    if (thread_.expired().load()) {
      outcome.kind = Outcome::Kind::kTimedOut;
    } else {
      outcome.kind = Outcome::Kind::kOutOfMemory;
    }
    if (JS_IsExceptionPending(context_)) JS_ClearPendingException(context_);
    return outcome;
  }

  // A failure as server_api.js describes it: {"number": ..., "message": ...}.
  static void SetFailure(const json::Value& described, Outcome& outcome) {
    outcome.kind = Outcome::Kind::kFailed;
    const json::Value* number = described.Find("number");
    const json::Value* message = described.Find("message");
    if (number != nullptr && number->is_number()) {
      outcome.number = static_cast<int>(number->as_double());
    }
    if (message != nullptr && message->is_string()) outcome.message = message->as_string();
  }

  static Outcome NotAScript(std::string message) {
    Outcome outcome;
    outcome.kind = Outcome::Kind::kNotAScript;
    outcome.message = std::move(message);
    return outcome;
  }

  static Outcome Internal(std::string message) {
    Outcome outcome;
    outcome.kind = Outcome::Kind::kFailed;
    outcome.number = 500;
    outcome.message = std::move(message);
    return outcome;
  }

  static Outcome OutcomeOf(const std::string& finished) {
    Outcome outcome;
    Result<json::Value> parsed = json::Parse(finished);
    if (!parsed.ok() || !parsed->is_object()) return Internal("the script's outcome is unreadable");
    if (const json::Value* log = parsed->Find("log"); log != nullptr && log->is_string()) {
      outcome.log = log->as_string();
    }
    if (parsed->Find("aborted") != nullptr) {
      SetFailure(*parsed, outcome);
      return outcome;
    }
    if (const json::Value* body = parsed->Find("responseBody"))
      outcome.response_body = json::Write(*body);
    if (const json::Value* body = parsed->Find("requestBody"))
      outcome.request_body = json::Write(*body);
    return outcome;
  }

  const Invocation& invocation_;
  JsThread& thread_;
  JSContext* context_;
  Running running_;
};

}  // namespace

Outcome Execute(const Invocation& invocation, ScriptHost& host) {
  return Execution(invocation, host).Run();
}

std::optional<std::string> CompileError(std::string_view body) {
  JsThread& thread = JsThread::Current();
  JSContext* context = thread.context();
  // Compiling needs a realm; nothing runs in this one.
  JS::RealmOptions options;
  JS::RootedObject global(context, JS_NewGlobalObject(context, &kGlobalClass, nullptr,
                                                      JS::FireOnNewGlobalHook, options));
  if (!global) return "The script could not be compiled: out of memory.";
  JSAutoRealm realm(context, global);
  std::string error;
  if (thread.Compiled(AsFunctionExpression(body), kScriptFile, &error) == nullptr) return error;
  return std::nullopt;
}

}  // namespace orrery::script
