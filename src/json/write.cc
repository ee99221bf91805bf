#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "json/json.h"

namespace orrery::json {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// Whether any of the 8 bytes in `word` needs an escape in a JSON string: below 0x20,
// '"' or '\\'. Each test is exact for "any byte" (the usual bit tricks: a byte below n
// borrows into its top bit; x ^ c is zero where a byte equals c).
bool WordNeedsEscape(uint64_t word) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHighBits = 0x8080808080808080ULL;
  const uint64_t quote = word ^ (kOnes * '"');
  const uint64_t backslash = word ^ (kOnes * '\\');
  const uint64_t below_space = (word - kOnes * 0x20) & ~word;
  const uint64_t is_quote = (quote - kOnes) & ~quote;
  const uint64_t is_backslash = (backslash - kOnes) & ~backslash;
  return ((below_space | is_quote | is_backslash) & kHighBits) != 0;
}

// Splits the shortest round-trip form of d (> 0) into its digits and the decimal
// exponent n such that d = 0.digits * 10^n, as ECMAScript's Number::toString defines.
void ShortestDigits(double d, std::string& digits, int& n) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific);
  std::string_view s(buf, end - buf);
  size_t e = s.find('e');
  std::string_view mantissa = s.substr(0, e);
  int exponent = std::stoi(std::string(s.substr(e + 1)));
  digits.clear();
  for (char c : mantissa) {
    if (c != '.') {
      digits.push_back(c);
    }
  }
  while (digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
  }
  n = exponent + 1;
}

}  // namespace

void AppendNumber(std::string& out, double d) {
  if (!std::isfinite(d)) {
    out += "null";  // JSON has no NaN or Infinity; JSON.stringify writes null too
    return;
  }
  if (d == 0) {
    out += '0';
    return;
  }
  if (d < 0) {
    out += '-';
    d = -d;
  }
  std::string digits;
  int n = 0;
  ShortestDigits(d, digits, n);
  const int k = static_cast<int>(digits.size());
  if (k <= n && n <= 21) {
    out += digits;
    out.append(n - k, '0');
  } else if (0 < n && n <= 21) {
    out.append(digits, 0, n);
    out += '.';
    out.append(digits, n, std::string::npos);
  } else if (-6 < n && n <= 0) {
    out += "0.";
    out.append(-n, '0');
    out += digits;
  } else {
    out += digits[0];
    if (k > 1) {
      out += '.';
      out.append(digits, 1, std::string::npos);
    }
    out += 'e';
    out += (n - 1 >= 0) ? '+' : '-';
    out += std::to_string(std::abs(n - 1));
  }
}

void AppendQuoted(std::string& out, std::string_view s) {
  out += '"';
  // Copy runs of characters that need no escape in one append: items are mostly
  // plain text, and this loop runs over every byte of every item written.
  size_t run_start = 0;
  size_t i = 0;
  // Eight bytes at a time past those that need none (a 1 KB string of plain text was a
  // byte-by-byte loop of 2.5% of a create's CPU); the loop below handles the rest.
  auto skip_plain_words = [&] {
    uint64_t word;
    while (i + sizeof word <= s.size()) {
      std::memcpy(&word, s.data() + i, sizeof word);
      if (WordNeedsEscape(word)) break;
      i += sizeof word;
    }
  };
  for (skip_plain_words(); i < s.size(); ++i, skip_plain_words()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') {
      continue;
    }
    out.append(s.data() + run_start, i - run_start);
    run_start = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
    }
  }
  out.append(s.data() + run_start, s.size() - run_start);
  out += '"';
}

void AppendTo(std::string& out, const Value& value) {
  switch (value.type()) {
    case Type::kUndefined:
      break;
    case Type::kNull:
      out += "null";
      break;
    case Type::kBool:
      out += value.as_bool() ? "true" : "false";
      break;
    case Type::kNumber:
      if (value.is_integer()) {
        out += std::to_string(value.as_int());
      } else {
        AppendNumber(out, value.as_double());
      }
      break;
    case Type::kString:
      AppendQuoted(out, value.as_string());
      break;
    case Type::kArray: {
      out += '[';
      bool first = true;
      for (const Value& element : value.as_array()) {
        if (!first) {
          out += ',';
        }
        first = false;
        if (element.is_undefined()) {
          out += "null";  // as JSON.stringify does for undefined array slots
        } else {
          AppendTo(out, element);
        }
      }
      out += ']';
      break;
    }
    case Type::kObject: {
      out += '{';
      bool first = true;
      for (const auto& [name, member] : value.as_object()) {
        if (member.is_undefined()) {
          continue;
        }
        if (!first) {
          out += ',';
        }
        first = false;
        AppendQuoted(out, name);
        out += ':';
        AppendTo(out, member);
      }
      out += '}';
      break;
    }
  }
}

std::string Write(const Value& value) {
  std::string out;
  AppendTo(out, value);
  return out;
}

}  // namespace orrery::json
