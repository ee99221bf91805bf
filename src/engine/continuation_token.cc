#include "engine/continuation_token.h"

#include "common/encoding.h"

namespace orrery::engine {

std::string EncodeKeyToken(std::string_view key_suffix, int64_t emitted) {
  return Base64Encode("K" + std::to_string(emitted) + ":" + std::string(key_suffix));
}
std::string EncodeOffsetToken(size_t offset) { return Base64Encode("O" + std::to_string(offset)); }

Result<DecodedToken> DecodeToken(std::string_view token) {
  std::optional<std::string> raw = Base64Decode(token);
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
