#pragma once

// The one place where a Status becomes an HTTP response: status line, x-ms-substatus,
// x-ms-retry-after-ms and the service's JSON error body {"code","message"}.

#include <string_view>

#include "common/http_message.h"
#include "common/status.h"

namespace orrery::api {

// The reason phrase without spaces, as the service writes in "code".
const char* ErrorCodeName(int http_status);

http::Response ErrorResponse(const Status& status, std::string_view activity_id,
                             std::string_view request_uri, double request_charge);

}  // namespace orrery::api
