#pragma once

// What a handler gets: the request, its parsed path, the account and the caller's
// access. Handlers return a response or a Status; Service maps Status to HTTP once.

#include <optional>
#include <string>
#include <string_view>

#include "api/auth.h"
#include "api/resource_path.h"
#include "common/http_message.h"
#include "common/status.h"
#include "engine/account.h"
#include "engine/throughput/cost_model.h"
#include "engine/throughput/request_class.h"

namespace orrery::api {

struct RequestContext {
  const http::Request& request;
  const ResourcePath& path;
  engine::Account& account;
  Access access;
  std::string activity_id;
  std::string advertised_url;  // "https://127.0.0.1:8081/"
  throughput::Consistency account_consistency = throughput::Consistency::kSession;
  // Its priority and throughput bucket (api/request_class.h), for admitting and charging it.
  throughput::RequestClass request_class;

  const std::string* Header(std::string_view lowercase_name) const {
    return request.FindHeader(lowercase_name);
  }
  std::optional<std::string> OptionalHeader(std::string_view lowercase_name) const {
    const std::string* v = Header(lowercase_name);
    return v ? std::optional<std::string>(*v) : std::nullopt;
  }
  // Whether a boolean header is "true" (any case).
  bool HeaderIsTrue(std::string_view lowercase_name) const;
};

using HandlerResult = Result<http::Response>;

}  // namespace orrery::api
