#pragma once

// Continuation tokens of feeds and queries. Opaque to clients. Each names where a page
// ended, so that the next page starts there without redoing the earlier ones; forms
// (before the integrity tag and base64):
//   "K<n>:<key suffix>"  resume after this item key; n rows already returned (for TOP)
//   "O<offset>(:<hex cursor>)"  resume a fully evaluated result at this row (the shapes
//                        no index can stream): read from the result kept under the
//                        cursor id (result_cursors.h), or, when it is gone, from the
//                        query evaluated whole again
//   "C<n>(:<min>:<max>:<number>)+"  resume in creation order: every EPK range before the
//                        first min is done, and in each [min, max) listed (the physical
//                        partition the page ended in, then what remains of the ones a
//                        split divided) the items up to <number> were returned; n rows
//                        already returned (TOP, OFFSET and LIMIT count them)
//   "D<n>:<r>:<item>(:<min>:<max>:<number>)+"  the same, and the page ended among the rows
//                        of the item numbered <item> (a JOIN's), r of them returned
//   "S<n>:<hex position>"  resume an ORDER BY stream after this position: the encoded
//                        sort value (index_key.h) followed by the item's key suffix;
//                        everything up to it, in the query's order, was returned
//   "G<n>:<hex value>"   resume a stream of groups (GROUP BY, DISTINCT by an item path)
//                        after the group of this encoded value
//   "H<n>:<r>:<hex value>"  resume that stream at this value, whose first r result rows
//                        were returned (a value with more rows than a page holds)
//   "P<n>:<r>:<hex position>"  resume an ORDER BY stream at this position, whose first r
//                        rows were returned (an item with several elements of one value,
//                        ordered by a JOIN alias over its array)
// Every token ends with a tag that ties it to this format ("#" and 16 hex digits of an
// HMAC of the rest): a token altered by hand, or issued by an Orrery before this format,
// is refused with a 400 that says so instead of resuming at a wrong place.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "engine/creation_order.h"

namespace orrery::engine {

inline constexpr const char* kInvalidContinuation = "Invalid Continuation Token";

std::string EncodeKeyToken(std::string_view key_suffix, int64_t emitted);
// Key order, the page ended among the rows of the item after `key_suffix` (number
// `in_item`), `in_item_rows` > 0 of them returned.
std::string EncodeKeyTokenInItem(std::string_view key_suffix, int64_t emitted, size_t in_item_rows,
                                 uint64_t in_item);
// `cursor`: the id of the kept result (0: none kept).
std::string EncodeOffsetToken(size_t offset, uint64_t cursor = 0);
// `in_item_rows` > 0: the page ended after that many rows of item `in_item`.
std::string EncodeCreationToken(const std::vector<CreationPosition>& positions, int64_t emitted,
                                size_t in_item_rows = 0, uint64_t in_item = 0);
std::string EncodeOrderedToken(std::string_view position, int64_t emitted);
std::string EncodeGroupToken(std::string_view value, int64_t emitted);
// A page that ended inside the results of one group value (a value with more result
// rows than a page holds): the next page starts at that value and skips `returned` rows.
std::string EncodeInGroupToken(std::string_view value, size_t returned, int64_t emitted);
// A page that ended among the rows of one ORDER BY position: the next page starts at
// that position and skips `returned` rows of it.
std::string EncodeInPositionToken(std::string_view position, size_t returned, int64_t emitted);

struct DecodedToken {
  enum class Kind { kKey, kOffset, kCreation, kOrdered, kGroup };
  Kind kind = Kind::kKey;
  bool is_offset() const { return kind == Kind::kOffset; }
  bool is_creation() const { return kind == Kind::kCreation; }
  int64_t number = 0;  // rows returned, or the offset
  std::string key_suffix;
  std::vector<CreationPosition> positions;
  std::string position;  // kOrdered: encoded sort value + key suffix; kGroup: encoded value
  // kGroup: 0 when the page ended after the value; else it ended inside the value's
  // result rows, this many of them returned. kOrdered: the same for the rows of the
  // position.
  size_t in_group = 0;
  // kCreation and kKey: the page ended among the rows of item number `in_item`, this many
  // of them returned (0: after whole items).
  size_t in_item_rows = 0;
  uint64_t in_item = 0;
  // kOffset: the id of the kept result, or 0.
  uint64_t cursor = 0;
};

// Errors: BadRequest starting with kInvalidContinuation, saying whether the token is
// malformed or altered, or comes from an earlier Orrery.
Result<DecodedToken> DecodeToken(std::string_view token);

// The 400 for a token of another kind than the query's execution needs (a token of
// another query, say).
Status TokenOfAnotherQuery();

}  // namespace orrery::engine
