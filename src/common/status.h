#pragma once

// Status and Result<T>: how errors travel through every layer below api/.
// A Status holds a domain code, an optional Cosmos DB substatus and a message meant
// for the client; api/error_mapping.cc alone turns it into an HTTP response.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace orrery {

enum class StatusCode : uint8_t {
  kOk,
  kBadRequest,          // 400
  kUnauthorized,        // 401
  kForbidden,           // 403
  kNotFound,            // 404
  kMethodNotAllowed,    // 405
  kRequestTimeout,      // 408
  kConflict,            // 409
  kGone,                // 410
  kPreconditionFailed,  // 412
  kEntityTooLarge,      // 413
  kLocked,              // 423, e.g. a throughput replace while another is pending
  kRetryWith,           // 449: a concurrent change; the client retries the whole request
  kTooManyRequests,     // 429
  kInternal,            // 500
  kServiceUnavailable,  // 503
  kIoError,             // 500, storage failure
  kCorruption,          // 500, storage found damaged data
  // 507: the disk holding the data directory is full.
  kInsufficientStorage,
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status BadRequest(std::string message, int substatus = 0) {
    return Status(StatusCode::kBadRequest, std::move(message), substatus);
  }
  static Status Unauthorized(std::string message) {
    return Status(StatusCode::kUnauthorized, std::move(message));
  }
  static Status Forbidden(std::string message, int substatus = 0) {
    return Status(StatusCode::kForbidden, std::move(message), substatus);
  }
  static Status NotFound(std::string message, int substatus = 0) {
    return Status(StatusCode::kNotFound, std::move(message), substatus);
  }
  static Status MethodNotAllowed(std::string message) {
    return Status(StatusCode::kMethodNotAllowed, std::move(message));
  }
  static Status Conflict(std::string message, int substatus = 0) {
    return Status(StatusCode::kConflict, std::move(message), substatus);
  }
  static Status Gone(std::string message, int substatus) {
    return Status(StatusCode::kGone, std::move(message), substatus);
  }
  static Status PreconditionFailed(std::string message) {
    return Status(StatusCode::kPreconditionFailed, std::move(message));
  }
  static Status EntityTooLarge(std::string message, int substatus = 0) {
    return Status(StatusCode::kEntityTooLarge, std::move(message), substatus);
  }
  static Status RequestTimeout(std::string message) {
    return Status(StatusCode::kRequestTimeout, std::move(message));
  }
  static Status RetryWith(std::string message) {
    return Status(StatusCode::kRetryWith, std::move(message));
  }
  static Status Locked(std::string message) {
    return Status(StatusCode::kLocked, std::move(message));
  }
  static Status TooManyRequests(std::string message, int64_t retry_after_ms, int substatus = 3200) {
    Status s(StatusCode::kTooManyRequests, std::move(message), substatus);
    s.retry_after_ms_ = retry_after_ms;
    return s;
  }
  static Status Internal(std::string message) {
    return Status(StatusCode::kInternal, std::move(message));
  }
  static Status ServiceUnavailable(std::string message) {
    return Status(StatusCode::kServiceUnavailable, std::move(message));
  }
  static Status InsufficientStorage(std::string message) {
    return Status(StatusCode::kInsufficientStorage, std::move(message));
  }
  static Status IoError(std::string message) {
    return Status(StatusCode::kIoError, std::move(message));
  }
  static Status Corruption(std::string message) {
    return Status(StatusCode::kCorruption, std::move(message));
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  int substatus() const { return substatus_; }
  const std::string& message() const { return message_; }
  int64_t retry_after_ms() const { return retry_after_ms_; }
  bool IsNotFound() const { return code_ == StatusCode::kNotFound; }

  // Deliberately drops the error; say why at the call site.
  void IgnoreError() const {}

  std::string ToString() const;

 private:
  Status(StatusCode code, std::string message, int substatus = 0)
      : code_(code), substatus_(substatus), message_(std::move(message)) {}

  StatusCode code_ = StatusCode::kOk;
  int substatus_ = 0;
  int64_t retry_after_ms_ = 0;
  std::string message_;
};

// The HTTP status the service answers for `code` (the codes are named after them).
int HttpStatusOf(StatusCode code);

// A T or a non-OK Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : value_(std::move(status)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(value_); }
  const Status& status() const {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<Status>(value_);
  }
  T& value() & { return std::get<T>(value_); }
  const T& value() const& { return std::get<T>(value_); }
  T&& value() && { return std::get<T>(std::move(value_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  Status TakeStatus() && { return std::get<Status>(std::move(value_)); }

 private:
  std::variant<T, Status> value_;
};

namespace internal {
inline Status AsStatus(Status s) { return s; }
template <typename T>
Status AsStatus(Result<T>&& r) {
  return r.ok() ? Status::Ok() : std::move(r).TakeStatus();
}
}  // namespace internal

}  // namespace orrery

#define ORRERY_CONCAT_INNER(a, b) a##b
#define ORRERY_CONCAT(a, b) ORRERY_CONCAT_INNER(a, b)

#define ORRERY_RETURN_IF_ERROR(expr)                                      \
  do {                                                                    \
    ::orrery::Status orrery_status_ = ::orrery::internal::AsStatus(expr); \
    if (!orrery_status_.ok()) return orrery_status_;                      \
  } while (false)

#define ORRERY_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return std::move(tmp).TakeStatus(); \
  lhs = std::move(tmp).value()

#define ORRERY_ASSIGN_OR_RETURN(lhs, expr) \
  ORRERY_ASSIGN_OR_RETURN_IMPL(ORRERY_CONCAT(orrery_result_, __LINE__), lhs, expr)
