#pragma once

// The one parser for decimal integers that arrive on the wire (header values, the
// numbers inside etags and Host ports). Wire numbers are where overflow, "+5", " 5"
// and "5abc" sneak in: strtol and friends accept all four, each in its own way.

#include <cstdint>
#include <optional>
#include <string_view>

namespace orrery {

// The value of `text` when the whole of it is an optional '-' followed by one or more
// ASCII digits and the number fits in int64_t; nullopt otherwise: empty text, a
// leading '+', whitespace anywhere, trailing characters, hex or exponents, overflow.
// Leading zeros are accepted ("007" is 7), as HTTP's 1*DIGIT grammar does.
std::optional<int64_t> ParseDecimalInteger(std::string_view text);

}  // namespace orrery
