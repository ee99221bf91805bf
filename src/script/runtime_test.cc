#include "script/runtime.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <map>
#include <thread>

#include "json/json.h"

namespace orrery::script {
namespace {

// A logical partition's documents in memory; every operation is accepted until
// `accept_until` operations have run.
class FakeHost : public ScriptHost {
 public:
  std::string Call(std::string_view operation, std::string_view request_text) override {
    calls.push_back(std::string(operation));
    if (calls.size() > accept_until) return R"({"na":true})";
    json::Value request = *json::Parse(request_text);
    auto id_of = [&] { return request.Find("id")->as_string(); };
    if (operation == "create" || operation == "upsert") {
      json::Value body = *json::Parse(request.Find("body")->as_string());
      const std::string id = body.Find("id")->as_string();
      if (operation == "create" && docs.count(id)) {
        return R"({"s":409,"ss":0,"m":"Resource with specified id or name already exists."})";
      }
      docs[id] = json::Write(body);
      return R"({"s":201,"b":)" + docs[id] + "}";
    }
    if (operation == "read") {
      auto it = docs.find(id_of());
      if (it == docs.end()) return R"({"s":404,"ss":0,"m":"Resource Not Found"})";
      return R"({"s":200,"b":)" + it->second + "}";
    }
    if (operation == "replace") {
      if (!docs.count(id_of())) return R"({"s":404,"ss":0,"m":"Resource Not Found"})";
      docs[id_of()] = request.Find("body")->as_string();
      return R"({"s":200,"b":)" + docs[id_of()] + "}";
    }
    if (operation == "delete") {
      if (docs.erase(id_of()) == 0) return R"({"s":404,"ss":0,"m":"Resource Not Found"})";
      return R"({"s":204})";
    }
    if (operation == "readFeed" || operation == "query") {
      std::string out = R"({"s":200,"b":[)";
      bool first = true;
      for (const auto& [id, doc] : docs) {
        if (!first) out += ',';
        out += doc;
        first = false;
      }
      return out + "]}";
    }
    return R"({"s":400,"m":"unknown operation"})";
  }

  std::map<std::string, std::string> docs;
  std::vector<std::string> calls;
  size_t accept_until = 1000000;
};

constexpr const char* kFacts =
    R"({"kind":"sproc","selfLink":"dbs/AAAAAA==/colls/AAAAAIAAAAA=/","altLink":"dbs/db/colls/c",)"
    R"("logging":true,"partitionKeyPaths":["/pk"]})";

Outcome RunSproc(FakeHost& host, std::string_view body, std::string_view arguments = "[]",
                 std::chrono::milliseconds limit = kExecutionTimeLimit) {
  Invocation invocation;
  invocation.body = body;
  invocation.arguments = arguments;
  invocation.facts = kFacts;
  invocation.time_limit = limit;
  return Execute(invocation, host);
}

TEST(ScriptRuntimeTest, HelloWorldSetsTheBodyAsJson) {
  FakeHost host;
  Outcome out = RunSproc(host, R"(function () {
    getContext().getResponse().setBody("Hello, World");
  })");
  ASSERT_EQ(out.kind, Outcome::Kind::kCompleted) << out.message;
  EXPECT_EQ(out.response_body, "\"Hello, World\"");
}

TEST(ScriptRuntimeTest, ModernSyntaxRuns) {
  FakeHost host;
  Outcome out = RunSproc(host, R"((prefix, n) => {
    class Greeter { constructor(p) { this.p = p; } greet(x) { return `${this.p} ${x}`; } }
    const { a, ...rest } = { a: 1, b: 2, c: 3 };
    let total = 0;
    for (const v of [1, 2, 3]) total += v;
    getContext().getResponse().setBody({ text: new Greeter(prefix).greet(n), a, rest, total });
  })",
                         R"(["hi", 7])");
  ASSERT_EQ(out.kind, Outcome::Kind::kCompleted) << out.message;
  EXPECT_EQ(out.response_body, R"({"text":"hi 7","a":1,"rest":{"b":2,"c":3},"total":6})");
}

TEST(ScriptRuntimeTest, NoBodySetLeavesItEmpty) {
  FakeHost host;
  Outcome out = RunSproc(host, "function () { var x = 1; }");
  ASSERT_EQ(out.kind, Outcome::Kind::kCompleted);
  EXPECT_EQ(out.response_body, "");
}

