#include "query/unicode.h"

namespace orrery::query {
namespace {

constexpr uint32_t kReplacement = 0xFFFD;

bool IsSurrogate(uint32_t cp) { return cp >= 0xD800 && cp <= 0xDFFF; }

// Latin Extended-A alternates upper/lower case in pairs; the two runs below start on
// an odd code point (upper case odd), the rest on an even one.
bool OddUpperInLatinExtendedA(uint32_t cp) {
  return (cp >= 0x0139 && cp <= 0x0148) || (cp >= 0x0179 && cp <= 0x017E);
}
bool InPairedLatinExtendedA(uint32_t cp) {
  return (cp >= 0x0100 && cp <= 0x012F) || (cp >= 0x0132 && cp <= 0x0137) ||
         (cp >= 0x014A && cp <= 0x0177) || OddUpperInLatinExtendedA(cp);
}
bool InPairedCyrillic(uint32_t cp) {
  return (cp >= 0x0460 && cp <= 0x0481) || (cp >= 0x048A && cp <= 0x04BF);
}

uint32_t LowerCodePoint(uint32_t cp) {
  if (cp >= 'A' && cp <= 'Z') {
    return cp + 0x20;
  }
  if (cp < 0x80) {
    return cp;
  }
  if (cp >= 0x00C0 && cp <= 0x00DE && cp != 0x00D7) {
    return cp + 0x20;
  }
  if (cp == 0x0178) {
    return 0x00FF;
  }
  if (InPairedLatinExtendedA(cp)) {
    const bool is_upper = OddUpperInLatinExtendedA(cp) ? (cp % 2 == 1) : (cp % 2 == 0);
    return is_upper ? cp + 1 : cp;
  }
  if (cp >= 0x0391 && cp <= 0x03A9 && cp != 0x03A2) {
    return cp + 0x20;
  }
  if (cp == 0x0386) {
    return 0x03AC;
  }
  if (cp >= 0x0388 && cp <= 0x038A) {
    return cp + 0x25;
  }
  if (cp == 0x038C) {
    return 0x03CC;
  }
  if (cp == 0x038E || cp == 0x038F) {
    return cp + 0x3F;
  }
  if (cp >= 0x0410 && cp <= 0x042F) {
    return cp + 0x20;
  }
  if (cp >= 0x0400 && cp <= 0x040F) {
    return cp + 0x50;
  }
  if (InPairedCyrillic(cp)) {
    return cp % 2 == 0 ? cp + 1 : cp;
  }
  return cp;
}

uint32_t UpperCodePoint(uint32_t cp) {
  if (cp >= 'a' && cp <= 'z') {
    return cp - 0x20;
  }
  if (cp < 0x80) {
    return cp;
  }
  if (cp >= 0x00E0 && cp <= 0x00FE && cp != 0x00F7) {
    return cp - 0x20;
  }
  if (cp == 0x00FF) {
    return 0x0178;
  }
  if (InPairedLatinExtendedA(cp)) {
    const bool is_lower = OddUpperInLatinExtendedA(cp) ? (cp % 2 == 0) : (cp % 2 == 1);
    return is_lower ? cp - 1 : cp;
  }
  if (cp >= 0x03B1 && cp <= 0x03C9 && cp != 0x03C2) {
    return cp - 0x20;
  }
  if (cp == 0x03C2) {
    return 0x03A3;  // final sigma
  }
  if (cp == 0x03AC) {
    return 0x0386;
  }
  if (cp >= 0x03AD && cp <= 0x03AF) {
    return cp - 0x25;
  }
  if (cp == 0x03CC) {
    return 0x038C;
  }
  if (cp == 0x03CD || cp == 0x03CE) {
    return cp - 0x3F;
  }
  if (cp >= 0x0430 && cp <= 0x044F) {
    return cp - 0x20;
  }
  if (cp >= 0x0450 && cp <= 0x045F) {
    return cp - 0x50;
  }
  if (InPairedCyrillic(cp)) {
    return cp % 2 == 1 ? cp - 1 : cp;
  }
  return cp;
}

template <typename Map>
std::string MapCodePoints(std::string_view s, Map map) {
  std::string out;
  out.reserve(s.size());
  size_t pos = 0;
  while (pos < s.size()) {
    const auto byte = static_cast<unsigned char>(s[pos]);
    if (byte < 0x80) {
      out.push_back(static_cast<char>(map(byte)));
      ++pos;
      continue;
    }
    AppendUtf8(out, map(DecodeUtf8(s, pos)));
  }
  return out;
}

}  // namespace

void AppendUtf8(std::string& out, uint32_t cp) {
  if (IsSurrogate(cp) || cp > 0x10FFFF) {
    cp = kReplacement;
  }
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

size_t Utf8SequenceLength(char lead) {
  const auto byte = static_cast<unsigned char>(lead);
  if (byte >= 0xF0 && byte <= 0xF4) {
    return 4;
  }
  if (byte >= 0xE0) {
    return byte <= 0xEF ? 3 : 1;
  }
  if (byte >= 0xC2) {
    return 2;
  }
  return 1;
}

uint32_t DecodeUtf8(std::string_view s, size_t& pos) {
  const auto lead = static_cast<unsigned char>(s[pos]);
  const size_t length = Utf8SequenceLength(s[pos]);
  if (length == 1) {
    ++pos;
    return lead < 0x80 ? lead : kReplacement;
  }
  if (pos + length > s.size()) {
    ++pos;
    return kReplacement;
  }
  uint32_t cp = lead & (0x7F >> length);
  for (size_t i = 1; i < length; ++i) {
    const auto byte = static_cast<unsigned char>(s[pos + i]);
    if ((byte & 0xC0) != 0x80) {
      ++pos;
      return kReplacement;
    }
    cp = (cp << 6) | (byte & 0x3F);
  }
  pos += length;
  return cp;
}

std::u16string ToUtf16(std::string_view s) {
  std::u16string out;
  out.reserve(s.size());
  size_t pos = 0;
  while (pos < s.size()) {
    const uint32_t cp = DecodeUtf8(s, pos);
    if (cp >= 0x10000) {
      out.push_back(static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
  }
  return out;
}

std::string FromUtf16(std::u16string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const uint32_t unit = s[i];
    if (unit >= 0xD800 && unit <= 0xDBFF && i + 1 < s.size() && s[i + 1] >= 0xDC00 &&
        s[i + 1] <= 0xDFFF) {
      AppendUtf8(out, 0x10000 + ((unit - 0xD800) << 10) + (s[i + 1] - 0xDC00u));
      ++i;
    } else {
      AppendUtf8(out, unit);
    }
  }
  return out;
}

size_t Utf16Length(std::string_view s) {
  size_t units = 0;
  size_t pos = 0;
  while (pos < s.size()) {
    units += DecodeUtf8(s, pos) >= 0x10000 ? 2 : 1;
  }
  return units;
}

std::string ToLower(std::string_view s) { return MapCodePoints(s, LowerCodePoint); }
std::string ToUpper(std::string_view s) { return MapCodePoints(s, UpperCodePoint); }

}  // namespace orrery::query
