#include "cli/item_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

namespace orrery::cli {
namespace {

class ItemReaderTest : public ::testing::Test {
 protected:
  void TearDown() override { std::filesystem::remove(path_); }

  std::string Write(const std::string& text) {
    path_ = (std::filesystem::temp_directory_path() /
             ("orrery-item-reader-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                .string();
    std::ofstream(path_, std::ios::binary) << text;
    return path_;
  }
  static Result<std::vector<std::string>> ReadAll(const std::string& file, bool validate = true) {
    ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<ItemReader> reader, ItemReader::Open(file, validate));
    std::vector<std::string> items;
    for (;;) {
      ORRERY_ASSIGN_OR_RETURN(std::optional<std::string> item, reader->Next());
      if (!item) return items;
      items.push_back(std::move(*item));
    }
  }

  std::string path_;
};

TEST_F(ItemReaderTest, JsonLinesSkipBlankLinesAndCarriageReturns) {
  auto items = ReadAll(Write("{\"id\":\"a\"}\r\n\n  \n{\"id\":\"b\"}\n{\"id\":\"c\"}"));
  ASSERT_TRUE(items.ok()) << items.status().message();
  EXPECT_EQ(*items,
            (std::vector<std::string>{"{\"id\":\"a\"}", "{\"id\":\"b\"}", "{\"id\":\"c\"}"}));
}

TEST_F(ItemReaderTest, ALineLongerThanABlockIsReadWhole) {
  const std::string big = "{\"id\":\"big\",\"pad\":\"" + std::string(3 << 20, 'x') + "\"}";
  auto items = ReadAll(Write("{\"id\":\"a\"}\n" + big + "\n{\"id\":\"z\"}\n"));
  ASSERT_TRUE(items.ok()) << items.status().message();
  ASSERT_EQ(items->size(), 3u);
  EXPECT_EQ((*items)[1], big);
  EXPECT_EQ((*items)[2], "{\"id\":\"z\"}");
}

TEST_F(ItemReaderTest, AMalformedLineIsNamedByItsNumber) {
  auto items = ReadAll(Write("{\"id\":\"a\"}\n\n{\"id\":\n"));
  ASSERT_FALSE(items.ok());
  EXPECT_NE(items.status().message().find("line 3 is not JSON"), std::string::npos)
      << items.status().message();
  // Without validation the text is passed on as it is (the import checked it before).
  auto raw = ReadAll(path_, false);
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw->size(), 2u);
}

TEST_F(ItemReaderTest, ArrayElementsEndOnlyOutsideStringsAndNestedValues) {
  const std::string a = R"({"id":"a","s":"],\"x\",[{","n":[1,[2,3]],"o":{"k":"}"}})";
  const std::string b = R"({"id":"b"})";
  auto items = ReadAll(Write("\n  [ " + a + " ,\n" + b + "\n]\n"));
  ASSERT_TRUE(items.ok()) << items.status().message();
  EXPECT_EQ(*items, (std::vector<std::string>{a, b}));
}

TEST_F(ItemReaderTest, AnEmptyArrayHasNoItems) {
  auto items = ReadAll(Write(" [ ] "));
  ASSERT_TRUE(items.ok()) << items.status().message();
  EXPECT_TRUE(items->empty());
}

TEST_F(ItemReaderTest, ArrayErrorsSayWhichElement) {
  auto bad = ReadAll(Write(R"([{"id":"a"},{"id":},{"id":"c"}])"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("array element 2 is not JSON"), std::string::npos)
      << bad.status().message();
  auto cut = ReadAll(Write(R"([{"id":"a"},{"id":"b")"));
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.status().message().find("ends inside the JSON array (array element 2)"),
            std::string::npos)
      << cut.status().message();
}

TEST_F(ItemReaderTest, AMissingFileIsAnError) {
  path_ = "/nonexistent/orrery-items.jsonl";
  EXPECT_FALSE(ItemReader::Open(path_, true).ok());
}

}  // namespace
}  // namespace orrery::cli
