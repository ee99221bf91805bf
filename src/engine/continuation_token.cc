#include "engine/continuation_token.h"

#include "common/crypto.h"
#include "common/decimal_integer.h"
#include "common/encoding.h"

namespace orrery::engine {
namespace {

// Not a secret: the tag detects tokens edited by hand or from an earlier format, and
// must stay valid across restarts and between servers of one version.
constexpr std::string_view kTagKey = "orrery continuation token v2";
constexpr size_t kTagDigits = 16;

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += kDigits[b >> 4];
    out += kDigits[b & 0xF];
  }
  return out;
}

std::optional<std::string> Unhex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::string out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = digit(hex[i]);
    const int low = digit(hex[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    out += static_cast<char>(high * 16 + low);
  }
  return out;
}

std::string Tag(std::string_view raw) {
  return Hex(HmacSha256(kTagKey, raw)).substr(0, kTagDigits);
}

std::string Seal(std::string raw) {
  const std::string tag = Tag(raw);
  raw += '#';
  raw += tag;
  return Base64Encode(raw);
}

Status Malformed() {
  return Status::BadRequest(std::string(kInvalidContinuation) +
                            ": the token is malformed or was altered. Pass the continuation "
                            "token of the previous page unchanged, or start the query again "
                            "without one.");
}

Status FromEarlierVersion() {
  return Status::BadRequest(std::string(kInvalidContinuation) +
                            ": the token was issued by an earlier version of Orrery and cannot "
                            "resume this query. Start the query again without a continuation "
                            "token.");
}

// A non-negative decimal number of a token.
std::optional<int64_t> Number(std::string_view text) {
  std::optional<int64_t> n = ParseDecimalInteger(text);
  return n && *n >= 0 ? n : std::nullopt;
}

bool IsEpk(std::string_view s) {
  return s.size() <= 256 && s.find_first_not_of("0123456789ABCDEF") == std::string_view::npos;
}

std::vector<std::string_view> SplitColons(std::string_view rest) {
  std::vector<std::string_view> parts;
  while (true) {
    const size_t colon = rest.find(':');
    parts.push_back(rest.substr(0, colon));
    if (colon == std::string_view::npos) break;
    rest = rest.substr(colon + 1);
  }
  return parts;
}

// "C<n>(:<min>:<max>:<number>)+"
Result<DecodedToken> DecodeCreation(std::string_view raw) {
  DecodedToken out;
  out.kind = DecodedToken::Kind::kCreation;
  std::vector<std::string_view> parts = SplitColons(raw.substr(1));
  if (raw[0] == 'D') {
    // "D<n>:<rows>:<item>:..." is "C<n>:..." with the rows of one item returned.
    const std::optional<int64_t> rows = parts.size() >= 3 ? Number(parts[1]) : std::nullopt;
    const std::optional<int64_t> item = parts.size() >= 3 ? Number(parts[2]) : std::nullopt;
    if (!rows || !item || *rows <= 0) return Malformed();
    out.in_item_rows = static_cast<size_t>(*rows);
    out.in_item = static_cast<uint64_t>(*item);
    parts.erase(parts.begin() + 1, parts.begin() + 3);
  }
  const std::optional<int64_t> emitted = parts.size() >= 4 ? Number(parts[0]) : std::nullopt;
  if (!emitted || (parts.size() - 1) % 3 != 0 || parts.size() > 1 + 3 * 64) return Malformed();
  out.number = *emitted;
  for (size_t i = 1; i < parts.size(); i += 3) {
    const std::optional<int64_t> after = Number(parts[i + 2]);
    if (!IsEpk(parts[i]) || !IsEpk(parts[i + 1]) || parts[i + 1].empty() || !after) {
      return Malformed();
    }
    out.positions.push_back(CreationPosition{std::string(parts[i]), std::string(parts[i + 1]),
                                             static_cast<uint64_t>(*after)});
  }
  return out;
}

// "S<n>:<hex>" and "G<n>:<hex>"
Result<DecodedToken> DecodePositioned(std::string_view raw, DecodedToken::Kind kind) {
  const std::vector<std::string_view> parts = SplitColons(raw.substr(1));
  if (parts.size() != 2) return Malformed();
  const std::optional<int64_t> emitted = Number(parts[0]);
  std::optional<std::string> position = Unhex(parts[1]);
  if (!emitted || !position || position->empty()) return Malformed();
  DecodedToken out;
  out.kind = kind;
  out.number = *emitted;
  out.position = std::move(*position);
  return out;
}

// "H<emitted>:<returned>:<hex value>" and "P<emitted>:<returned>:<hex position>"
Result<DecodedToken> DecodeInGroup(std::string_view raw, DecodedToken::Kind kind) {
  const std::vector<std::string_view> parts = SplitColons(raw.substr(1));
  if (parts.size() != 3) return Malformed();
  const std::optional<int64_t> emitted = Number(parts[0]);
  const std::optional<int64_t> returned = Number(parts[1]);
  std::optional<std::string> position = Unhex(parts[2]);
  if (!emitted || !returned || *returned <= 0 || !position || position->empty()) {
    return Malformed();
  }
  DecodedToken out;
  out.kind = kind;
  out.number = *emitted;
  out.in_group = static_cast<size_t>(*returned);
  out.position = std::move(*position);
  return out;
}

