#pragma once

// Continuation tokens of feeds and queries. Opaque to clients; forms (before base64):
//   "K<n>:<key suffix>"  resume after this item key; n rows already returned (for TOP)
//   "O<offset>"          resume a fully evaluated result at this row
//   "C<n>(:<min>:<max>:<number>)+"  resume in creation order: every EPK range before the
//                        first min is done, and in each [min, max) listed (the physical
//                        partition the page ended in, then what remains of the ones a
//                        split divided) the items up to <number> were returned; n rows
//                        already returned

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "engine/creation_order.h"

namespace orrery::engine {

inline constexpr const char* kInvalidContinuation = "Invalid Continuation Token";

std::string EncodeKeyToken(std::string_view key_suffix, int64_t emitted);
std::string EncodeOffsetToken(size_t offset);
std::string EncodeCreationToken(const std::vector<CreationPosition>& positions, int64_t emitted);

struct DecodedToken {
  bool is_offset = false;
  bool is_creation = false;
  int64_t number = 0;  // rows returned, or the offset
  std::string key_suffix;
  std::vector<CreationPosition> positions;
};

// Errors: BadRequest (kInvalidContinuation) for anything this server did not issue.
Result<DecodedToken> DecodeToken(std::string_view token);

}  // namespace orrery::engine
