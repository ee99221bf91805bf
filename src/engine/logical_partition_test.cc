// Logical partition sizes: kept with every write, and the limit of one logical
// partition (403/1014) that leaves nothing written; a prefix of a hierarchical key is
// not a logical partition.

#include <gtest/gtest.h>

#include <deque>
#include <functional>

#include "engine/account.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }
using partition::PartitionKeyComponent;

class LogicalPartitionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    AccountOptions options;
    options.store.in_memory = true;
    options.background_ttl_purge = false;
    options.logical_partition_max_bytes = 10 * 1024;
    options.background_splits = false;  // the sizes are read when a test says so
    account_ = std::move(Account::Open(options)).value();
    ASSERT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    ASSERT_TRUE(account_
                    ->CreateContainer("db", J(R"({"id":"c","partitionKey":{"paths":["/t","/d"],
                                      "kind":"MultiHash","version":2}})"),
                                      {})
                    .ok());
    container_ = *account_->GetContainer("db", "c");
  }

  // An item of about `size` bytes under (t, d).
  Result<ItemResult> Write(WriteKind kind, const std::string& t, const std::string& d,
                           const std::string& id, size_t size) {
    bodies_.push_back(R"({"id":")" + id + R"(","t":")" + t + R"(","d":")" + d + R"(","pad":")" +
                      std::string(size, 'x') + R"("})");
    ItemWriteRequest r;
    r.kind = kind;
    r.partition_key = Key(t, d);
    r.body = bodies_.back();
    ids_.push_back(id);
    r.url_id = ids_.back();
    return container_->WriteItem(r);
  }
  static partition::PartitionKeyValue Key(const std::string& t, const std::string& d) {
    return {PartitionKeyComponent::String(t), PartitionKeyComponent::String(d)};
  }
  Container::LogicalPartitionSize SizeOf(const std::string& label) {
    Result<std::vector<Container::LogicalPartitionSize>> sizes =
        container_->LogicalPartitionSizes();
    EXPECT_TRUE(sizes.ok());
    if (!sizes.ok()) return {};
    for (auto& s : *sizes) {
      if (s.partition_key == label) return s;
    }
    return {};
  }

  // Creates items of ~1,150 bytes under (t1, d1) until one is refused (at most 20);
  // `between(i)` runs after the i-th attempt. Returns how many were written.
  int FillUntilRefused(Status& refused, const std::function<void(int)>& between = {}) {
    int written = 0;
    for (int i = 0; i < 20 && refused.ok(); ++i) {
      Result<ItemResult> r = Write(WriteKind::kCreate, "t1", "d1", "i" + std::to_string(i), 1000);
      if (r.ok()) {
        ++written;
      } else {
        refused = r.status();
      }
      if (between) between(i);
    }
    return written;
  }

  std::unique_ptr<Account> account_;
  std::shared_ptr<Container> container_;
  std::deque<std::string> bodies_;
  std::deque<std::string> ids_;
};

TEST_F(LogicalPartitionTest, SizesFollowCreatesReplacesAndDeletes) {
  ASSERT_TRUE(Write(WriteKind::kCreate, "t1", "d1", "a", 1000).ok());
  ASSERT_TRUE(Write(WriteKind::kCreate, "t1", "d1", "b", 1000).ok());
  Container::LogicalPartitionSize s = SizeOf(R"(["t1","d1"])");
  EXPECT_EQ(s.items, 2);
  const int64_t two = s.bytes;
  EXPECT_GT(two, 2000);
  ASSERT_TRUE(Write(WriteKind::kReplace, "t1", "d1", "a", 3000).ok());
  EXPECT_EQ(SizeOf(R"(["t1","d1"])").items, 2);
  EXPECT_EQ(SizeOf(R"(["t1","d1"])").bytes, two + 2000);
  ASSERT_TRUE(container_->DeleteItem(Key("t1", "d1"), "b", std::nullopt).ok());
  EXPECT_EQ(SizeOf(R"(["t1","d1"])").items, 1);
  ASSERT_TRUE(container_->DeleteItem(Key("t1", "d1"), "a", std::nullopt).ok());
  EXPECT_EQ(container_->LogicalPartitionSizes()->size(), 0u) << "an emptied partition is gone";
}

TEST_F(LogicalPartitionTest, AFullLogicalPartitionRefusesWritesAndKeepsItsData) {
  Status refused;
  const int written = FillUntilRefused(refused);
  EXPECT_EQ(refused.code(), StatusCode::kForbidden);
  EXPECT_EQ(refused.substatus(), 1014);
  EXPECT_NE(refused.message().find("Partition key reached maximum size of 10240 bytes"),
            std::string::npos)
      << refused.message();
  // Items of ~1,150 bytes with their system properties: 8 fit in 10,240 bytes.
  EXPECT_EQ(written, 8);
  EXPECT_EQ(SizeOf(R"(["t1","d1"])").items, 8) << "the refused write left nothing";
  EXPECT_FALSE(container_->ReadItem(Key("t1", "d1"), "i8", std::nullopt).ok());
  // Growing an item past the limit is refused too; shrinking one is not.
  EXPECT_EQ(Write(WriteKind::kReplace, "t1", "d1", "i0", 2000).status().substatus(), 1014);
  EXPECT_TRUE(Write(WriteKind::kReplace, "t1", "d1", "i0", 10).ok());
  // Another device of the same tenant is another logical partition: the tenant (a
  // prefix) may hold more than the limit.
  for (int i = 0; i < 8; ++i) {
    EXPECT_TRUE(Write(WriteKind::kCreate, "t1", "d2", "j" + std::to_string(i), 1000).ok());
  }
}

TEST_F(LogicalPartitionTest, TheLimitStaysExactOnceTheSizesHaveBeenRead) {
  // A reading of the sizes (the splitter's) lets writes that keep the whole container
  // within the limit skip reading their partition's size; the limit must not move.
  ASSERT_TRUE(Write(WriteKind::kCreate, "t1", "d2", "j0", 1000).ok());
  ASSERT_TRUE(account_->SplitWhereNeeded().ok());
  EXPECT_GT(container_->write_state()->container_bytes_at_sizes_read.load(), 1000);
  Status refused;
  const int written = FillUntilRefused(refused, [&](int i) {
    if (i == 3) {
      ASSERT_TRUE(account_->SplitWhereNeeded().ok());
    }
  });
  EXPECT_EQ(refused.substatus(), 1014);
  EXPECT_EQ(written, 8);
  EXPECT_EQ(SizeOf(R"(["t1","d1"])").items, 8);
}

TEST_F(LogicalPartitionTest, ATransactionalBatchPastTheLimitWritesNothing) {
  std::vector<BatchOperation> ops;
  for (int i = 0; i < 12; ++i) {
    BatchOperation op;
    op.kind = BatchOperation::Kind::kCreate;
    op.body = R"({"id":"b)" + std::to_string(i) + R"(","t":"t1","d":"d1","pad":")" +
              std::string(1000, 'y') + R"("})";
    ops.push_back(std::move(op));
  }
  Result<std::vector<BatchOperationResult>> results =
      container_->ExecuteBatch(Key("t1", "d1"), ops);
  ASSERT_TRUE(results.ok());
  bool any_failed = false;
  for (const auto& r : *results) any_failed = any_failed || r.status.substatus() == 1014;
  EXPECT_TRUE(any_failed);
  EXPECT_EQ(SizeOf(R"(["t1","d1"])").items, 0);
  EXPECT_EQ(container_->LogicalPartitionSizes()->size(), 0u);
}

}  // namespace
}  // namespace orrery::engine
