#pragma once

// Token: one lexical element of a query text, with its position.

#include <cstdint>
#include <string>
#include <string_view>

namespace orrery::query {

// Byte offsets into the query text, end exclusive. Errors convert them to the
// character offsets the service reports (errors.h).
struct SourceRange {
  uint32_t start = 0;
  uint32_t end = 0;
};

enum class TokenKind : uint8_t {
  kEnd,         // end of input
  kIdentifier,  // [A-Za-z_][A-Za-z0-9_]*, not a reserved word
  kParameter,   // @name
  kNumber,
  kString,

  // Reserved words (case-insensitive), per the .NET SDK grammar.
  kAnd,
  kArray,
  kAs,
  kAsc,
  kBetween,
  kBy,
  kDesc,
  kDistinct,
  kEscape,
  kExists,
  kFrom,
  kGroup,
  kIn,
  kJoin,
  kLeft,
  kLike,
  kLimit,
  kNot,
  kOffset,
  kOr,
  kOrder,
  kRank,
  kRight,
  kSelect,
  kTop,
  kValue,
  kWhere,
  // Reserved words that must be lowercase.
  kTrue,
  kFalse,
  kNull,
  kUndefined,
  kUdf,

  // Punctuation and operators.
  kComma,               // ,
  kDot,                 // .
  kColon,               // :
  kQuestion,            // ?
  kCoalesce,            // ??
  kLeftParen,           // (
  kRightParen,          // )
  kLeftBracket,         // [
  kRightBracket,        // ]
  kLeftBrace,           // {
  kRightBrace,          // }
  kStar,                // *
  kSlash,               // /
  kPercent,             // %
  kPlus,                // +
  kMinus,               // -
  kConcat,              // ||
  kBitAnd,              // &
  kBitOr,               // |
  kBitXor,              // ^
  kBitNot,              // ~
  kShiftLeft,           // <<
  kShiftRight,          // >>
  kShiftRightZeroFill,  // >>>
  kEqual,               // =
  kNotEqual,            // != or <>
  kLess,                // <
  kLessEqual,           // <=
  kGreater,             // >
  kGreaterEqual,        // >=
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  SourceRange range;
  // The token exactly as written (a view into the query text; valid while it is).
  std::string_view text;
  // kString: the decoded value. kIdentifier: the name. kParameter: "@name".
  std::string string_value;
  // kNumber: integral literals that fit int64 have is_integer set.
  bool is_integer = false;
  int64_t integer_value = 0;
  double number_value = 0;
};

// A short name for a token kind, for tests and diagnostics ("SELECT", "<=", "identifier").
std::string_view TokenKindName(TokenKind kind);

}  // namespace orrery::query
