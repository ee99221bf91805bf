#include "http/error_response.h"

#include <string>

#include "common/crypto.h"

namespace orrery::http {

namespace {

// Appends `text` as the inside of a JSON string. Messages are ours, but escaping
// keeps the body valid whatever a future caller passes.
void AppendJsonEscaped(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20) {
      out += "\\u00";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    } else {
      out += c;
    }
  }
}

}  // namespace

// The names Cosmos DB puts in "code": the reason phrase without spaces.
std::string_view ErrorCodeName(int status) {
  switch (status) {
    case 400:
      return "BadRequest";
    case 408:
      return "RequestTimeout";
    case 413:
      return "RequestEntityTooLarge";
    case 431:
      return "RequestHeaderFieldsTooLarge";
    case 500:
      return "InternalServerError";
    case 501:
      return "NotImplemented";
    case 503:
      return "ServiceUnavailable";
    default:
      return "Error";
  }
}

Response MakeErrorResponse(int status, std::string_view message) {
  Response response;
  response.status = status;
  response.headers = {
      {"Content-Type", "application/json"},
      {"x-ms-request-charge", "0"},
      {"x-ms-activity-id", RandomGuid()},
      {"x-ms-substatus", "0"},
  };
  std::string& body = response.body;
  body = R"({"code":")";
  body += ErrorCodeName(status);
  body += R"(","message":")";
  AppendJsonEscaped(message, body);
  body += "\"}";
  return response;
}

}  // namespace orrery::http
