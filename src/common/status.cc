#include "common/status.h"

namespace orrery {

std::string Status::ToString() const {
  if (ok()) {
    return "OK";
  }
  std::string out = "status " + std::to_string(static_cast<int>(code_));
  if (substatus_ != 0) {
    out += "/" + std::to_string(substatus_);
  }
  return out + ": " + message_;
}

int HttpStatusOf(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return 200;
    case StatusCode::kBadRequest:
      return 400;
    case StatusCode::kUnauthorized:
      return 401;
    case StatusCode::kForbidden:
      return 403;
    case StatusCode::kNotFound:
      return 404;
    case StatusCode::kMethodNotAllowed:
      return 405;
    case StatusCode::kRequestTimeout:
      return 408;
    case StatusCode::kConflict:
      return 409;
    case StatusCode::kGone:
      return 410;
    case StatusCode::kPreconditionFailed:
      return 412;
    case StatusCode::kEntityTooLarge:
      return 413;
    case StatusCode::kLocked:
      return 423;
    case StatusCode::kTooManyRequests:
      return 429;
    case StatusCode::kRetryWith:
      return 449;
    case StatusCode::kServiceUnavailable:
      return 503;
    case StatusCode::kInsufficientStorage:
      // RFC 4918 §11.5. The service never reports a full disk; its nearest answer, 403
      // for a storage quota, is a client error. @azure/cosmos 4.10.1 neither retries a
      // 507 nor hides it: the caller gets an error with code 507.
      return 507;
    case StatusCode::kInternal:
    case StatusCode::kIoError:
    case StatusCode::kCorruption:
      return 500;
  }
  return 500;
}

}  // namespace orrery
