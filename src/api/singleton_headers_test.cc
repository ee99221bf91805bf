#include "api/singleton_headers.h"

#include <gtest/gtest.h>

#include <string>

#include "api/headers.h"

namespace orrery::api {
namespace {

http::Request WithHeaders(std::vector<http::Header> headers) {
  http::Request request;
  request.method = "GET";
  request.target = "/dbs";
  request.headers = std::move(headers);
  return request;
}

TEST(SingletonHeadersTest, AcceptsEachHeaderOnce) {
  EXPECT_TRUE(CheckSingletonHeaders(WithHeaders({})).ok());
  EXPECT_TRUE(CheckSingletonHeaders(WithHeaders({{"authorization", "a"},
                                                 {"x-ms-date", "d"},
                                                 {"date", "d"},
                                                 {"x-ms-documentdb-partitionkey", "[1]"},
                                                 {"x-ms-max-item-count", "5"}}))
                  .ok());
}

TEST(SingletonHeadersTest, AllowsRepeatedHeadersItDoesNotReadAsOneValue) {
  EXPECT_TRUE(CheckSingletonHeaders(WithHeaders({{"accept", "a"},
                                                 {"accept", "b"},
                                                 {"prefer", "return=minimal"},
                                                 {"prefer", "x"},
                                                 {"x-unknown", "1"},
                                                 {"x-unknown", "2"}}))
                  .ok());
}

TEST(SingletonHeadersTest, RefusesASecondLineOfAuthOrRoutingHeaders) {
  for (const char* name :
       {headers::kAuthorization, headers::kMsDate, headers::kDate, headers::kPartitionKey,
        headers::kPartitionKeyRangeId, headers::kStartEpk, headers::kEndEpk, headers::kMaxItemCount,
        headers::kOfferThroughput, headers::kOfferAutopilotSettings, headers::kConsistencyLevel,
        headers::kIfMatch, headers::kIfNoneMatch, headers::kContinuation, headers::kContentType,
        headers::kIsUpsert, headers::kIsQuery, headers::kIsBatchRequest, headers::kBatchAtomic}) {
    // Even when both lines say the same: the request is ambiguous either way.
    const Status status = CheckSingletonHeaders(
        WithHeaders({{name, "1"}, {"x-between", "y"}, {"accept", "z"}, {name, "1"}}));
    ASSERT_FALSE(status.ok()) << name;
    EXPECT_EQ(status.code(), StatusCode::kBadRequest);
    EXPECT_EQ(status.message(), std::string("The header ") + name +
                                    " appears more than once; it may be given only once.");
  }
}

TEST(SingletonHeadersTest, HandlesThousandsOfHeaderLines) {
  std::vector<http::Header> many;
  for (int i = 0; i < 20000; ++i) many.push_back({"x-h", std::to_string(i)});
  EXPECT_TRUE(CheckSingletonHeaders(WithHeaders(many)).ok());
  many.push_back({"authorization", "a"});
  many.push_back({"authorization", "b"});
  EXPECT_FALSE(CheckSingletonHeaders(WithHeaders(many)).ok());
}

}  // namespace
}  // namespace orrery::api
