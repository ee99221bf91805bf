#include "api/request_class.h"

#include <string>

#include "api/headers.h"
#include "common/decimal_integer.h"
#include "common/encoding.h"

namespace orrery::api {

Result<throughput::RequestClass> RequestClassOf(const http::Request& request) {
  throughput::RequestClass out;
  if (const std::string* priority = request.FindHeader(headers::kPriorityLevel)) {
    if (EqualsIgnoreCase(*priority, "Low")) {
      out.priority = throughput::PriorityLevel::kLow;
    } else if (!EqualsIgnoreCase(*priority, "High")) {
      return Status::BadRequest("Invalid value " + QuotedForMessage(*priority) + " for header " +
                                headers::kPriorityLevel + ": expected High or Low.");
    }
  }
  if (const std::string* bucket = request.FindHeader(headers::kThroughputBucket)) {
    const std::optional<int64_t> id = ParseDecimalInteger(*bucket);
    if (!id || *id < 1 || *id > throughput::kMaxThroughputBuckets) {
      return Status::BadRequest("Invalid value " + QuotedForMessage(*bucket) + " for header " +
                                headers::kThroughputBucket + ": throughput bucket ids are 1 to 5.");
    }
    out.bucket = static_cast<int>(*id);
  }
  return out;
}

}  // namespace orrery::api
