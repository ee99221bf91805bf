// Stored procedures in the engine: their records persist, an execution's writes are one
// transaction of its logical partition (all kept when it completes, none when it fails
// or runs out of time), other writes to the partition wait for it, and its queries see
// its own writes.

#include "engine/script_execution.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "engine/account.h"
#include "json/json.h"
#include "storage/test_data_directory.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

partition::PartitionKeyValue Key(const std::string& value) {
  return {partition::PartitionKeyComponent::String(value)};
}

class ScriptExecutionTest : public storage::DataDirectoryTest {
 protected:
  void SetUp() override {
    DataDirectoryTest::SetUp();
    Open(/*create=*/true);
  }
  void TearDown() override {
    container_.reset();
    account_.reset();
    DataDirectoryTest::TearDown();
  }

  void Open(bool create) {
    AccountOptions options;
    options.store.in_memory = false;
    options.store.path = dir_;
    options.background_splits = false;
    container_.reset();
    account_.reset();
    account_ = std::move(Account::Open(options)).value();
    if (create) {
      ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
      ASSERT_TRUE(account_
                      ->CreateContainer(
                          "db", J(R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2}})"), {})
                      .ok());
    }
    container_ = *account_->GetContainer("db", "c");
  }

  ScriptRun Run(std::string_view body, std::string_view arguments, const std::string& pk = "p") {
    StoredProcedureCall call;
    call.partition_key = Key(pk);
    call.body = body;
    call.arguments = arguments;
    call.alt_link = "dbs/db/colls/c";
    Result<ScriptRun> run = ExecuteStoredProcedure(*container_, call);
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    return run.ok() ? std::move(*run) : ScriptRun{};
  }

  bool Exists(const std::string& pk, const std::string& id) {
    return container_->ReadItem(Key(pk), id, std::nullopt).ok();
  }

  std::unique_ptr<Account> account_;
  std::shared_ptr<Container> container_;
};

constexpr const char* kCreateAll = R"(function (ids, failAtEnd) {
  var c = getContext().getCollection();
  var made = 0;
  ids.forEach(function (id) {
    c.createDocument(c.getSelfLink(), { id: id, pk: "p" }, function (err) {
      if (err) throw err;
      if (++made === ids.length) {
        if (failAtEnd) throw new Error("failing at the end");
        getContext().getResponse().setBody(made);
      }
    });
  });
})";

TEST_F(ScriptExecutionTest, ScriptsAreKeptAcrossRestarts) {
  ASSERT_TRUE(container_
                  ->CreateScript(ScriptType::kStoredProcedure,
                                 J(R"({"id":"s1","body":"function () {}"})"), false)
                  .ok());
  ASSERT_TRUE(container_
                  ->CreateScript(ScriptType::kTrigger,
                                 J(R"({"id":"t1","body":"function () {}","triggerType":"Pre",
                                       "triggerOperation":"Create"})"),
                                 false)
                  .ok());
  Open(/*create=*/false);
  Result<json::Value> read = container_->ReadScript(ScriptType::kStoredProcedure, "s1");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->Find("body")->as_string(), "function () {}");
  EXPECT_TRUE(container_->ReadScript(ScriptType::kTrigger, "t1").ok());
  EXPECT_TRUE(container_->ReadScript(ScriptType::kTrigger, "s1").status().IsNotFound());
  Result<std::optional<std::string>> by_rid =
      container_->ScriptIdOfRid(ScriptType::kStoredProcedure, read->Find("_rid")->as_string());
  ASSERT_TRUE(by_rid.ok() && *by_rid);
  EXPECT_EQ(**by_rid, "s1");
}

TEST_F(ScriptExecutionTest, BadScriptsAreRefused) {
  Status syntax = container_
                      ->CreateScript(ScriptType::kStoredProcedure,
                                     J(R"({"id":"s","body":"function ( {"})"), false)
                      .status();
  EXPECT_EQ(syntax.code(), StatusCode::kBadRequest);
  EXPECT_NE(syntax.message().find("SyntaxError"), std::string::npos) << syntax.message();
  EXPECT_EQ(container_
                ->CreateScript(ScriptType::kTrigger,
                               J(R"({"id":"t","body":"function () {}","triggerType":"Sideways",
                                     "triggerOperation":"All"})"),
                               false)
                .status()
                .code(),
            StatusCode::kBadRequest);
  EXPECT_EQ(container_->CreateScript(ScriptType::kStoredProcedure, J(R"({"id":"s"})"), false)
                .status()
                .code(),
            StatusCode::kBadRequest);
  EXPECT_EQ(container_->ListScripts(ScriptType::kStoredProcedure)->size(), 0u);
}

TEST_F(ScriptExecutionTest, StoredProceduresPerContainerAreLimitedToOneHundred) {
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(
        container_
            ->CreateScript(ScriptType::kStoredProcedure,
                           J(R"({"id":"s)" + std::to_string(i) + R"(","body":"function () {}"})"),
                           false)
            .ok());
  }
  EXPECT_EQ(container_
                ->CreateScript(ScriptType::kStoredProcedure,
                               J(R"({"id":"one-more","body":"function () {}"})"), false)
                .status()
                .code(),
            StatusCode::kForbidden);
}

