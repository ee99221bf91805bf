#include "index/index_key.h"

#include <bit>
#include <cstring>

#include "common/encoding.h"
#include "storage/keys.h"

namespace orrery::index {
namespace {

// Path segments: 0x02 + escaped name + 0x00 0x01, or 0x03 for an array step. The path
// ends with 0x01, which no segment starts with, so one path is never a prefix of
// another's entries.
constexpr char kNameSegment = '\x02';
constexpr char kArraySegment = '\x03';
constexpr char kPathEnd = '\x01';

// 0x00 inside a string becomes 0x00 0xFF; the terminator 0x00 0x01 sorts below it,
// so "a" < "a\0" < "ab" holds for the encoded forms too. UTF-8 has no 0xFF byte.
void AppendEscaped(std::string& key, std::string_view text) {
  // Runs up to each NUL appended whole: strings almost never hold one, and an index
  // entry holds every indexed string value whole (a 1 KB one on every write of it).
  size_t from = 0;
  for (size_t nul = text.find('\0'); nul != std::string_view::npos; nul = text.find('\0', from)) {
    key.append(text.data() + from, nul + 1 - from);
    key += '\xFF';
    from = nul + 1;
  }
  key.append(text.data() + from, text.size() - from);
}

void AppendTerminator(std::string& key) {
  key += '\0';
  key += '\x01';
}

// In place of the terminator: the string goes on beyond the bytes the key holds.
constexpr char kBoundedMarker = '\x02';

// What ends every entry: the item's EPK, 0x00 and id.
void AppendItemOf(std::string& key, std::string_view epk, std::string_view id) {
  key += epk;
  key += '\0';
  key += id;
}

void AppendBoundedString(std::string& key, std::string_view text) {
  key += static_cast<char>(ValueTag::kString);
  AppendEscaped(key, text.substr(0, kIndexedStringBytes));
  key += '\0';
  key += kBoundedMarker;
}

// IEEE-754 bits made order-preserving: negative numbers have every bit flipped,
// others only the sign bit. -0 is stored as 0 (they are equal in the language).
void AppendNumber(std::string& key, double d) {
  if (d == 0) d = 0;
  uint64_t bits = std::bit_cast<uint64_t>(d);
  bits = (bits & (uint64_t{1} << 63)) ? ~bits : bits | (uint64_t{1} << 63);
  for (int shift = 56; shift >= 0; shift -= 8) {
    key += static_cast<char>((bits >> shift) & 0xFF);
  }
}

}  // namespace

std::optional<double> DecodeNumber(std::string_view encoded) {
  if (encoded.size() != 9 || static_cast<ValueTag>(encoded[0]) != ValueTag::kNumber) {
    return std::nullopt;
  }
  uint64_t bits = 0;
  for (size_t i = 1; i < 9; ++i) bits = bits << 8 | static_cast<uint8_t>(encoded[i]);
  bits = (bits & (uint64_t{1} << 63)) ? bits & ~(uint64_t{1} << 63) : ~bits;
  return std::bit_cast<double>(bits);
}

std::string PathPrefix(uint32_t container, uint32_t partition, std::span<const std::string> path) {
  std::string key(1, storage::keys::kIndexSpace);
  AppendFixed32BE(key, container);
  AppendFixed32BE(key, partition);
  for (const std::string& segment : path) {
    if (segment == "[]") {
      key += kArraySegment;
      continue;
    }
    key += kNameSegment;
    AppendEscaped(key, segment);
    AppendTerminator(key);
  }
  key += kPathEnd;
  return key;
}

void AppendValue(std::string& key, const json::Value& value) {
  switch (value.type()) {
    case json::Type::kUndefined:
      key += static_cast<char>(ValueTag::kUndefined);
      return;
    case json::Type::kNull:
      key += static_cast<char>(ValueTag::kNull);
      return;
    case json::Type::kBool:
      key += static_cast<char>(value.as_bool() ? ValueTag::kTrue : ValueTag::kFalse);
      return;
    case json::Type::kNumber:
      key += static_cast<char>(ValueTag::kNumber);
      AppendNumber(key, value.as_double());
      return;
    case json::Type::kString:
      key += static_cast<char>(ValueTag::kString);
      AppendEscaped(key, value.as_string());
      AppendTerminator(key);
      return;
    case json::Type::kArray:
      key += static_cast<char>(ValueTag::kArray);
      return;
    case json::Type::kObject:
      key += static_cast<char>(ValueTag::kObject);
      return;
  }
}

void AppendIndexedValue(std::string& key, const json::Value& value) {
  if (value.is_string() && value.as_string().size() > kIndexedStringBytes) {
    AppendBoundedString(key, value.as_string());
    return;
  }
  AppendValue(key, value);
}

bool IsBoundedString(std::string_view encoded) {
  return encoded.size() >= 3 && static_cast<ValueTag>(encoded[0]) == ValueTag::kString &&
         encoded[encoded.size() - 2] == '\0' && encoded.back() == kBoundedMarker;
}

std::optional<std::string> BoundedGroupOf(std::string_view encoded) {
  if (encoded.empty() || static_cast<ValueTag>(encoded[0]) != ValueTag::kString) {
    return std::nullopt;
  }
  // Decode the escaped bytes up to the terminator, stopping once the string is longer
  // than an entry holds.
  std::string text;
  for (size_t pos = 1; pos < encoded.size(); ++pos) {
    if (encoded[pos] != '\0') {
      text += encoded[pos];
    } else if (pos + 1 < encoded.size() && encoded[pos + 1] == '\xFF') {
      text += '\0';
      ++pos;
    } else {
      return std::nullopt;  // the terminator: short enough to be held whole
    }
    if (text.size() > kIndexedStringBytes) {
      std::string group;
      AppendBoundedString(group, text);
      return group;
    }
  }
  return std::nullopt;
}

void AppendStringPrefix(std::string& key, std::string_view prefix) {
  key += static_cast<char>(ValueTag::kString);
  AppendEscaped(key, prefix);
}

std::string EntryKey(std::string_view path_prefix, const json::Value& value, std::string_view epk,
                     std::string_view id) {
  std::string key(path_prefix);
  AppendEntry(key, value, epk, id);
  return key;
}

void AppendEntry(std::string& key, const json::Value& value, std::string_view epk,
                 std::string_view id) {
  // Tag, number or string with its terminator, then epk, 0x00 and id.
  const size_t value_bytes = value.is_string() ? value.as_string().size() + 3 : 9;
  key.reserve(key.size() + value_bytes + epk.size() + 1 + id.size());
  AppendValue(key, value);
  AppendItemOf(key, epk, id);
}

void AppendIndexedEntry(std::string& key, const json::Value& value, std::string_view epk,
                        std::string_view id) {
  if (!value.is_string() || value.as_string().size() <= kIndexedStringBytes) {
    AppendEntry(key, value, epk, id);
    return;
  }
  key.reserve(key.size() + kIndexedStringBytes + 3 + epk.size() + 1 + id.size());
  AppendBoundedString(key, value.as_string());
  AppendItemOf(key, epk, id);
}

std::string ContainerBegin(uint32_t container) {
  std::string key(1, storage::keys::kIndexSpace);
  AppendFixed32BE(key, container);
  return key;
}

std::string ContainerEnd(uint32_t container) {
  std::string key(1, storage::keys::kIndexSpace);
  AppendFixed32BE(key, container + 1);
  return key;
}

std::string PartitionBegin(uint32_t container, uint32_t partition) {
  std::string key = ContainerBegin(container);
  AppendFixed32BE(key, partition);
  return key;
}

uint32_t PartitionOf(std::string_view entry_key) {
  return entry_key.size() < 9 ? 0 : DecodeFixed32BE(entry_key.substr(5, 4));
}

constexpr size_t kPathStart = 9;  // space, container, partition

std::optional<std::string_view> EntryPath(std::string_view key, bool names_only) {
  const std::optional<size_t> length = PathPrefixLength(key, names_only);
  if (!length) return std::nullopt;
  return key.substr(kPathStart, *length - kPathStart);
}

std::optional<size_t> PathPrefixLength(std::string_view key, bool names_only) {
  if (key.size() <= kPathStart || key[0] != storage::keys::kIndexSpace) return std::nullopt;
  return PathEnd(key, kPathStart, names_only);
}

std::optional<size_t> PathEnd(std::string_view key, size_t from, bool names_only) {
  size_t pos = from;
  while (pos < key.size()) {
    switch (key[pos]) {
      case kPathEnd:
        return pos + 1;
      case kArraySegment:
        if (names_only) return std::nullopt;
        ++pos;
        break;
      case kNameSegment: {
        // The name runs to the terminator 0x00 0x01; an escaped 0x00 is 0x00 0xFF.
        size_t at = pos + 1;
        while (true) {
          at = key.find('\0', at);
          if (at == std::string_view::npos || at + 1 >= key.size()) return std::nullopt;
          if (key[at + 1] == '\x01') break;
          at += 2;
        }
        pos = at + 2;
        break;
      }
      default:
        return std::nullopt;  // composite (0x04) and vector (0x05) entries
    }
  }
  return std::nullopt;
}

std::optional<EntryView> ParseEntry(std::string_view rest) {
  if (rest.empty()) return std::nullopt;
  const auto tag = static_cast<ValueTag>(static_cast<uint8_t>(rest[0]));
  size_t pos = 1;
  switch (tag) {
    case ValueTag::kUndefined:
    case ValueTag::kNull:
    case ValueTag::kFalse:
    case ValueTag::kTrue:
    case ValueTag::kArray:
    case ValueTag::kObject:
      break;
    case ValueTag::kNumber:
      pos += 8;
      break;
    case ValueTag::kString: {
      // Skip escaped bytes up to the terminator 0x00 0x01 (or a bounded string's
      // marker 0x00 0x02).
      while (true) {
        const size_t zero = rest.find('\0', pos);
        if (zero == std::string_view::npos || zero + 1 >= rest.size()) return std::nullopt;
        pos = zero + 2;
        if (rest[zero + 1] == '\x01' || rest[zero + 1] == kBoundedMarker) break;
      }
      break;
    }
    default:
      return std::nullopt;
  }
  if (pos > rest.size()) return std::nullopt;
  const std::string_view tail = rest.substr(pos);
  const size_t zero = tail.find('\0');
  if (zero == std::string_view::npos) return std::nullopt;
  return EntryView{tag, rest.substr(0, pos), tail.substr(0, zero), tail.substr(zero + 1)};
}

}  // namespace orrery::index
