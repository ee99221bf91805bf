#include "api/response.h"

#include <charconv>
#include <cmath>

#include "api/headers.h"

namespace orrery::api {

std::string FormatCharge(double charge) {
  // to_chars rounds as printf's "%.2f" does, without its format parsing and locale
  // (snprintf was 1% of a point read's CPU). The buffer holds any double in full.
  char buf[400];
  double rounded = std::round(charge * 100.0) / 100.0;
  std::string text(buf,
                   std::to_chars(buf, buf + sizeof(buf), rounded, std::chars_format::fixed, 2).ptr);
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