TEST(ScriptRuntimeTest, CallbacksRunAfterTheFunctionReturnsInOrder) {
  FakeHost host;
  Outcome out = RunSproc(host, R"(function () {
    var order = [];
    var coll = getContext().getCollection();
    coll.createDocument(coll.getSelfLink(), { id: "a" }, function (err, doc) { order.push("a:" + doc.id); });
    coll.createDocument(coll.getAltLink(), { id: "b" }, {}, function (err, doc) {
      order.push("b:" + doc.id);
      getContext().getResponse().setBody(order);
    });
    order.push("returned");
  })");
  ASSERT_EQ(out.kind, Outcome::Kind::kCompleted) << out.message;
  EXPECT_EQ(out.response_body, R"(["returned","a:a","b:b"])");
  EXPECT_EQ(host.docs.size(), 2u);
}

// The documented bulk import: each create chained from the previous one's callback, the
// count returned; deep chains do not grow the stack.
TEST(ScriptRuntimeTest, BulkImportChainsTenThousandCreates) {
  FakeHost host;
  std::string docs = "[";
  for (int i = 0; i < 10000; ++i)
    docs += (i ? ",{\"id\":\"d" : "{\"id\":\"d") + std::to_string(i) + "\"}";
  docs += "]";
  Outcome out = RunSproc(host, R"(function bulkImport(docs) {
    var collection = getContext().getCollection();
    var count = 0;
    if (!docs) throw new Error("The array is undefined or null.");
    if (docs.length == 0) { getContext().getResponse().setBody(0); return; }
    tryCreate(docs[count], callback);
    function tryCreate(doc, callback) {
      var isAccepted = collection.createDocument(collection.getSelfLink(), doc, callback);
      if (!isAccepted) getContext().getResponse().setBody(count);
    }
    function callback(err, doc, options) {
      if (err) throw err;
      count++;
      if (count >= docs.length) getContext().getResponse().setBody(count);
      else tryCreate(docs[count], callback);
    }
  })",
                         "[" + docs + "]");
  ASSERT_EQ(out.kind, Outcome::Kind::kCompleted) << out.message;
  EXPECT_EQ(out.response_body, "10000");
  EXPECT_EQ(host.docs.size(), 10000u);
}

TEST(ScriptRuntimeTest, NotAcceptedOperationReturnsFalse) {
  FakeHost host;
  host.accept_until = 3;
  Outcome out = RunSproc(host, R"(function () {
    var c = getContext().getCollection();
    var accepted = [];
    for (var i = 0; i < 5; i++) accepted.push(c.createDocument(c.getSelfLink(), { id: "x" + i }));
    getContext().getResponse().setBody(accepted);
  })");
  ASSERT_EQ(out.kind, Outcome::Kind::kCompleted) << out.message;
  EXPECT_EQ(out.response_body, "[true,true,true,false,false]");
}

TEST(ScriptRuntimeTest, CallbackErrorCarriesStatusAndServiceBody) {
  FakeHost host;
  Outcome out = RunSproc(host, R"(function () {
    var c = getContext().getCollection();
    c.readDocument(c.getAltLink() + "/docs/missing", function (err) {
      getContext().getResponse().setBody({ number: err.number, message: err.message });
    });
  })");
  ASSERT_EQ(out.kind, Outcome::Kind::kCompleted) << out.message;
  EXPECT_EQ(out.response_body,
            R"({"number":404,"message":"{\"Errors\":[\"Resource Not Found\"]}"})");
}

TEST(ScriptRuntimeTest, RethrownCallbackErrorFailsWithItsNumber) {
  FakeHost host;
  Outcome out = RunSproc(host, R"(function () {
    var c = getContext().getCollection();
    c.readDocument(c.getAltLink() + "/docs/missing", function (err) { if (err) throw err; });
  })");
  ASSERT_EQ(out.kind, Outcome::Kind::kFailed);
  EXPECT_EQ(out.number, 404);
  EXPECT_EQ(out.message.rfind("Encountered exception while executing function. Exception = Error: "
                              "{\"Errors\":[\"Resource Not Found\"]}\r\nStack trace: ",
                              0),
            0u)
      << out.message;
}

TEST(ScriptRuntimeTest, ErrorWithNumberAndMessageIsJScriptStyle) {
  FakeHost host;
  Outcome out = RunSproc(host, R"(function () { throw new Error(429, "too busy"); })");
  ASSERT_EQ(out.kind, Outcome::Kind::kFailed);
  EXPECT_EQ(out.number, 429);
  EXPECT_NE(out.message.find("Exception = Error: too busy"), std::string::npos) << out.message;
}

