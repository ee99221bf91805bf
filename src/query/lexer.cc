#include "query/lexer.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <string>

#include "query/errors.h"
#include "query/unicode.h"

namespace orrery::query {
namespace {

struct Keyword {
  std::string_view word;
  TokenKind kind;
  bool lowercase_only;
};

// The reserved words of the .NET SDK grammar (query-language.md §2). ALL, FIRST and
// LAST are deliberately absent: they stay usable as identifiers.
constexpr std::array kKeywords = {
    Keyword{"and", TokenKind::kAnd, false},
    Keyword{"array", TokenKind::kArray, false},
    Keyword{"as", TokenKind::kAs, false},
    Keyword{"asc", TokenKind::kAsc, false},
    Keyword{"between", TokenKind::kBetween, false},
    Keyword{"by", TokenKind::kBy, false},
    Keyword{"desc", TokenKind::kDesc, false},
    Keyword{"distinct", TokenKind::kDistinct, false},
    Keyword{"escape", TokenKind::kEscape, false},
    Keyword{"exists", TokenKind::kExists, false},
    Keyword{"from", TokenKind::kFrom, false},
    Keyword{"group", TokenKind::kGroup, false},
    Keyword{"in", TokenKind::kIn, false},
    Keyword{"join", TokenKind::kJoin, false},
    Keyword{"left", TokenKind::kLeft, false},
    Keyword{"like", TokenKind::kLike, false},
    Keyword{"limit", TokenKind::kLimit, false},
    Keyword{"not", TokenKind::kNot, false},
    Keyword{"offset", TokenKind::kOffset, false},
    Keyword{"or", TokenKind::kOr, false},
    Keyword{"order", TokenKind::kOrder, false},
    Keyword{"rank", TokenKind::kRank, false},
    Keyword{"right", TokenKind::kRight, false},
    Keyword{"select", TokenKind::kSelect, false},
    Keyword{"top", TokenKind::kTop, false},
    Keyword{"value", TokenKind::kValue, false},
    Keyword{"where", TokenKind::kWhere, false},
    Keyword{"true", TokenKind::kTrue, true},
    Keyword{"false", TokenKind::kFalse, true},
    Keyword{"null", TokenKind::kNull, true},
    Keyword{"undefined", TokenKind::kUndefined, true},
    Keyword{"udf", TokenKind::kUdf, true},
};

bool IsIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentifierPart(char c) { return IsIdentifierStart(c) || IsDigit(c); }
bool IsHexDigit(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int HexValue(char c) {
  if (IsDigit(c)) {
    return c - '0';
  }
  return (c | 0x20) - 'a' + 10;
}

bool EqualsIgnoreAsciiCase(std::string_view a, std::string_view lower) {
  if (a.size() != lower.size()) {
    return false;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
    if (c != lower[i]) {
      return false;
    }
  }
  return true;
}

TokenKind ClassifyWord(std::string_view word) {
  for (const Keyword& keyword : kKeywords) {
    const bool match =
        keyword.lowercase_only ? word == keyword.word : EqualsIgnoreAsciiCase(word, keyword.word);
    if (match) {
      return keyword.kind;
    }
  }
  return TokenKind::kIdentifier;
}

// Operators, longest first so that the first prefix match is the longest one.
struct Operator {
  std::string_view text;
  TokenKind kind;
};
constexpr std::array kOperators = {
    Operator{">>>", TokenKind::kShiftRightZeroFill},
    Operator{"??", TokenKind::kCoalesce},
    Operator{"||", TokenKind::kConcat},
    Operator{"<<", TokenKind::kShiftLeft},
    Operator{">>", TokenKind::kShiftRight},
    Operator{"<=", TokenKind::kLessEqual},
    Operator{">=", TokenKind::kGreaterEqual},
    Operator{"!=", TokenKind::kNotEqual},
    Operator{"<>", TokenKind::kNotEqual},
    Operator{",", TokenKind::kComma},
    Operator{".", TokenKind::kDot},
    Operator{":", TokenKind::kColon},
    Operator{"?", TokenKind::kQuestion},
    Operator{"(", TokenKind::kLeftParen},
    Operator{")", TokenKind::kRightParen},
    Operator{"[", TokenKind::kLeftBracket},
    Operator{"]", TokenKind::kRightBracket},
    Operator{"{", TokenKind::kLeftBrace},
    Operator{"}", TokenKind::kRightBrace},
    Operator{"*", TokenKind::kStar},
    Operator{"/", TokenKind::kSlash},
    Operator{"%", TokenKind::kPercent},
    Operator{"+", TokenKind::kPlus},
    Operator{"-", TokenKind::kMinus},
    Operator{"&", TokenKind::kBitAnd},
    Operator{"|", TokenKind::kBitOr},
    Operator{"^", TokenKind::kBitXor},
    Operator{"~", TokenKind::kBitNot},
    Operator{"=", TokenKind::kEqual},
    Operator{"<", TokenKind::kLess},
    Operator{">", TokenKind::kGreater},
};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> tokens;
    while (true) {
      SkipWhitespaceAndComments();
      if (pos_ >= text_.size()) {
        break;
      }
      Token token;
      ORRERY_RETURN_IF_ERROR(Next(token));
      tokens.push_back(std::move(token));
    }
    Token end;
    end.range = Range(text_.size(), text_.size());
    tokens.push_back(std::move(end));
    return tokens;
  }

