#include "engine/continuation_token.h"

#include "common/decimal_integer.h"
#include "common/encoding.h"

namespace orrery::engine {

std::string EncodeKeyToken(std::string_view key_suffix, int64_t emitted) {
  return Base64Encode("K" + std::to_string(emitted) + ":" + std::string(key_suffix));
}
std::string EncodeOffsetToken(size_t offset) { return Base64Encode("O" + std::to_string(offset)); }

std::string EncodeCreationToken(const std::vector<CreationPosition>& positions, int64_t emitted) {
  std::string raw = "C" + std::to_string(emitted);
  for (const CreationPosition& p : positions) {
    raw += ":" + p.min + ":" + p.max + ":" + std::to_string(p.number);
  }
  return Base64Encode(raw);
}

namespace {

// A non-negative decimal number of a token.
std::optional<int64_t> Number(std::string_view text) {
  std::optional<int64_t> n = ParseDecimalInteger(text);
  return n && *n >= 0 ? n : std::nullopt;
}

bool IsEpk(std::string_view s) {
  return s.size() <= 256 && s.find_first_not_of("0123456789ABCDEF") == std::string_view::npos;
}

// "C<n>(:<min>:<max>:<number>)+"
Result<DecodedToken> DecodeCreationToken(std::string_view raw) {
  DecodedToken out;
  out.is_creation = true;
  std::vector<std::string_view> parts;
  std::string_view rest = raw.substr(1);
  while (true) {
    const size_t colon = rest.find(':');
    parts.push_back(rest.substr(0, colon));
    if (colon == std::string_view::npos) break;
    rest = rest.substr(colon + 1);
  }
  const std::optional<int64_t> emitted = parts.size() >= 4 ? Number(parts[0]) : std::nullopt;
  if (!emitted || (parts.size() - 1) % 3 != 0 || parts.size() > 1 + 3 * 64) {
    return Status::BadRequest(kInvalidContinuation);
  }
  out.number = *emitted;
  for (size_t i = 1; i < parts.size(); i += 3) {
    const std::optional<int64_t> after = Number(parts[i + 2]);
    if (!IsEpk(parts[i]) || !IsEpk(parts[i + 1]) || parts[i + 1].empty() || !after) {
      return Status::BadRequest(kInvalidContinuation);
    }
    out.positions.push_back(CreationPosition{std::string(parts[i]), std::string(parts[i + 1]),
                                             static_cast<uint64_t>(*after)});
  }
  return out;
}

}  // namespace

Result<DecodedToken> DecodeToken(std::string_view token) {
  std::optional<std::string> raw = Base64Decode(token);
  if (raw && raw->size() >= 2 && (*raw)[0] == 'C') return DecodeCreationToken(*raw);
  if (!raw || raw->size() < 2 || ((*raw)[0] != 'K' && (*raw)[0] != 'O')) {
    return Status::BadRequest(kInvalidContinuation);
  }
  DecodedToken out;
  out.is_offset = (*raw)[0] == 'O';
  size_t colon = out.is_offset ? raw->size() : raw->find(':');
  if (colon == std::string::npos) {
    return Status::BadRequest(kInvalidContinuation);
  }
  std::string digits = raw->substr(1, colon - 1);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
      digits.size() > 18) {
    return Status::BadRequest(kInvalidContinuation);
  }
  out.number = std::stoll(digits);
  if (!out.is_offset) {
    out.key_suffix = raw->substr(colon + 1);
  }
  return out;
}

}  // namespace orrery::engine
