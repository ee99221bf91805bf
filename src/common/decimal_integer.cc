#include "common/decimal_integer.h"

#include <charconv>
#include <system_error>

namespace orrery {

std::optional<int64_t> ParseDecimalInteger(std::string_view text) {
  // from_chars already refuses '+', whitespace and overflow; it only has to be held to
  // the whole text.
  int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value, 10);
  if (error != std::errc() || stop != end) return std::nullopt;
  return value;
}

}  // namespace orrery
