#pragma once

// The service's compile-error shape. A query that fails to compile answers 400 with
// a message that embeds
//   {"errors":[{"severity":"Error","location":{"start":S,"end":E},"code":"SC1001",
//               "message":"Syntax error, incorrect syntax near 'x'."}]}
// where S and E are character offsets (UTF-16 code units, as .NET counts them) into
// the query text. api/ wraps this text as it wraps every other message.

#include <string_view>

#include "common/status.h"
#include "query/token.h"

namespace orrery::query {

// Error codes the service reports (query-language.md §7).
inline constexpr std::string_view kSyntaxError = "SC1001";
inline constexpr std::string_view kUnexpectedEnd = "SC1002";
inline constexpr std::string_view kUnresolvedIdentifier = "SC2001";
inline constexpr std::string_view kUnknownFunction = "SC2005";
inline constexpr std::string_view kWrongArgumentCount = "SC2050";
inline constexpr std::string_view kQueryTooLong = "SC3020";
inline constexpr std::string_view kOrderByNotAPath = "2206";
// Semantic errors whose service code is not documented (SELECT * rules, aggregate
// placement, duplicate names, bad TOP/OFFSET/LIMIT values) and features this version
// does not support. The message carries the meaning; these codes are Orrery's own.
inline constexpr std::string_view kSemanticError = "SC2000";
inline constexpr std::string_view kNotSupported = "SC2000";

// What a stage that recurses over the tree says when the thread's stack runs short
// before the limits of limits.h are reached (common/stack.h): never expected on the
// server's request threads, whose stacks are sized for the limits.
inline constexpr std::string_view kStackExhaustedMessage =
    "The SQL query is nested too deeply for the stack of this server thread.";

// BadRequest with one error entry. `range` is in bytes of `text`.
Status QueryError(std::string_view text, SourceRange range, std::string_view code,
                  std::string_view message);

// SC1001 "Syntax error, incorrect syntax near '<token>'." at `range`.
Status SyntaxErrorNear(std::string_view text, SourceRange range);

// SC1002 "Syntax error, unexpected end-of-file." located at the end of the text.
Status UnexpectedEndOfInput(std::string_view text);

// Character (UTF-16 code unit) offset of byte offset `byte_offset` in `text`.
uint32_t CharacterOffset(std::string_view text, uint32_t byte_offset);

}  // namespace orrery::query
