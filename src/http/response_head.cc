#include "http/response_head.h"

#include <strings.h>

#include <charconv>

namespace orrery::http {

namespace {

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ::strncasecmp(a.data(), b.data(), a.size()) == 0;
}

// The server computes the framing itself; a Handler's copy of these headers could
// contradict the bytes actually written and desynchronize a keep-alive connection.
bool IsFramingHeader(std::string_view name) {
  return EqualsIgnoringCase(name, "content-length") ||
         EqualsIgnoringCase(name, "transfer-encoding") || EqualsIgnoringCase(name, "connection");
}

// A CR or LF in a header would let the value start a header (or a response) of its own.
// A plain loop: find_first_of calls memchr on the set for every character, which for
// the twenty-odd headers of every response showed up in profiles.
bool HasLineBreak(std::string_view text) {
  for (char c : text) {
    if (c == '\r' || c == '\n') return true;
  }
  return false;
}

bool IsSafeHeader(const Header& header) {
  return !HasLineBreak(header.name) && !HasLineBreak(header.value);
}

void AppendNumber(uint64_t value, std::string& out) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof(digits), value);
  out.append(digits, result.ptr);
}

}  // namespace

bool StatusAllowsBody(int status) { return status >= 200 && status != 204 && status != 304; }

// Includes the codes Cosmos DB uses that generic tables lack, such as 449 Retry With.
std::string_view ReasonPhrase(int status) {
  switch (status) {
    case 100:
      return "Continue";
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 202:
      return "Accepted";
    case 204:
      return "No Content";
    case 206:
      return "Partial Content";
    case 207:
      return "Multi-Status";
    case 304:
      return "Not Modified";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 410:
      return "Gone";
    case 412:
      return "Precondition Failed";
    case 413:
      return "Request Entity Too Large";
    case 415:
      return "Unsupported Media Type";
    case 423:
      return "Locked";
    case 424:
      return "Failed Dependency";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 449:
      return "Retry With";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    case 507:
      return "Insufficient Storage";
    default:
      return "Unknown";
  }
}

bool ResponseAsksToClose(const Response& response) {
  for (const Header& header : response.headers) {
    if (EqualsIgnoringCase(header.name, "connection") &&
        EqualsIgnoringCase(header.value, "close")) {
      return true;
    }
  }
  return false;
}

void FormatResponseHead(const Response& response, ConnectionHeader connection, std::string& out) {
  out.assign("HTTP/1.1 ");
  AppendNumber(static_cast<uint64_t>(response.status), out);
  out += ' ';
  out += ReasonPhrase(response.status);
  out += "\r\n";
  for (const Header& header : response.headers) {
    if (IsFramingHeader(header.name) || !IsSafeHeader(header)) {
      continue;
    }
    out += header.name;
    out += ": ";
    out += header.value;
    out += "\r\n";
  }
  if (StatusAllowsBody(response.status)) {
    out += "Content-Length: ";
    AppendNumber(response.body.size(), out);
    out += "\r\n";
  }
  if (connection == ConnectionHeader::kClose) {
    out += "Connection: close\r\n";
  } else if (connection == ConnectionHeader::kKeepAlive) {
    out += "Connection: keep-alive\r\n";
  }
  out += "\r\n";
}

}  // namespace orrery::http
