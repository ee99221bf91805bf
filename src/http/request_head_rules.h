#pragma once

// The rules of RFC 9112 for a request head that Beast's parser leaves to the server,
// checked once the head is read and before the body is: a method in the case HTTP
// defines it, exactly one valid Host, and framing that cannot be read two ways.
// (Beast itself refuses malformed lines, a Content-Length that is not a number or
// overflows 64 bits, two different Content-Lengths and Content-Length together with
// chunked in the order it sees them; these rules cover the rest.) Internal to src/http/.

#include <optional>
#include <string>
#include <string_view>

#include "http/beast.h"

namespace orrery::http {

// Why a request head is refused: the status to answer (400, or 501 for a transfer
// coding Orrery does not implement) and a message naming the header and what is wrong.
// The connection is closed after the answer: the body, if any, was not read.
struct HeadRejection {
  int status = 400;
  std::string message;
};

// nullopt when the head may be served. Instantiated for Beast's default fields and for
// ArenaFields (request_arena.h).
template <typename Fields>
std::optional<HeadRejection> CheckRequestHead(const bhttp::header<true, Fields>& head);

// The message for a request Beast's parser refused with `ec` (one of its parse errors).
std::string MalformedRequestMessage(const error_code& ec);

// Whether `value` is a valid Host field value (RFC 9112 §3.2, RFC 3986 §3.2.2):
// uri-host [":" port], where uri-host is a registered name (possibly empty), an IPv4
// address or a bracketed IP literal, and port is digits naming a TCP port (0-65535).
bool IsValidHost(std::string_view value);

}  // namespace orrery::http
