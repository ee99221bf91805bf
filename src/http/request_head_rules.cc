#include "http/request_head_rules.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/decimal_integer.h"
#include "common/encoding.h"
#include "http/request_arena.h"

namespace orrery::http {

namespace {

constexpr int64_t kMaxPort = 65535;

std::string_view View(beast::string_view text) { return {text.data(), text.size()}; }

bool IsAsciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) {
  return IsAsciiDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool IsUnreserved(char c) {
  return IsAsciiAlpha(c) || IsAsciiDigit(c) || c == '-' || c == '.' || c == '_' || c == '~';
}
bool IsSubDelim(char c) {
  return std::string_view("!$&'()*+,;=").find(c) != std::string_view::npos;
}

// reg-name = *( unreserved / pct-encoded / sub-delims ); IPv4 addresses are among them.
bool IsRegName(std::string_view name) {
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '%') {
      if (i + 2 >= name.size() || !IsHexDigit(name[i + 1]) || !IsHexDigit(name[i + 2])) {
        return false;
      }
      i += 2;
    } else if (!IsUnreserved(name[i]) && !IsSubDelim(name[i])) {
      return false;
    }
  }
  return true;
}

// What is between the brackets of an IP-literal: IPvFuture ("v" 1*HEXDIG "." 1*(unreserved /
// sub-delims / ":")) or an IPv6 address, checked for its alphabet (hex digits, ':' and the
// '.' of an embedded IPv4 address) rather than its full grammar: enough to keep anything
// that is not an address out of the URLs Orrery builds from Host.
bool IsIpLiteral(std::string_view inner) {
  if (inner.empty()) return false;
  if (inner[0] == 'v' || inner[0] == 'V') {
    const size_t dot = inner.find('.');
    if (dot == std::string_view::npos || dot < 2 || dot + 1 == inner.size()) return false;
    const std::string_view version = inner.substr(1, dot - 1);
    const std::string_view address = inner.substr(dot + 1);
    return std::all_of(version.begin(), version.end(), IsHexDigit) &&
           std::all_of(address.begin(), address.end(),
                       [](char c) { return IsUnreserved(c) || IsSubDelim(c) || c == ':'; });
  }
  return inner.find(':') != std::string_view::npos &&
         std::all_of(inner.begin(), inner.end(),
                     [](char c) { return IsHexDigit(c) || c == ':' || c == '.'; });
}

// port = *DIGIT; empty is allowed ("host:"), a number must name a TCP port.
bool IsPort(std::string_view port) {
  if (port.empty()) return true;
  if (!std::all_of(port.begin(), port.end(), IsAsciiDigit)) return false;
  const std::optional<int64_t> number = ParseDecimalInteger(port);
  return number.has_value() && *number <= kMaxPort;
}

// Methods are case-sensitive (RFC 9110 §9.1): "get" is not GET. Every method HTTP and
// Cosmos DB define is upper case, so a lower-case letter means the client got it wrong;
// serving it as GET would hide that, and the signature (which lower-cases the verb)
// would not notice.
std::optional<HeadRejection> CheckMethod(std::string_view method) {
  if (std::none_of(method.begin(), method.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
    return std::nullopt;
  }
  std::string upper(method);
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return HeadRejection{400, "The request method " + QuotedForMessage(method) +
                                " is not valid: HTTP methods are case-sensitive; use " +
                                QuotedForMessage(upper) + "."};
}

// RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without Host and to
// any request with more than one Host line or an invalid one. HTTP/1.0 clients may leave
// Host out.
template <typename Fields>
std::optional<HeadRejection> CheckHost(const bhttp::header<true, Fields>& head) {
  size_t count = 0;
  std::string_view value;
  for (const auto& field : head) {
    if (field.name() == bhttp::field::host) {
      ++count;
      value = View(field.value());
    }
  }
  if (count == 0) {
    if (head.version() < 11) return std::nullopt;
    return HeadRejection{400, "The request has no Host header, which HTTP/1.1 requires."};
  }
  if (count > 1) {
    return HeadRejection{
        400, "The request has " + std::to_string(count) + " Host headers; exactly one is allowed."};
  }
  if (!IsValidHost(value)) {
    return HeadRejection{400, "The Host header " + QuotedForMessage(value) +
                                  " is not a valid host[:port] (a TCP port is 0-65535)."};
  }
  return std::nullopt;
}

bool IsChunked(std::string_view coding) { return EqualsIgnoreCase(coding, "chunked"); }

// The transfer codings of every Transfer-Encoding line, in order, without parameters.
template <typename Fields>
std::vector<std::string_view> TransferCodings(const bhttp::header<true, Fields>& head,
                                              bool& present) {
  std::vector<std::string_view> codings;
  present = false;
  for (const auto& field : head) {
    if (field.name() != bhttp::field::transfer_encoding) continue;
    present = true;
    std::string_view rest = View(field.value());
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      std::string_view element = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      element = element.substr(0, element.find(';'));
      while (!element.empty() && (element.front() == ' ' || element.front() == '\t')) {
        element.remove_prefix(1);
      }
      while (!element.empty() && (element.back() == ' ' || element.back() == '\t')) {
        element.remove_suffix(1);
      }
      if (!element.empty()) codings.push_back(element);  // lists may hold empty elements
    }
  }
  return codings;
}