TEST(ScriptRuntimeTest, ThrownStringIsTheMessageAsIs) {
  FakeHost host;
  Outcome out = RunSproc(host, R"(function () { throw '{"code":700}'; })");
  ASSERT_EQ(out.kind, Outcome::Kind::kFailed);
  EXPECT_EQ(out.number, 0);
  EXPECT_EQ(out.message, R"({"code":700})");
}

TEST(ScriptRuntimeTest, ErrorsWithoutCallbackEndTheScript) {
  FakeHost host;
  host.docs["a"] = R"({"id":"a"})";
  Outcome out = RunSproc(host, R"(function () {
    var c = getContext().getCollection();
    c.createDocument(c.getSelfLink(), { id: "a" });
    getContext().getResponse().setBody("not reached?");
  })");
  ASSERT_EQ(out.kind, Outcome::Kind::kFailed);
  EXPECT_EQ(out.number, 409);
}

TEST(ScriptRuntimeTest, LinksOutsideTheCollectionAreRefused) {
  FakeHost host;
  Outcome out = RunSproc(host, R"(function () {
    var c = getContext().getCollection();
    c.createDocument("dbs/db/colls/other", { id: "a" });
  })");
  ASSERT_EQ(out.kind, Outcome::Kind::kFailed);
  EXPECT_EQ(out.number, 400);
  EXPECT_NE(
      out.message.find("Function is not allowed to operate on resources outside current "
                       "collection. Make sure that the link provided, \"dbs/db/colls/other\", "
                       "belongs to current collection."),
      std::string::npos)
      << out.message;
  EXPECT_TRUE(host.calls.empty());
}

TEST(ScriptRuntimeTest, AsyncAwaitOverPromisifiedCallbacks) {
  FakeHost host;
  host.docs["a"] = R"({"id":"a","n":1})";
  Outcome out = RunSproc(host, R"(function () {
    const c = getContext().getCollection();
    const read = (id) => new Promise((resolve, reject) =>
      c.readDocument(`${c.getAltLink()}/docs/${id}`, (err, doc) => err ? reject(err) : resolve(doc)));
    async function main() {
      const doc = await read("a");
      doc.n += 1;
      await new Promise((resolve, reject) =>
        c.replaceDocument(doc._self || `${c.getAltLink()}/docs/a`, doc, (err) => err ? reject(err) : resolve()));
      getContext().getResponse().setBody(doc.n);
    }
    main().catch((err) => getContext().abort(err));
  })");
  ASSERT_EQ(out.kind, Outcome::Kind::kCompleted) << out.message;
  EXPECT_EQ(out.response_body, "2");
  EXPECT_EQ(host.docs["a"], R"({"id":"a","n":2})");
}

TEST(ScriptRuntimeTest, AbortInAPromiseFails) {
  FakeHost host;
  Outcome out = RunSproc(host, R"(function () {
    async function main() { throw new Error("inside"); }
    main().catch((err) => getContext().abort(err));
  })");
  ASSERT_EQ(out.kind, Outcome::Kind::kFailed);
  EXPECT_NE(out.message.find("Error: inside"), std::string::npos) << out.message;
}

TEST(ScriptRuntimeTest, ConsoleLogIsCollectedWhenEnabled) {
  FakeHost host;
  Outcome out = RunSproc(host, R"(function () {
    console.log("a=%s, b=%s %%", 1, "two");
    console.log("!");
  })");
  ASSERT_EQ(out.kind, Outcome::Kind::kCompleted);
  EXPECT_EQ(out.log, "a=1, b=two %!");
}

TEST(ScriptRuntimeTest, InfiniteLoopIsStoppedAtTheTimeLimit) {
  FakeHost host;
  const auto started = std::chrono::steady_clock::now();
  Outcome out =
      RunSproc(host, "function () { while (true) {} }", "[]", std::chrono::milliseconds(200));
  EXPECT_EQ(out.kind, Outcome::Kind::kTimedOut);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  // The thread's context serves the next execution.
  Outcome next = RunSproc(host, "function () { getContext().getResponse().setBody(1); }");
  ASSERT_EQ(next.kind, Outcome::Kind::kCompleted);
  EXPECT_EQ(next.response_body, "1");
}

