#pragma once

// Continuation tokens of feeds and queries. Opaque to clients; forms (before base64):
//   "K<n>:<key suffix>"  resume after this item key; n rows already returned (for TOP)
//   "O<offset>"          resume a fully evaluated result at this row

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace orrery::engine {

inline constexpr const char* kInvalidContinuation = "Invalid Continuation Token";

std::string EncodeKeyToken(std::string_view key_suffix, int64_t emitted);
std::string EncodeOffsetToken(size_t offset);

struct DecodedToken {
  bool is_offset = false;
  int64_t number = 0;
  std::string key_suffix;
};

// Errors: BadRequest (kInvalidContinuation) for anything this server did not issue.
Result<DecodedToken> DecodeToken(std::string_view token);

}  // namespace orrery::engine