// A body whose length two parties could read differently is how requests are smuggled
// past a proxy; RFC 9112 §6.1 and §6.3 make each of these an error that closes the
// connection. Beast refuses Content-Length with chunked when chunked comes first, but
// takes "gzip" (or "chunked, gzip") as no transfer coding at all.
template <typename Fields>
std::optional<HeadRejection> CheckFraming(const bhttp::header<true, Fields>& head) {
  bool present = false;
  const std::vector<std::string_view> codings = TransferCodings(head, present);
  if (!present) return std::nullopt;
  if (head.version() < 11) {
    return HeadRejection{400, "Transfer-Encoding is not allowed in an HTTP/1.0 request."};
  }
  if (head.count(bhttp::field::content_length) > 0) {
    return HeadRejection{400,
                         "The request has both Transfer-Encoding and Content-Length; its body "
                         "length would be ambiguous."};
  }
  if (codings.empty()) {
    return HeadRejection{400, "The Transfer-Encoding header names no transfer coding."};
  }
  if (!IsChunked(codings.back())) {
    return HeadRejection{400, "The final transfer coding is " + QuotedForMessage(codings.back()) +
                                  ", not chunked: the length of the request body cannot be "
                                  "determined."};
  }
  if (std::count_if(codings.begin(), codings.end(), IsChunked) > 1) {
    return HeadRejection{400, "The Transfer-Encoding header applies chunked more than once."};
  }
  if (codings.size() > 1) {
    // RFC 9112 §6.1: a transfer coding the server does not understand is answered 501.
    return HeadRejection{501, "The transfer coding " + QuotedForMessage(codings.front()) +
                                  " is not supported: send the body with Transfer-Encoding: "
                                  "chunked alone, or with Content-Length."};
  }
  return std::nullopt;
}

}  // namespace

bool IsValidHost(std::string_view value) {
  if (!value.empty() && value.front() == '[') {
    const size_t close = value.find(']');
    if (close == std::string_view::npos || !IsIpLiteral(value.substr(1, close - 1))) {
      return false;
    }
    const std::string_view rest = value.substr(close + 1);
    return rest.empty() || (rest.front() == ':' && IsPort(rest.substr(1)));
  }
  const size_t colon = value.find(':');
  if (colon == std::string_view::npos) return IsRegName(value);
  return IsRegName(value.substr(0, colon)) && IsPort(value.substr(colon + 1));
}

std::string MalformedRequestMessage(const error_code& ec) {
  if (ec == bhttp::error::bad_content_length) {
    return "Malformed HTTP request: the Content-Length header must be one decimal number that "
           "fits in 64 bits (repeated only with the same value), and not come with "
           "Transfer-Encoding: chunked.";
  }
  if (ec == bhttp::error::bad_transfer_encoding) {
    return "Malformed HTTP request: the Transfer-Encoding header may apply chunked once, and "
           "not come with Content-Length.";
  }
  return "Malformed HTTP request: " + ec.message() + ".";
}

template <typename Fields>
std::optional<HeadRejection> CheckRequestHead(const bhttp::header<true, Fields>& head) {
  if (auto rejection = CheckMethod(View(head.method_string()))) return rejection;
  if (auto rejection = CheckHost(head)) return rejection;
  return CheckFraming(head);
}

// The heads a session parses (fields in its RequestArena) and Beast's default ones.
template std::optional<HeadRejection> CheckRequestHead(const bhttp::header<true, bhttp::fields>&);
template std::optional<HeadRejection> CheckRequestHead(const bhttp::header<true, ArenaFields>&);

}  // namespace orrery::http
