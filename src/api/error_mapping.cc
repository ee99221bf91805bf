#include "api/error_mapping.h"

#include "api/headers.h"
#include "api/response.h"
#include "json/json.h"

namespace orrery::api {

const char* ErrorCodeName(int http_status) {
  switch (http_status) {
    case 400:
      return "BadRequest";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "NotFound";
    case 405:
      return "MethodNotAllowed";
    case 408:
      return "RequestTimeout";
    case 409:
      return "Conflict";
    case 410:
      return "Gone";
    case 412:
      return "PreconditionFailed";
    case 413:
      return "RequestEntityTooLarge";
    case 423:
      return "Locked";
    case 429:
      return "TooManyRequests";
    case 449:
      return "RetryWith";
    case 503:
      return "ServiceUnavailable";
    case 507:
      return "InsufficientStorage";
    default:
      return "InternalServerError";
  }
}

http::Response ErrorResponse(const Status& status, std::string_view activity_id,
                             std::string_view request_uri, double request_charge) {
  const int http_status = HttpStatusOf(status.code());
  // The service wraps messages as `Message: {"Errors":[...]}` followed by diagnostics;
  // authorization failures carry the bare message (wire-protocol.md §1.3, §3.5).
  std::string message;
  if (http_status == 401) {
    message = status.message();
  } else {
    json::Value errors = json::Value::MakeObject(
        {{"Errors", json::Value::MakeArray({json::Value::String(status.message())})}});
    message = "Message: " + json::Write(errors);
  }
  message += "\r\nActivityId: " + std::string(activity_id) +
             ", Request URI: " + std::string(request_uri) + ", RequestStats: , SDK: Orrery";
  json::Value body = json::Value::MakeObject({
      {"code", json::Value::String(ErrorCodeName(http_status))},
      {"message", json::Value::String(message)},
  });
  ResponseBuilder builder(http_status, activity_id);
  builder.Charge(request_charge);
  // The service sends a substatus with every error, 0 where the status says it all.
  builder.Header(headers::kSubstatus, std::to_string(status.substatus()));
  if (status.code() == StatusCode::kTooManyRequests) {
    builder.Header(headers::kRetryAfterMs, std::to_string(status.retry_after_ms()));
  }
  builder.JsonBody(json::Write(body));
  return std::move(builder).Build();
}

}  // namespace orrery::api
