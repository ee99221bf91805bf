#include "http/error_response.h"

#include <gtest/gtest.h>

namespace orrery::http {
namespace {

const std::string* Find(const Response& response, std::string_view name) {
  for (const Header& header : response.headers) {
    if (header.name == name) {
      return &header.value;
    }
  }
  return nullptr;
}

TEST(ErrorResponseTest, HasACosmosStyleJsonBody) {
  const Response response = MakeErrorResponse(413, "Request body is too large.");
  EXPECT_EQ(response.status, 413);
  EXPECT_EQ(response.body,
            R"({"code":"RequestEntityTooLarge","message":"Request body is too large."})");
  ASSERT_NE(Find(response, "Content-Type"), nullptr);
  EXPECT_EQ(*Find(response, "Content-Type"), "application/json");
}

TEST(ErrorResponseTest, CarriesAZeroChargeAndAnActivityId) {
  const Response response = MakeErrorResponse(400, "bad");
  ASSERT_NE(Find(response, "x-ms-request-charge"), nullptr);
  EXPECT_EQ(*Find(response, "x-ms-request-charge"), "0");
  ASSERT_NE(Find(response, "x-ms-activity-id"), nullptr);
  EXPECT_EQ(Find(response, "x-ms-activity-id")->size(), 36u);
  ASSERT_NE(Find(response, "x-ms-substatus"), nullptr);
  EXPECT_EQ(*Find(response, "x-ms-substatus"), "0");
}

TEST(ErrorResponseTest, EscapesTheMessage) {
  const Response response = MakeErrorResponse(400, "a \"quoted\" \\ line\nbreak");
  EXPECT_EQ(response.body, R"({"code":"BadRequest","message":"a \"quoted\" \\ line\u000abreak"})");
}

TEST(ErrorResponseTest, NamesCodesAfterTheReasonPhraseWithoutSpaces) {
  EXPECT_EQ(ErrorCodeName(400), "BadRequest");
  EXPECT_EQ(ErrorCodeName(413), "RequestEntityTooLarge");
  EXPECT_EQ(ErrorCodeName(431), "RequestHeaderFieldsTooLarge");
  EXPECT_EQ(ErrorCodeName(500), "InternalServerError");
}

}  // namespace
}  // namespace orrery::http
