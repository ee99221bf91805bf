#include "api/response.h"

#include <cmath>
#include <cstdio>

#include "api/headers.h"

namespace orrery::api {

std::string FormatCharge(double charge) {
  char buf[32];
  double rounded = std::round(charge * 100.0) / 100.0;
  std::snprintf(buf, sizeof(buf), "%.2f", rounded);
  std::string text(buf);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

ResponseBuilder::ResponseBuilder(int status, std::string_view activity_id) {
  response_.status = status;
  response_.headers.reserve(16);
  response_.headers.push_back({headers::kActivityId, std::string(activity_id)});
  response_.headers.push_back({headers::kGatewayVersion, "version=2.14.0"});
  response_.headers.push_back({headers::kSchemaVersion, "1.18"});
}

ResponseBuilder& ResponseBuilder::Header(std::string name, std::string value) {
  response_.headers.push_back({std::move(name), std::move(value)});
  return *this;
}

ResponseBuilder& ResponseBuilder::Charge(double request_charge) {
  return Header(headers::kRequestCharge, FormatCharge(request_charge));
}

ResponseBuilder& ResponseBuilder::JsonBody(std::string body) {
  response_.headers.push_back({headers::kContentType, "application/json"});
  response_.body = std::move(body);
  return *this;
}

http::Response ResponseBuilder::Build() && { return std::move(response_); }

}  // namespace orrery::api
