#pragma once

// Headers the API reads as one value must come once. With two `authorization` or two
// `x-ms-date` lines the signature is checked against one of them while a proxy in front
// may have looked at the other; with two partition key headers the request is routed
// by one and validated by the other. Either line could be "the" value, so the request
// is refused rather than served by the first. (Host is the http layer's: it refuses a
// second one before the API sees the request.)

#include "common/http_message.h"
#include "common/status.h"

namespace orrery::api {

// Errors: BadRequest naming the first header that appears more than once.
Status CheckSingletonHeaders(const http::Request& request);

}  // namespace orrery::api
