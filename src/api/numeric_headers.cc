#include "api/numeric_headers.h"

#include <string>
#include <string_view>

#include "common/decimal_integer.h"
#include "common/encoding.h"
#include "json/json.h"

namespace orrery::api {

namespace {

constexpr IntegerHeader kIntegerHeaders[] = {kMaxItemCountHeader, kOfferThroughputHeader,
                                             kContinuationLimitHeader};
constexpr int64_t kMaxAutoscaleThroughput = INT32_MAX;

std::string Expected(const IntegerHeader& header) {
  if (!header.allows_zero && header.min == -1) {
    return "-1 or an integer from 1 to " + std::to_string(header.max);
  }
  return "an integer from " + std::to_string(header.min) + " to " + std::to_string(header.max);
}

Result<int64_t> ParseIntegerHeader(const IntegerHeader& header, const std::string& value) {
  const std::optional<int64_t> number = ParseDecimalInteger(value);
  if (!number || *number < header.min || *number > header.max ||
      (*number == 0 && !header.allows_zero)) {
    return Status::BadRequest("Invalid value " + QuotedForMessage(value) + " for header " +
                              header.name + ": expected " + Expected(header) + ".");
  }
  return *number;
}

Result<int64_t> ParseAutoscaleSettings(const std::string& value) {
  Result<json::Value> settings = json::Parse(value);
  const json::Value* max =
      settings.ok() && settings->is_object() ? settings->Find("maxThroughput") : nullptr;
  // An integer JSON number only: a double such as 1e300 has no int64_t to become.
  if (max == nullptr || !max->is_integer() || max->as_int() < 0 ||
      max->as_int() > kMaxAutoscaleThroughput) {
    return Status::BadRequest(std::string("Invalid value ") + QuotedForMessage(value) +
                              " for header " + headers::kOfferAutopilotSettings +
                              ": expected {\"maxThroughput\": <RU/s>}, an integer from 0 to " +
                              std::to_string(kMaxAutoscaleThroughput) + ".");
  }
  return max->as_int();
}

}  // namespace

Result<std::optional<int64_t>> ReadIntegerHeader(const http::Request& request,
                                                 const IntegerHeader& header) {
  const std::string* value = request.FindHeader(header.name);
  if (value == nullptr) return std::optional<int64_t>();
  ORRERY_ASSIGN_OR_RETURN(int64_t number, ParseIntegerHeader(header, *value));
  return std::optional<int64_t>(number);
}

Result<std::optional<int64_t>> ReadAutoscaleMaxHeader(const http::Request& request) {
  const std::string* value = request.FindHeader(headers::kOfferAutopilotSettings);
  if (value == nullptr) return std::optional<int64_t>();
  ORRERY_ASSIGN_OR_RETURN(int64_t max, ParseAutoscaleSettings(*value));
  return std::optional<int64_t>(max);
}

Status CheckNumericHeaders(const http::Request& request) {
  for (const http::Header& line : request.headers) {
    for (const IntegerHeader& header : kIntegerHeaders) {
      if (line.name == header.name) {
        ORRERY_RETURN_IF_ERROR(ParseIntegerHeader(header, line.value).status());
      }
    }
    if (line.name == headers::kOfferAutopilotSettings) {
      ORRERY_RETURN_IF_ERROR(ParseAutoscaleSettings(line.value).status());
    }
  }
  return Status::Ok();
}

}  // namespace orrery::api
