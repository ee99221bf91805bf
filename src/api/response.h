#pragma once

// Builds responses with the headers every Cosmos DB response carries.

#include <string>
#include <string_view>

#include "common/http_message.h"

namespace orrery::api {

class ResponseBuilder {
 public:
  ResponseBuilder(int status, std::string_view activity_id);
  ResponseBuilder& Header(std::string name, std::string value);
  ResponseBuilder& Charge(double request_charge);
  ResponseBuilder& JsonBody(std::string body);
  http::Response Build() &&;

 private:
  http::Response response_;
};

// "5.71", "1", "10.67": the charge as the service prints it.
std::string FormatCharge(double charge);

}  // namespace orrery::api
