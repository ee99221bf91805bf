#pragma once

// The responses the http layer answers on its own, before any Handler runs: limits,
// malformed requests, a Handler that threw.

#include <string_view>

#include "http/server.h"

namespace orrery::http {

// A response with `status`, content-type application/json, a Cosmos-style body
// {"code":"<reason phrase without spaces>","message":"<message>"},
// x-ms-request-charge: 0 and a fresh x-ms-activity-id.
Response MakeErrorResponse(int status, std::string_view message);

// The Cosmos error code for `status`, e.g. "RequestEntityTooLarge" for 413.
std::string_view ErrorCodeName(int status);

}  // namespace orrery::http
