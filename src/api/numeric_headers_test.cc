#include "api/numeric_headers.h"

#include <gtest/gtest.h>

#include <string>

#include "common/encoding.h"

namespace orrery::api {
namespace {

http::Request With(std::string name, std::string value) {
  http::Request request;
  request.method = "GET";
  request.target = "/dbs";
  request.headers.push_back({std::move(name), std::move(value)});
  return request;
}

// The BadRequest for `value` in `header`, with a message naming both.
void ExpectRefused(const IntegerHeader& header, const std::string& value) {
  const Result<std::optional<int64_t>> read = ReadIntegerHeader(With(header.name, value), header);
  ASSERT_FALSE(read.ok()) << header.name << ": " << value;
  EXPECT_EQ(read.status().code(), StatusCode::kBadRequest);
  EXPECT_NE(read.status().message().find(header.name), std::string::npos);
  EXPECT_NE(read.status().message().find("Invalid value " + QuotedForMessage(value)),
            std::string::npos)
      << read.status().message();
  EXPECT_FALSE(CheckNumericHeaders(With(header.name, value)).ok()) << header.name << ": " << value;
}

int64_t Read(const IntegerHeader& header, const std::string& value) {
  const Result<std::optional<int64_t>> read = ReadIntegerHeader(With(header.name, value), header);
  EXPECT_TRUE(read.ok()) << header.name << ": " << value << ": " << read.status().ToString();
  EXPECT_TRUE(CheckNumericHeaders(With(header.name, value)).ok()) << header.name << ": " << value;
  return read.ok() && read->has_value() ? **read : -12345;
}

TEST(NumericHeadersTest, AbsentIsNullopt) {
  http::Request request;
  EXPECT_EQ(*ReadIntegerHeader(request, kMaxItemCountHeader), std::nullopt);
  EXPECT_EQ(*ReadAutoscaleMaxHeader(request), std::nullopt);
  EXPECT_TRUE(CheckNumericHeaders(request).ok());
}

TEST(NumericHeadersTest, MaxItemCountIsMinusOneOrAPositiveInt32) {
  EXPECT_EQ(Read(kMaxItemCountHeader, "-1"), -1);
  EXPECT_EQ(Read(kMaxItemCountHeader, "1"), 1);
  EXPECT_EQ(Read(kMaxItemCountHeader, "1000"), 1000);
  EXPECT_EQ(Read(kMaxItemCountHeader, "2147483647"), 2147483647);
  for (const char* value : {"0", "-2", "2147483648", "99999999999999999999", "+5", "5abc", "0x10",
                            "1e3", "5 5", "", " ", "-", "1.5", "٣"}) {
    ExpectRefused(kMaxItemCountHeader, value);
  }
}

TEST(NumericHeadersTest, OfferThroughputIsANonNegativeInt32) {
  EXPECT_EQ(Read(kOfferThroughputHeader, "400"), 400);
  EXPECT_EQ(Read(kOfferThroughputHeader, "0"), 0);
  for (const char* value :
       {"-400", "2147483648", "99999999999999999999", "+400", "400abc", "4e2", "400.0", ""}) {
    ExpectRefused(kOfferThroughputHeader, value);
  }
}

TEST(NumericHeadersTest, ContinuationLimitIsANonNegativeInt32) {
  EXPECT_EQ(Read(kContinuationLimitHeader, "1"), 1);
  for (const char* value : {"-1", "99999999999999999999", "1kb", ""}) {
    ExpectRefused(kContinuationLimitHeader, value);
  }
}

TEST(NumericHeadersTest, AutoscaleSettingsNeedAnIntegerMaxThroughput) {
  const auto read = [](const std::string& value) {
    return ReadAutoscaleMaxHeader(With(headers::kOfferAutopilotSettings, value));
  };
  EXPECT_EQ(**read(R"({"maxThroughput":4000})"), 4000);
  EXPECT_EQ(**read(R"({"maxThroughput":4000,"autoUpgradePolicy":{}})"), 4000);
  for (const char* value :
       {R"({"maxThroughput":1e300})", R"({"maxThroughput":99999999999999999999})",
        R"({"maxThroughput":4000.5})", R"({"maxThroughput":-1000})",
        R"({"maxThroughput":2147483648})", R"({"maxThroughput":"4000"})", R"({})", "4000", "[]",
        "{", ""}) {
    const auto result = read(value);
    ASSERT_FALSE(result.ok()) << value;
    EXPECT_NE(result.status().message().find(headers::kOfferAutopilotSettings), std::string::npos);
    EXPECT_FALSE(CheckNumericHeaders(With(headers::kOfferAutopilotSettings, value)).ok()) << value;
  }
}

TEST(NumericHeadersTest, QuotesALongValueShortened) {
  const Result<std::optional<int64_t>> read =
      ReadIntegerHeader(With(headers::kMaxItemCount, std::string(10000, '9')), kMaxItemCountHeader);
  ASSERT_FALSE(read.ok());
  EXPECT_LT(read.status().message().size(), 300u);
}

// Every line is checked, not only the first one a handler would find.
TEST(NumericHeadersTest, CheckLooksAtEveryLine) {
  http::Request request = With(headers::kMaxItemCount, "5");
  request.headers.push_back({"x-other", "abc"});
  EXPECT_TRUE(CheckNumericHeaders(request).ok());
  request.headers.push_back({headers::kMaxItemCount, "99999999999999999999"});
  const Status status = CheckNumericHeaders(request);
  EXPECT_EQ(status.code(), StatusCode::kBadRequest);
  EXPECT_NE(status.message().find("x-ms-max-item-count"), std::string::npos);
}

}  // namespace
}  // namespace orrery::api