TEST(ScriptRuntimeTest, DeepRecursionIsAnError) {
  FakeHost host;
  Outcome out = RunSproc(host, "function f() { function r(n) { return r(n + 1) + 1; } r(0); }");
  ASSERT_EQ(out.kind, Outcome::Kind::kFailed);
  EXPECT_NE(out.message.find("too much recursion"), std::string::npos) << out.message;
}

// The heap is bounded: a script that keeps allocating is stopped (out of memory, or at
// its time limit while the collector fights for the last bytes) without the process
// growing past the bound.
TEST(ScriptRuntimeTest, HugeAllocationIsStopped) {
  FakeHost host;
  Outcome out = RunSproc(host, R"(function () {
    var parts = [];
    for (var i = 0; i < 1e9; i++) parts.push("x".repeat(1024) + i);
  })",
                         "[]", std::chrono::milliseconds(1500));
  EXPECT_NE(out.kind, Outcome::Kind::kCompleted);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  EXPECT_LT(usage.ru_maxrss, 1024 * 1024) << "peak RSS in KB";
  Outcome next = RunSproc(host, "function () { getContext().getResponse().setBody(2); }");
  ASSERT_EQ(next.kind, Outcome::Kind::kCompleted);
  EXPECT_EQ(next.response_body, "2");
}

TEST(ScriptRuntimeTest, NothingLeaksBetweenExecutions) {
  FakeHost host;
  ASSERT_EQ(RunSproc(host, "function () { globalThis.leak = 42; Array.prototype.evil = 1; }").kind,
            Outcome::Kind::kCompleted);
  Outcome out = RunSproc(host, R"(function () {
    getContext().getResponse().setBody([typeof leak, [].evil === undefined]);
  })");
  ASSERT_EQ(out.kind, Outcome::Kind::kCompleted);
  EXPECT_EQ(out.response_body, R"(["undefined",true])");
}

// Every execution makes a global of its own; the thread's heap must not fill with them.
TEST(ScriptRuntimeTest, ManyExecutionsDoNotExhaustTheHeap) {
  FakeHost host;
  host.docs["a"] = R"({"id":"a","pad":")" + std::string(900, 'x') + R"("})";
  for (int i = 0; i < 5000; ++i) {
    Outcome out = RunSproc(host, R"(function (id) {
      var c = getContext().getCollection();
      c.readDocument(c.getAltLink() + "/docs/" + id, function (err, doc) {
        if (err) throw err;
        getContext().getResponse().setBody(doc);
      });
    })",
                           R"(["a"])");
    ASSERT_EQ(out.kind, Outcome::Kind::kCompleted) << "execution " << i << ": " << out.message;
  }
}

TEST(ScriptRuntimeTest, SyntaxErrorsAreReportedWithTheirPlace) {
  std::optional<std::string> error = CompileError("function () { var = 1; }");
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("SyntaxError"), std::string::npos) << *error;
  EXPECT_FALSE(CompileError("function sample(prefix) { return prefix; }").has_value());
  EXPECT_FALSE(CompileError("async function () {}").has_value());
}

TEST(ScriptRuntimeTest, PreTriggerChangesTheRequestBody) {
  FakeHost host;
  Invocation invocation;
  invocation.kind = ScriptKind::kPreTrigger;
  invocation.body = R"(function validateToDoItemTimestamp() {
    var context = getContext();
    var request = context.getRequest();
    var itemToCreate = request.getBody();
    if (!("timestamp" in itemToCreate)) { itemToCreate["timestamp"] = 12345; }
    request.setBody(itemToCreate);
  })";
  invocation.facts =
      R"({"kind":"pre","selfLink":"dbs/a/colls/b","altLink":"dbs/db/colls/c",)"
      R"("partitionKeyPaths":["/pk"],"requestBody":{"id":"x"},"operationType":"Create"})";
  Outcome out = Execute(invocation, host);
  ASSERT_EQ(out.kind, Outcome::Kind::kCompleted) << out.message;
  EXPECT_EQ(out.request_body, R"({"id":"x","timestamp":12345})");
}

TEST(ScriptRuntimeTest, ThreadsRunScriptsAtOnce) {
  std::vector<std::thread> threads;
  std::vector<std::string> bodies(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&bodies, t] {
      FakeHost host;
      for (int i = 0; i < 20; ++i) {
        Outcome out = RunSproc(host, "function (x) { getContext().getResponse().setBody(x * 2); }",
                               "[" + std::to_string(t) + "]");
        bodies[t] = out.response_body;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(bodies[t], std::to_string(t * 2));
}

}  // namespace
}  // namespace orrery::script