 private:
  static SourceRange Range(size_t start, size_t end) {
    return SourceRange{static_cast<uint32_t>(start), static_cast<uint32_t>(end)};
  }

  void SkipWhitespaceAndComments() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        ++pos_;
      } else if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '-') {
        while (pos_ < text_.size() && text_[pos_] != '\n') {
          ++pos_;
        }
      } else {
        return;
      }
    }
  }

  Status Next(Token& token) {
    const size_t start = pos_;
    const char c = text_[pos_];
    if (IsIdentifierStart(c)) {
      LexWord(token);
    } else if (c == '@') {
      ORRERY_RETURN_IF_ERROR(LexParameter(token));
    } else if (IsDigit(c) || (c == '.' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1]))) {
      ORRERY_RETURN_IF_ERROR(LexNumber(token));
    } else if (c == '"' || c == '\'') {
      ORRERY_RETURN_IF_ERROR(LexString(token));
    } else {
      ORRERY_RETURN_IF_ERROR(LexOperator(token));
    }
    token.range = Range(start, pos_);
    token.text = text_.substr(start, pos_ - start);
    return Status::Ok();
  }

  void LexWord(Token& token) {
    const size_t start = pos_;
    while (pos_ < text_.size() && IsIdentifierPart(text_[pos_])) {
      ++pos_;
    }
    const std::string_view word = text_.substr(start, pos_ - start);
    token.kind = ClassifyWord(word);
    if (token.kind == TokenKind::kIdentifier) {
      token.string_value = std::string(word);
    }
  }

  Status LexParameter(Token& token) {
    const size_t start = pos_++;
    if (pos_ >= text_.size() || !IsIdentifierStart(text_[pos_])) {
      return SyntaxErrorNear(text_, Range(start, start + 1));
    }
    while (pos_ < text_.size() && IsIdentifierPart(text_[pos_])) {
      ++pos_;
    }
    token.kind = TokenKind::kParameter;
    token.string_value = std::string(text_.substr(start, pos_ - start));
    return Status::Ok();
  }

  Status LexNumber(Token& token) {
    token.kind = TokenKind::kNumber;
    const size_t start = pos_;
    if (text_[pos_] == '0' && pos_ + 1 < text_.size() && (text_[pos_ + 1] | 0x20) == 'x') {
      return LexHexNumber(token);
    }
    bool integral = true;
    SkipDigits();  // none when the literal starts with '.'
    if (pos_ + 1 < text_.size() && text_[pos_] == '.' && IsDigit(text_[pos_ + 1])) {
      integral = false;
      ++pos_;
      SkipDigits();
    }
    if (pos_ < text_.size() && (text_[pos_] | 0x20) == 'e') {
      size_t exponent = pos_ + 1;
      if (exponent < text_.size() && (text_[exponent] == '+' || text_[exponent] == '-')) {
        ++exponent;
      }
      if (exponent < text_.size() && IsDigit(text_[exponent])) {
        integral = false;
        pos_ = exponent;
        SkipDigits();
      }
    }
    const std::string literal(text_.substr(start, pos_ - start));
    if (integral) {
      errno = 0;
      const long long parsed = std::strtoll(literal.c_str(), nullptr, 10);
      if (errno != ERANGE) {
        token.is_integer = true;
        token.integer_value = parsed;
        token.number_value = static_cast<double>(parsed);
        return Status::Ok();
      }
    }
    // Integers beyond int64 become doubles, as the service's number type does.
    token.number_value = std::strtod(literal.c_str(), nullptr);
    return Status::Ok();
  }

  Status LexHexNumber(Token& token) {
    const size_t start = pos_;
    pos_ += 2;
    if (pos_ >= text_.size() || !IsHexDigit(text_[pos_])) {
      return SyntaxErrorNear(text_, Range(start, pos_));
    }
    double value = 0;
    uint64_t bits = 0;
    bool fits = true;
    while (pos_ < text_.size() && IsHexDigit(text_[pos_])) {
      const int digit = HexValue(text_[pos_++]);
      value = value * 16 + digit;
      if (bits > (std::numeric_limits<uint64_t>::max() >> 4)) {
        fits = false;
      }
      bits = (bits << 4) | static_cast<uint64_t>(digit);
    }
    if (fits && bits <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      token.is_integer = true;
      token.integer_value = static_cast<int64_t>(bits);
    }
    token.number_value = value;
    return Status::Ok();
  }

  void SkipDigits() {
    while (pos_ < text_.size() && IsDigit(text_[pos_])) {
      ++pos_;
    }
  }

  Status LexString(Token& token) {
    token.kind = TokenKind::kString;
    const size_t start = pos_;
    const char quote = text_[pos_++];
    std::string value;
    while (true) {
      if (pos_ >= text_.size()) {
        return SyntaxErrorNear(text_, Range(start, text_.size()));
      }
      const char c = text_[pos_];
      if (c == quote) {
        ++pos_;
        break;
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        return SyntaxErrorNear(text_, Range(start, pos_ + 1));
      }
      if (c != '\\') {
        value.push_back(c);
        ++pos_;
        continue;
      }
      ORRERY_RETURN_IF_ERROR(LexEscape(start, value));
    }
    token.string_value = std::move(value);
    return Status::Ok();
  }

  // At a backslash inside a string that starts at `start`; appends the decoded text.
  Status LexEscape(size_t start, std::string& value) {
    const size_t escape_start = pos_++;
    if (pos_ >= text_.size()) {
      return SyntaxErrorNear(text_, Range(start, text_.size()));
    }
    const char e = text_[pos_++];
    switch (e) {
      case '\'':
      case '"':
      case '\\':
      case '/':
        value.push_back(e);
        return Status::Ok();
      case 'b':
        value.push_back('\b');
        return Status::Ok();
      case 'f':
        value.push_back('\f');
        return Status::Ok();
      case 'n':
        value.push_back('\n');
        return Status::Ok();
      case 'r':
        value.push_back('\r');
        return Status::Ok();
      case 't':
        value.push_back('\t');
        return Status::Ok();
      case 'u':
        break;
      default:
        return SyntaxErrorNear(text_, Range(escape_start, pos_));
    }
    uint32_t unit = 0;
    ORRERY_RETURN_IF_ERROR(ReadHex4(escape_start, unit));
    // A high surrogate followed by an escaped low surrogate is one code point.
    if (unit >= 0xD800 && unit <= 0xDBFF && pos_ + 1 < text_.size() && text_[pos_] == '\\' &&
        text_[pos_ + 1] == 'u') {
      const size_t saved = pos_;
      pos_ += 2;
      uint32_t low = 0;
      ORRERY_RETURN_IF_ERROR(ReadHex4(saved, low));
      if (low >= 0xDC00 && low <= 0xDFFF) {
        AppendUtf8(value, 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
        return Status::Ok();
      }
      pos_ = saved;
    }
    AppendUtf8(value, unit);
    return Status::Ok();
  }

  Status ReadHex4(size_t escape_start, uint32_t& unit) {
    for (int i = 0; i < 4; ++i) {
      if (pos_ >= text_.size() || !IsHexDigit(text_[pos_])) {
        return SyntaxErrorNear(text_, Range(escape_start, std::min(pos_ + 1, text_.size())));
      }
      unit = unit * 16 + static_cast<uint32_t>(HexValue(text_[pos_++]));
    }
    return Status::Ok();
  }

  Status LexOperator(Token& token) {
    const std::string_view rest = text_.substr(pos_);
    for (const Operator& op : kOperators) {
      if (rest.starts_with(op.text)) {
        token.kind = op.kind;
        pos_ += op.text.size();
        return Status::Ok();
      }
    }
    const size_t length = std::min(Utf8SequenceLength(text_[pos_]), rest.size());
    return SyntaxErrorNear(text_, Range(pos_, pos_ + length));
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

Result<std::vector<Token>> Lex(std::string_view text) { return Lexer(text).Run(); }

}  // namespace orrery::query
