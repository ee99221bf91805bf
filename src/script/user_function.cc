#include "script/user_function.h"

#include <js/CompilationAndEvaluation.h>
#include <js/Exception.h>
#include <jsapi.h>

#include <chrono>
#include <map>
#include <memory>

#include "script/js_thread.h"
#include "script/watchdog.h"

namespace orrery::script {
namespace {

JSClass kUdfGlobalClass = {"global", JSCLASS_GLOBAL_FLAGS, &JS::DefaultGlobalClassOps};

// Calls the function with the parsed arguments and hands back its result as JSON text
// (undefined stays undefined); what it throws is described as the service describes
// a script's exception.
constexpr std::string_view kInvoker = R"((function (f, args) {
  "use strict";
  try {
    var result = f.apply(undefined, JSON.parse(args));
    return result === undefined ? undefined : { json: JSON.stringify(result) };
  } catch (e) {
    var text = (e !== null && typeof e === "object" && "message" in e)
        ? (e.name || "Error") + ": " + e.message
        : (typeof e === "string" ? e : JSON.stringify(e));
    return { error: "Encountered exception while executing function. Exception = " + text };
  }
}))";

std::atomic<uint64_t> next_id{1};

// One function's compiled state on one thread.
struct Compiled {
  JS::PersistentRootedObject global;
  JS::PersistentRootedValue function;
  JS::PersistentRootedValue invoker;
  std::string error;  // the body did not compile (then the others are unset)
};

// Per thread; started over past this many functions (a few queries' worth).
constexpr size_t kKeptPerThread = 64;

Compiled* CompiledOn(JsThread& thread, uint64_t id, const std::string& body) {
  thread_local std::map<uint64_t, std::unique_ptr<Compiled>> compiled;
  auto it = compiled.find(id);
  if (it != compiled.end()) return it->second.get();
  if (compiled.size() >= kKeptPerThread) compiled.clear();
  JSContext* context = thread.context();
  auto state = std::make_unique<Compiled>();
  JS::RealmOptions options;
  state->global.init(context, JS_NewGlobalObject(context, &kUdfGlobalClass, nullptr,
                                                 JS::FireOnNewGlobalHook, options));
  state->function.init(context);
  state->invoker.init(context);
  if (!state->global) {
    state->error = "The user-defined function could not be set up: out of memory.";
  } else {
    JSAutoRealm realm(context, state->global);
    const auto evaluate = [&](std::string_view source, JS::MutableHandleValue out) {
      JS::Stencil* stencil = thread.Compiled(source, "udf.js", &state->error);
      if (stencil == nullptr) return false;
      JS::InstantiateOptions instantiate;
      JS::RootedScript script(context, JS::InstantiateGlobalStencil(context, instantiate, stencil));
      if (!script || !JS_ExecuteScript(context, script, out)) {
        state->error = TakePendingErrorText(context);
        return false;
      }
      return true;
    };
    std::string source = "(";
    source += body;
    source += "\n)";
    if (evaluate(source, &state->function) && evaluate(kInvoker, &state->invoker) &&
        (!state->function.isObject() || !JS_ObjectIsFunction(&state->function.toObject()))) {
      state->error = "The user-defined function's body must be a function.";
    }
  }
  Compiled* out = state.get();
  compiled.emplace(id, std::move(state));
  return out;
}

}  // namespace

UserFunction::UserFunction(std::string name, std::string body)
    : name_(std::move(name)), body_(std::move(body)), id_(next_id.fetch_add(1)) {}

UserFunction::Result UserFunction::Call(std::string_view arguments_json) const {
  calls_.fetch_add(1, std::memory_order_relaxed);
  JsThread& thread = JsThread::Current();
  JSContext* context = thread.context();
  Compiled* compiled = CompiledOn(thread, id_, body_);
  Result out;
  if (!compiled->error.empty()) {
    out.ok = false;
    out.message = "The user-defined function '" + name_ + "' does not compile: " + compiled->error;
    return out;
  }
  JSAutoRealm realm(context, compiled->global);
  JS::RootedValueArray<2> args(context);
  args[0].set(compiled->function);
  JSString* arguments =
      JS_NewStringCopyUTF8N(context, JS::UTF8Chars(arguments_json.data(), arguments_json.size()));
  if (arguments == nullptr) {
    out.ok = false;
    out.message = "The user-defined function '" + name_ + "' ran out of memory.";
    return out;
  }
  args[1].setString(arguments);
  JS::RootedValue result(context);
  thread.expired().store(false);
  bool called;
  {
    Watchdog::Guard guard(context, Watchdog::Clock::now() + std::chrono::seconds(5),
                          &thread.expired());
    called = JS::Call(context, JS::UndefinedHandleValue, compiled->invoker, args, &result);
  }
  if (!called) {
    if (JS_IsExceptionPending(context)) JS_ClearPendingException(context);
    out.ok = false;
    out.message = thread.expired().load()
                      ? "The requested operation exceeded maximum alloted time. Learn more: "
                        "https://aka.ms/cosmosdb-tsg-service-request-timeout"
                      : "The user-defined function '" + name_ + "' ran out of memory.";
    return out;
  }
  if (result.isUndefined() || !result.isObject()) {
    out.undefined = true;
    return out;
  }
  JS::RootedObject object(context, &result.toObject());
  JS::RootedValue member(context);
  if (JS_GetProperty(context, object, "error", &member) && member.isString()) {
    JS::RootedString text(context, member.toString());
    out.ok = false;
    out.message = Utf8Of(context, text);
    return out;
  }
  if (JS_GetProperty(context, object, "json", &member) && member.isString()) {
    JS::RootedString text(context, member.toString());
    out.json = Utf8Of(context, text);
    return out;
  }
  out.undefined = true;
  return out;
}

}  // namespace orrery::script
