#pragma once

// Byte/string encodings shared by several layers.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace orrery {

std::string Base64Encode(std::string_view bytes);
// Standard alphabet with padding; nullopt on malformed input.
std::optional<std::string> Base64Decode(std::string_view text);

// Percent-decoding of URL path segments ('+' stays a plus, as Cosmos DB paths use it
// literally). nullopt on a malformed escape.
std::optional<std::string> PercentDecode(std::string_view text);
// The value of a hex digit of either case, or -1.
int HexValue(char c);
// Percent-encodes every byte but the unreserved ones (A-Z a-z 0-9 - _ . ~).
std::string PercentEncode(std::string_view text);

std::string LowerAscii(std::string_view s);
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

// `text` in single quotes for an error message that quotes what a client sent: at most
// `max_bytes` of it (then "..."), each byte outside printable ASCII as '?'. A header may
// be tens of KB of any bytes; the message stays short and valid UTF-8.
std::string QuotedForMessage(std::string_view text, size_t max_bytes = 100);

// Little-endian fixed-width integers.
void AppendFixed32LE(std::string& out, uint32_t v);
void AppendFixed64LE(std::string& out, uint64_t v);
// Big-endian, for order-preserving keys.
void AppendFixed32BE(std::string& out, uint32_t v);
uint32_t DecodeFixed32BE(std::string_view in);
void AppendFixed64BE(std::string& out, uint64_t v);
uint64_t DecodeFixed64BE(std::string_view in);

}  // namespace orrery
