#pragma once

// A request's priority and throughput bucket (engine/throughput/request_class.h) from
// its headers x-ms-cosmos-priority-level ("High" or "Low", any case; default High) and
// x-ms-cosmos-throughput-bucket (1 to 5). Checked before anything runs: "requests with an
// invalid bucket ID (less than 1 or greater than 5) results in an error"
// (throughput-buckets FAQ), and so does a priority that is neither. Errors: BadRequest.

#include "common/http_message.h"
#include "common/status.h"
#include "engine/throughput/request_class.h"

namespace orrery::api {

Result<throughput::RequestClass> RequestClassOf(const http::Request& request);

}  // namespace orrery::api
