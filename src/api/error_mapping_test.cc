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
  ASSERT_NE(Find(response, "x-ms-substatus"), nullptr);
  EXPECT_EQ(*Find(response, "x-ms-substatus"), "0");
  Result<json::Value> body = json::Parse(response.body);
  ASSERT_TRUE(body.ok()) << response.body;
  ASSERT_NE(body->Find("code"), nullptr);
  EXPECT_EQ(body->Find("code")->as_string(), "InsufficientStorage");
  ASSERT_NE(body->Find("message"), nullptr);
  EXPECT_NE(body->Find("message")->as_string().find("The disk holding the data directory is full."),
            std::string::npos)
      << response.body;
}

TEST(ErrorMappingTest, EveryErrorCarriesItsSubstatusAndZeroWhereItHasNone) {
  const http::Response not_found =
      ErrorResponse(Status::NotFound("Resource Not Found"), "a", "/", 0);
  ASSERT_NE(Find(not_found, "x-ms-substatus"), nullptr);
  EXPECT_EQ(*Find(not_found, "x-ms-substatus"), "0");
  const http::Response mismatch = ErrorResponse(
      Status::BadRequest("PartitionKey extracted from document doesn't match", 1001), "a", "/", 0);
  ASSERT_NE(Find(mismatch, "x-ms-substatus"), nullptr);
  EXPECT_EQ(*Find(mismatch, "x-ms-substatus"), "1001");
  const http::Response throttled =
      ErrorResponse(Status::TooManyRequests("Request rate is large.", 5), "a", "/", 0);
  ASSERT_NE(Find(throttled, "x-ms-substatus"), nullptr);
  EXPECT_EQ(*Find(throttled, "x-ms-substatus"), "3200");
}

TEST(ErrorMappingTest, OtherStorageFailuresStay500) {
  EXPECT_EQ(HttpStatusOf(StatusCode::kIoError), 500);
  EXPECT_EQ(HttpStatusOf(StatusCode::kCorruption), 500);
}

}  // namespace
}  // namespace orrery::api
