#include "http/response_head.h"

#include <gtest/gtest.h>

namespace orrery::http {
namespace {

std::string Format(const Response& response, ConnectionHeader connection) {
  std::string out = "left over from the previous response";
  FormatResponseHead(response, connection, out);
  return out;
}

TEST(ResponseHeadTest, WritesStatusLineHeadersAsGivenAndContentLength) {
  const Response response{.status = 201,
                          .headers = {{"Content-Type", "application/json"}, {"etag", "\"1\""}},
                          .body = "{}"};
  EXPECT_EQ(Format(response, ConnectionHeader::kNone),
            "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\netag: \"1\"\r\n"
            "Content-Length: 2\r\n\r\n");
}

TEST(ResponseHeadTest, AddsTheConnectionHeaderAsAsked) {
  const Response response{.status = 200, .headers = {}, .body = ""};
  EXPECT_EQ(Format(response, ConnectionHeader::kClose),
            "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(Format(response, ConnectionHeader::kKeepAlive),
            "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n");
}

TEST(ResponseHeadTest, LeavesOutFramingHeadersFromTheHandler) {
  const Response response{.status = 200,
                          .headers = {{"Content-Length", "99"},
                                      {"transfer-encoding", "chunked"},
                                      {"CONNECTION", "keep-alive"},
                                      {"x-ms-a", "b"}},
                          .body = "abc"};
  EXPECT_EQ(Format(response, ConnectionHeader::kNone),
            "HTTP/1.1 200 OK\r\nx-ms-a: b\r\nContent-Length: 3\r\n\r\n");
}

TEST(ResponseHeadTest, LeavesOutHeadersContainingLineBreaks) {
  const Response response{
      .status = 200, .headers = {{"x-a", "1\r\nx-injected: 2"}, {"x-b\n", "3"}}, .body = ""};
  EXPECT_EQ(Format(response, ConnectionHeader::kNone),
            "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
}

TEST(ResponseHeadTest, NoContentAndNotModifiedHaveNoContentLength) {
  EXPECT_EQ(Format(Response{.status = 204, .headers = {}, .body = ""}, ConnectionHeader::kNone),
            "HTTP/1.1 204 No Content\r\n\r\n");
  EXPECT_EQ(Format(Response{.status = 304, .headers = {}, .body = ""}, ConnectionHeader::kNone),
            "HTTP/1.1 304 Not Modified\r\n\r\n");
  EXPECT_FALSE(StatusAllowsBody(204));
  EXPECT_TRUE(StatusAllowsBody(200));
}

TEST(ResponseHeadTest, KnowsCosmosSpecificReasonPhrases) {
  EXPECT_EQ(ReasonPhrase(449), "Retry With");
  EXPECT_EQ(ReasonPhrase(429), "Too Many Requests");
  EXPECT_EQ(ReasonPhrase(507), "Insufficient Storage");
  EXPECT_EQ(ReasonPhrase(599), "Unknown");
}

TEST(ResponseHeadTest, DetectsAResponseAskingToClose) {
  EXPECT_TRUE(ResponseAsksToClose(
      Response{.status = 200, .headers = {{"Connection", "Close"}}, .body = ""}));
  EXPECT_FALSE(
      ResponseAsksToClose(Response{.status = 200, .headers = {{"x-a", "close"}}, .body = ""}));
}

}  // namespace
}  // namespace orrery::http
