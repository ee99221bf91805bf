#include "api/error_mapping.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace orrery::api {
namespace {

const std::string* Find(const http::Response& response, std::string_view name) {
  for (const http::Header& header : response.headers) {
    if (header.name == name) return &header.value;
  }
  return nullptr;
}

TEST(ErrorMappingTest, AFullDiskIs507InsufficientStorage) {
  EXPECT_EQ(HttpStatusOf(StatusCode::kInsufficientStorage), 507);
  EXPECT_STREQ(ErrorCodeName(507), "InsufficientStorage");
}

TEST(ErrorMappingTest, AFullDiskAnswersWithTheServiceErrorBody) {
  const http::Response response =
      ErrorResponse(Status::InsufficientStorage("The disk holding the data directory is full."),
                    "00000000-0000-0000-0000-000000000001", "/dbs/d/colls/c/docs", 0);
  EXPECT_EQ(response.status, 507);
  EXPECT_EQ(Find(response, "x-ms-substatus"), nullptr);
  Result<json::Value> body = json::Parse(response.body);
  ASSERT_TRUE(body.ok()) << response.body;
  ASSERT_NE(body->Find("code"), nullptr);
  EXPECT_EQ(body->Find("code")->as_string(), "InsufficientStorage");
  ASSERT_NE(body->Find("message"), nullptr);
  EXPECT_NE(body->Find("message")->as_string().find("The disk holding the data directory is full."),
            std::string::npos)
      << response.body;
}

TEST(ErrorMappingTest, OtherStorageFailuresStay500) {
  EXPECT_EQ(HttpStatusOf(StatusCode::kIoError), 500);
  EXPECT_EQ(HttpStatusOf(StatusCode::kCorruption), 500);
}

}  // namespace
}  // namespace orrery::api
