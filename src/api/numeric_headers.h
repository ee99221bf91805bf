#pragma once

// Every request header whose value is a number, read through one strict parser
// (common/decimal_integer.h) and range-checked, so that "99999999999999999999", "+5"
// or "5abc" is a 400 naming the header instead of a value strtol made up. The service
// layer checks them all before dispatch, whatever the operation (a create carrying a
// malformed x-ms-max-item-count is refused, not stored); handlers then read the values
// they use through the same functions.

#include <climits>
#include <cstdint>
#include <optional>

#include "api/headers.h"
#include "common/http_message.h"
#include "common/status.h"

namespace orrery::api {

// A header holding one decimal integer, and the values it may take.
struct IntegerHeader {
  const char* name;
  int64_t min;
  int64_t max;
  bool allows_zero = true;  // within [min, max]
};

// -1 (the default page) or a positive page size; sizes beyond the server's page limit
// are served as the limit.
inline constexpr IntegerHeader kMaxItemCountHeader{headers::kMaxItemCount, -1, INT32_MAX,
                                                   /*allows_zero=*/false};
// Manual RU/s of a new database or container (the engine then applies the service's
// 400-1,000,000 in steps of 100).
inline constexpr IntegerHeader kOfferThroughputHeader{headers::kOfferThroughput, 0, INT32_MAX};
inline constexpr IntegerHeader kContinuationLimitHeader{
    headers::kResponseContinuationTokenLimitInKb, 0, INT32_MAX};

// The value of `header` in `request`, nullopt when absent. Errors: BadRequest naming
// the header, the value and what is expected (empty, not an integer, out of range).
Result<std::optional<int64_t>> ReadIntegerHeader(const http::Request& request,
                                                 const IntegerHeader& header);

// The maxThroughput of x-ms-cosmos-offer-autopilot-settings ({"maxThroughput": N}, N an
// integer from 0 to 2^31-1), nullopt when the header is absent. Errors: BadRequest.
Result<std::optional<int64_t>> ReadAutoscaleMaxHeader(const http::Request& request);

// Checks every numeric header of the request, each line of it. Errors: BadRequest for
// the first malformed one.
Status CheckNumericHeaders(const http::Request& request);

}  // namespace orrery::api
