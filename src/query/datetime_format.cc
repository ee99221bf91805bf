#include "query/datetime_format.h"

#include <algorithm>
#include <array>

namespace orrery::query::functions_internal {
namespace {

constexpr size_t kFractionDigits = 7;  // ticks are 100 ns: seven digits of a second

// Invariant-culture names; the service does not localize dates.
constexpr std::array<std::string_view, 12> kMonthNames = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};
constexpr std::array<std::string_view, 7> kDayNames = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                       "Thursday", "Friday", "Saturday"};

// How many times the character at `pos` repeats from there on: "yyyy" is one token.
size_t RunLength(std::string_view format, size_t pos) {
  size_t end = pos + 1;
  while (end < format.size() && format[end] == format[pos]) {
    ++end;
  }
  return end - pos;
}

// `value` (non-negative) in decimal, zero-padded on the left to `width` digits.
void AppendPadded(std::string& out, int64_t value, size_t width) {
  const std::string digits = std::to_string(value);
  if (digits.size() < width) {
    out.append(width - digits.size(), '0');
  }
  out += digits;
}

// A name in full for four or more letters, its first three letters for three.
void AppendName(std::string& out, std::string_view name, size_t letters) {
  out += letters == 3 ? name.substr(0, 3) : name;
}

// The first `digits` digits of the seven-digit fraction of the second.
int64_t LeadingFractionDigits(int64_t fraction, size_t digits) {
  for (size_t i = digits; i < kFractionDigits; ++i) {
    fraction /= 10;
  }
  return fraction;
}

// A quoted literal starting at the quote at `pos`; a backslash inside escapes the next
// character. Moves `pos` past the closing quote; false when the quote is not closed.
bool AppendQuoted(std::string& out, std::string_view format, size_t& pos) {
  const char quote = format[pos];
  for (size_t i = pos + 1; i < format.size(); ++i) {
    if (format[i] == quote) {
      pos = i + 1;
      return true;
    }
    if (format[i] == '\\') {
      if (++i == format.size()) {
        return false;
      }
    }
    out += format[i];
  }
  return false;
}

bool AppendFormatted(std::string& out, const DateTimeFields& t, std::string_view format) {
  size_t pos = 0;
  while (pos < format.size()) {
    const char c = format[pos];
    const size_t run = RunLength(format, pos);
    // Numeric fields take at most two digits, however long the run ("hhh" is "hh").
    const size_t width = std::min<size_t>(run, 2);
    switch (c) {
      case 'y':
        // One or two letters: the year of the century; more: the whole year, padded.
        AppendPadded(out, run <= 2 ? t.year % 100 : t.year, run);
        break;
      case 'M':
        if (run <= 2) {
          AppendPadded(out, t.month, run);
        } else {
          AppendName(out, kMonthNames[static_cast<size_t>(t.month - 1)], run);
        }
        break;
      case 'd':
        if (run <= 2) {
          AppendPadded(out, t.day, run);
        } else {
          AppendName(out, kDayNames[static_cast<size_t>(t.day_of_week)], run);
        }
        break;
      case 'h':
        AppendPadded(out, t.hour % 12 == 0 ? 12 : t.hour % 12, width);
        break;
      case 'H':
        AppendPadded(out, t.hour, width);
        break;
      case 'm':
        AppendPadded(out, t.minute, width);
        break;
      case 's':
        AppendPadded(out, t.second, width);
        break;
      case 'f':
        if (run > kFractionDigits) {
          return false;
        }
        AppendPadded(out, LeadingFractionDigits(t.fraction, run), run);
        break;
      case 'F': {
        // Like f, without trailing zeros. An all-zero fraction writes nothing and, as
        // the service's example shows ("…14:40:20." for "ss.FFF"), keeps the '.' before
        // it, where .NET would drop it.
        if (run > kFractionDigits) {
          return false;
        }
        int64_t value = LeadingFractionDigits(t.fraction, run);
        size_t digits = run;
        while (digits > 0 && value % 10 == 0) {
          value /= 10;
          --digits;
        }
        if (digits > 0) {
          AppendPadded(out, value, digits);
        }
        break;
      }
      case 't': {
        const std::string_view designator = t.hour < 12 ? "AM" : "PM";
        out += run == 1 ? designator.substr(0, 1) : designator;
        break;
      }
      case 'g':
        out += "A.D.";  // every supported year (0001-9999) is in the common era
        break;
      case 'z':
        // The offset from UTC, which is always zero here: "+0", "+00", "+00:00".
        out += run == 1 ? "+0" : run == 2 ? "+00" : "+00:00";
        break;
      case 'K':
        out += 'Z';  // the UTC designator; each K is a token of its own
        pos += 1;
        continue;
      case '\'':
      case '"':
        if (!AppendQuoted(out, format, pos)) {
          return false;
        }
        continue;
      case '\\':
        if (pos + 1 == format.size()) {
          return false;
        }
        out += format[pos + 1];
        pos += 2;
        continue;
      case '%':
        // "%d" reads the next character alone as a specifier; "%%" and a final "%"
        // are malformed.
        if (pos + 1 == format.size() || format[pos + 1] == '%' ||
            !AppendFormatted(out, t, format.substr(pos + 1, 1))) {
          return false;
        }
        pos += 2;
        continue;
      default:
        // Any other character, 'T' and ':' included, is itself.
        out += c;
        pos += 1;
        continue;
    }
    pos += run;
  }
  return true;
}

}  // namespace

std::optional<std::string> FormatDateTimeFields(const DateTimeFields& fields,
                                                std::string_view format) {
  std::string out;
  out.reserve(format.size() + 16);
  if (!AppendFormatted(out, fields, format)) {
    return std::nullopt;
  }
  return out;
}

}  // namespace orrery::query::functions_internal
