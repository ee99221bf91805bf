#include "engine/item_record.h"

#include <gtest/gtest.h>

namespace orrery::engine {
namespace {

TEST(ItemRecordTest, RoundTripsEtagJsonAndLsn) {
  const std::string record = EncodeItemRecord("\"e1\"", R"({"id":"a"})", 0x0102030405060708ULL);
  std::optional<ItemRecordView> view = DecodeItemRecord(record);
  ASSERT_TRUE(view.has_value());
  EXPECT_EQ(view->etag, "\"e1\"");
  EXPECT_EQ(view->json, R"({"id":"a"})");
  EXPECT_EQ(view->lsn, 0x0102030405060708ULL);
  EXPECT_TRUE(view->indexed);
}

TEST(ItemRecordTest, KeepsWhetherTheItemIsInTheIndex) {
  const std::string record = EncodeItemRecord("\"e1\"", R"({"id":"a"})", 7, false);
  EXPECT_EQ(record[0], kItemFormatV2Unindexed);
  std::optional<ItemRecordView> view = DecodeItemRecord(record);
  ASSERT_TRUE(view.has_value());
  EXPECT_FALSE(view->indexed);
  EXPECT_EQ(view->etag, "\"e1\"");
  EXPECT_EQ(view->json, R"({"id":"a"})");
  EXPECT_EQ(view->lsn, 7u);
}

TEST(ItemRecordTest, ReadsRecordsWrittenBeforeTheChangeFeed) {
  // Format 1: no LSN.
  const std::string v1 = std::string(1, kItemFormatV1) + '\x04' + "\"e1\"" + R"({"id":"a"})";
  std::optional<ItemRecordView> view = DecodeItemRecord(v1);
  ASSERT_TRUE(view.has_value());
  EXPECT_EQ(view->etag, "\"e1\"");
  EXPECT_EQ(view->json, R"({"id":"a"})");
  EXPECT_EQ(view->lsn, 0u);
}

TEST(ItemRecordTest, MalformedRecordsAreRefused) {
  for (std::string bad : {std::string(), std::string("\x03xyz"), std::string("\x02\x00\x01", 3),
                          std::string(1, kItemFormatV1) + '\x09' + "short"}) {
    EXPECT_FALSE(DecodeItemRecord(bad).has_value());
  }
}

}  // namespace
}  // namespace orrery::engine