// "K<n>:<key suffix>" and "O<offset>"
Result<DecodedToken> DecodeKeyOrOffset(std::string_view raw) {
  DecodedToken out;
  out.kind = raw[0] == 'O' ? DecodedToken::Kind::kOffset : DecodedToken::Kind::kKey;
  const size_t colon = raw.find(':');
  if (colon == std::string_view::npos && !out.is_offset()) return Malformed();
  const std::optional<int64_t> number = Number(raw.substr(1, colon - 1));
  if (!number) return Malformed();
  out.number = *number;
  if (!out.is_offset()) {
    out.key_suffix = std::string(raw.substr(colon + 1));
  } else if (colon != std::string_view::npos) {
    const std::optional<std::string> cursor = Unhex(raw.substr(colon + 1));
    if (!cursor || cursor->size() != 8) return Malformed();
    for (const char byte : *cursor) out.cursor = (out.cursor << 8) | static_cast<uint8_t>(byte);
    if (out.cursor == 0) return Malformed();
  }
  return out;
}

// "J<n>:<rows>:<item>:<key suffix>": "K<n>:<key suffix>" ended among an item's rows.
Result<DecodedToken> DecodeKeyInItem(std::string_view raw) {
  std::vector<std::string_view> parts;
  std::string_view rest = raw.substr(1);
  for (int i = 0; i < 3; ++i) {
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos) return Malformed();
    parts.push_back(rest.substr(0, colon));
    rest = rest.substr(colon + 1);
  }
  const std::optional<int64_t> emitted = Number(parts[0]);
  const std::optional<int64_t> rows = Number(parts[1]);
  const std::optional<int64_t> item = Number(parts[2]);
  if (!emitted || !rows || !item || *rows <= 0) return Malformed();
  DecodedToken out;
  out.kind = DecodedToken::Kind::kKey;
  out.number = *emitted;
  out.in_item_rows = static_cast<size_t>(*rows);
  out.in_item = static_cast<uint64_t>(*item);
  out.key_suffix = std::string(rest);
  return out;
}

bool LooksLikeEarlierToken(std::string_view raw) {
  return raw.size() >= 2 && (raw[0] == 'K' || raw[0] == 'O' || raw[0] == 'C') && raw[1] >= '0' &&
         raw[1] <= '9';
}

}  // namespace

std::string EncodeKeyToken(std::string_view key_suffix, int64_t emitted) {
  return Seal("K" + std::to_string(emitted) + ":" + std::string(key_suffix));
}
std::string EncodeKeyTokenInItem(std::string_view key_suffix, int64_t emitted, size_t in_item_rows,
                                 uint64_t in_item) {
  return Seal("J" + std::to_string(emitted) + ":" + std::to_string(in_item_rows) + ":" +
              std::to_string(in_item) + ":" + std::string(key_suffix));
}
std::string EncodeOffsetToken(size_t offset, uint64_t cursor) {
  std::string raw = "O" + std::to_string(offset);
  if (cursor != 0) {
    std::string bytes;
    AppendFixed64BE(bytes, cursor);
    raw += ":" + Hex(bytes);
  }
  return Seal(std::move(raw));
}

std::string EncodeCreationToken(const std::vector<CreationPosition>& positions, int64_t emitted,
                                size_t in_item_rows, uint64_t in_item) {
  std::string raw = in_item_rows > 0
                        ? "D" + std::to_string(emitted) + ":" + std::to_string(in_item_rows) + ":" +
                              std::to_string(in_item)
                        : "C" + std::to_string(emitted);
  for (const CreationPosition& p : positions) {
    raw += ":" + p.min + ":" + p.max + ":" + std::to_string(p.number);
  }
  return Seal(std::move(raw));
}

std::string EncodeOrderedToken(std::string_view position, int64_t emitted) {
  return Seal("S" + std::to_string(emitted) + ":" + Hex(position));
}

std::string EncodeGroupToken(std::string_view value, int64_t emitted) {
  return Seal("G" + std::to_string(emitted) + ":" + Hex(value));
}

std::string EncodeInGroupToken(std::string_view value, size_t returned, int64_t emitted) {
  return Seal("H" + std::to_string(emitted) + ":" + std::to_string(returned) + ":" + Hex(value));
}

std::string EncodeInPositionToken(std::string_view position, size_t returned, int64_t emitted) {
  return Seal("P" + std::to_string(emitted) + ":" + std::to_string(returned) + ":" + Hex(position));
}

Result<DecodedToken> DecodeToken(std::string_view token) {
  const std::optional<std::string> sealed = Base64Decode(token);
  if (!sealed) return Malformed();
  const size_t hash = sealed->rfind('#');
  if (hash == std::string::npos || sealed->size() - hash - 1 != kTagDigits) {
    return LooksLikeEarlierToken(*sealed) ? FromEarlierVersion() : Malformed();
  }
  const std::string_view raw = std::string_view(*sealed).substr(0, hash);
  if (!ConstantTimeEquals(Tag(raw), std::string_view(*sealed).substr(hash + 1))) {
    return Malformed();
  }
  if (raw.size() < 2) return Malformed();
  switch (raw[0]) {
    case 'C':
    case 'D':
      return DecodeCreation(raw);
    case 'S':
      return DecodePositioned(raw, DecodedToken::Kind::kOrdered);
    case 'G':
      return DecodePositioned(raw, DecodedToken::Kind::kGroup);
    case 'H':
      return DecodeInGroup(raw, DecodedToken::Kind::kGroup);
    case 'P':
      return DecodeInGroup(raw, DecodedToken::Kind::kOrdered);
    case 'K':
    case 'O':
      return DecodeKeyOrOffset(raw);
    case 'J':
      return DecodeKeyInItem(raw);
    default:
      return Malformed();
  }
}

Status TokenOfAnotherQuery() {
  return Status::BadRequest(std::string(kInvalidContinuation) +
                            ": the token belongs to another query (its kind does not match "
                            "how this query runs). Pass the continuation token this query "
                            "returned, or start it again without one.");
}

}  // namespace orrery::engine
