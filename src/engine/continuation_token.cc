#include "engine/continuation_token.h"

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

bool IsDigits(std::string_view s, size_t max_size) {
  return !s.empty() && s.size() <= max_size &&
         s.find_first_not_of("0123456789") == std::string_view::npos;
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
  if (parts.size() < 4 || (parts.size() - 1) % 3 != 0 || parts.size() > 1 + 3 * 64 ||
      !IsDigits(parts[0], 18)) {
    return Status::BadRequest(kInvalidContinuation);
  }
  out.number = std::stoll(std::string(parts[0]));
  for (size_t i = 1; i < parts.size(); i += 3) {
    if (!IsEpk(parts[i]) || !IsEpk(parts[i + 1]) || parts[i + 1].empty() ||
        !IsDigits(parts[i + 2], 19)) {
      return Status::BadRequest(kInvalidContinuation);
    }
    out.positions.push_back(CreationPosition{std::string(parts[i]), std::string(parts[i + 1]),
                                             std::stoull(std::string(parts[i + 2]))});
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