TEST_F(ScriptExecutionTest, CompletedExecutionKeepsEveryWrite) {
  ScriptRun run = Run(kCreateAll, R"([["a","b","c"], false])");
  ASSERT_EQ(run.outcome.kind, script::Outcome::Kind::kCompleted) << run.outcome.message;
  EXPECT_EQ(run.outcome.response_body, "3");
  EXPECT_GT(run.operations_charge, 0);
  EXPECT_TRUE(Exists("p", "a") && Exists("p", "b") && Exists("p", "c"));
}

TEST_F(ScriptExecutionTest, FailedExecutionKeepsNothing) {
  ScriptRun run = Run(kCreateAll, R"([["a","b","c"], true])");
  ASSERT_EQ(run.outcome.kind, script::Outcome::Kind::kFailed);
  EXPECT_FALSE(Exists("p", "a") || Exists("p", "b") || Exists("p", "c"));
}

TEST_F(ScriptExecutionTest, TimedOutExecutionKeepsNothing) {
  StoredProcedureCall call;
  call.partition_key = Key("p");
  call.body = R"(function () {
    var c = getContext().getCollection();
    c.createDocument(c.getSelfLink(), { id: "x", pk: "p" }, function () { while (true) {} });
  })";
  call.arguments = "[]";
  call.alt_link = "dbs/db/colls/c";
  Result<ScriptRun> run = ExecuteStoredProcedure(*container_, call);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->outcome.kind, script::Outcome::Kind::kTimedOut);
  EXPECT_EQ(StatusOfFailedScript(run->outcome).code(), StatusCode::kRequestTimeout);
  EXPECT_FALSE(Exists("p", "x"));
}

TEST_F(ScriptExecutionTest, QueriesSeeTheExecutionsOwnWrites) {
  ASSERT_TRUE(container_
                  ->WriteItem({.kind = WriteKind::kCreate,
                               .partition_key = Key("p"),
                               .body = R"({"id":"old","pk":"p","n":1})"})
                  .ok());
  ScriptRun run = Run(R"(function () {
    var c = getContext().getCollection();
    c.createDocument(c.getSelfLink(), { id: "new", pk: "p", n: 2 }, function () {
      c.deleteDocument(c.getAltLink() + "/docs/old", function () {
        c.queryDocuments(c.getSelfLink(), "SELECT VALUE d.id FROM d WHERE d.n > 0", function (err, ids) {
          if (err) throw err;
          getContext().getResponse().setBody(ids);
        });
      });
    });
  })",
                      "[]");
  ASSERT_EQ(run.outcome.kind, script::Outcome::Kind::kCompleted) << run.outcome.message;
  EXPECT_EQ(run.outcome.response_body, R"(["new"])");
}

TEST_F(ScriptExecutionTest, OtherWritesToThePartitionWaitForTheExecution) {
  // The script holds its partition while it spins for a while after its write; a write
  // to the same partition started meanwhile lands after the script's commit.
  std::atomic<bool> other_done{false};
  std::thread script([&] {
    ScriptRun run = Run(R"(function () {
      var c = getContext().getCollection();
      c.upsertDocument(c.getSelfLink(), { id: "shared", pk: "p", by: "script" }, function () {
        var until = Date.now() + 300;
        while (Date.now() < until) {}
      });
    })",
                        "[]");
    EXPECT_EQ(run.outcome.kind, script::Outcome::Kind::kCompleted);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  Result<ItemResult> other =
      container_->WriteItem({.kind = WriteKind::kUpsert,
                             .partition_key = Key("p"),
                             .body = R"({"id":"shared","pk":"p","by":"other"})"});
  other_done = true;
  script.join();
  ASSERT_TRUE(other.ok());
  Result<Container::ReadResult> read = container_->ReadItem(Key("p"), "shared", std::nullopt);
  ASSERT_TRUE(read.ok());
  EXPECT_NE(read->item.json.find(R"("by":"other")"), std::string::npos) << read->item.json;
}

TEST_F(ScriptExecutionTest, WritesToAnotherPartitionAreRefused) {
  ScriptRun run = Run(R"(function () {
    var c = getContext().getCollection();
    c.createDocument(c.getSelfLink(), { id: "x", pk: "elsewhere" });
  })",
                      "[]");
  ASSERT_EQ(run.outcome.kind, script::Outcome::Kind::kFailed);
  EXPECT_EQ(run.outcome.number, 400);
  EXPECT_NE(run.outcome.message.find("cannot reference partition keys other than"),
            std::string::npos)
      << run.outcome.message;
  EXPECT_FALSE(Exists("elsewhere", "x"));
}

}  // namespace
}  // namespace orrery::engine
