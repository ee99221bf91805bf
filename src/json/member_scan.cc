#include "json/member_scan.h"

#include <charconv>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cstring>

#include "json/json.h"

namespace orrery::json {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// The first '"' in [p, end), or nullptr. Sixteen bytes at a time where SSE2 is there
// (every x86-64): most strings end within the first chunk, and long ones go fast.
const char* FindQuote(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  while (end - p >= 16) {
    const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(chunk, quote));
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (p < end && *p != '"') ++p;
  return p < end ? p : nullptr;
}

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool at_end() const { return pos_ >= text_.size(); }
  size_t pos() const { return pos_; }
  char peek() const { return text_[pos_]; }

  void SkipSpace() {
    while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
  }

  bool Consume(char c) {
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  // After the opening quote: moves past the closing one. False if there is none.
  bool SkipStringBody() {
    const char* const begin = text_.data();
    const char* const end = begin + text_.size();
    const char* p = begin + pos_;
    while (true) {
      p = FindQuote(p, end);
      if (p == nullptr) return false;
      // An escaped quote has an odd number of backslashes before it.
      size_t backslashes = 0;
      while (p - backslashes > begin + pos_ &&
             p[-1 - static_cast<ptrdiff_t>(backslashes)] == '\\') {
        ++backslashes;
      }
      if (backslashes % 2 == 0) {
        pos_ = static_cast<size_t>(p - begin) + 1;
        return true;
      }
      ++p;
    }
  }

  // A member name without escapes (nullopt otherwise: the full parser decodes those).
  std::optional<std::string_view> MemberName() {
    if (!Consume('"')) return std::nullopt;
    const size_t start = pos_;
    if (!SkipStringBody()) return std::nullopt;
    std::string_view name = text_.substr(start, pos_ - 1 - start);
    if (name.find('\\') != std::string_view::npos) return std::nullopt;
    return name;
  }

  // Moves past one value; false when it does not end.
  bool SkipValue() {
    SkipSpace();
    if (at_end()) return false;
    const char c = text_[pos_];
    if (c == '"') {
      ++pos_;
      return SkipStringBody();
    }
    if (c == '{' || c == '[') {
      int depth = 0;
      while (pos_ < text_.size()) {
        const char d = text_[pos_++];
        if (d == '"') {
          if (!SkipStringBody()) return false;
        } else if (d == '{' || d == '[') {
          ++depth;
        } else if (d == '}' || d == ']') {
          if (--depth == 0) return true;
        }
      }
      return false;
    }
    // A number, true, false or null: up to the next delimiter.
    while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '}' &&
           !IsSpace(text_[pos_])) {
      ++pos_;
    }
    return true;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// The position of `name` in `wanted`, or -1. The few members a query reads: a linear
// check, lengths first, beats a binary search.
int WantedIndex(const std::vector<std::string>& wanted, std::string_view name) {
  for (size_t i = 0; i < wanted.size(); ++i) {
    const std::string& w = wanted[i];
    if (w.size() == name.size() && std::memcmp(w.data(), name.data(), name.size()) == 0) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

// The common scalars directly; anything else (escapes, fractions, exponents, integers
// beyond 64 bits, arrays, objects) through the full parser.
Result<Value> ParseMemberValue(std::string_view text) {
  if (text.size() >= 2 && text.front() == '"' && text.find('\\') == std::string_view::npos) {
    return Value::String(std::string(text.substr(1, text.size() - 2)));
  }
  if (text == "true") return Value::Bool(true);
  if (text == "false") return Value::Bool(false);
  if (text == "null") return Value::Null();
  if (!text.empty() && (text.front() == '-' || (text.front() >= '0' && text.front() <= '9')) &&
      text.find_first_of(".eE") == std::string_view::npos && text.size() < 19) {
    // At most 18 digits: always within int64.
    int64_t n = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (error == std::errc() && end == text.data() + text.size() &&
        !(text.size() > 1 && text[text.front() == '-' ? 1 : 0] == '0')) {
      return Value::Int(n);
    }
  }
  return Parse(text);
}

}  // namespace

std::optional<Value> ParseTopLevelMembers(std::string_view text,
                                          const std::vector<std::string>& wanted) {
  Scanner scanner(text);
  if (!scanner.Consume('{')) return std::nullopt;
  Object object;
  object.reserve(wanted.size());
  if (scanner.Consume('}')) return Value::MakeObject(std::move(object));
  // Once every wanted member has been seen the rest is skipped unread: lookups find
  // the first of duplicate names, so later ones would never be used.
  const bool can_stop = wanted.size() <= 64;
  const uint64_t all_found =
      wanted.size() == 64 ? ~uint64_t{0} : (uint64_t{1} << wanted.size()) - 1;
  uint64_t found = 0;
  do {
    std::optional<std::string_view> name = scanner.MemberName();
    if (!name || !scanner.Consume(':')) return std::nullopt;
    scanner.SkipSpace();
    const size_t start = scanner.pos();
    if (!scanner.SkipValue()) return std::nullopt;
    const int index = WantedIndex(wanted, *name);
    if (index >= 0) {
      Result<Value> value = ParseMemberValue(text.substr(start, scanner.pos() - start));
      if (!value.ok()) return std::nullopt;
      object.emplace_back(std::string(*name), std::move(*value));
      if (can_stop && index < 64) {
        found |= uint64_t{1} << index;
        if (found == all_found) return Value::MakeObject(std::move(object));
      }
    }
  } while (scanner.Consume(','));
  if (!scanner.Consume('}')) return std::nullopt;
  return Value::MakeObject(std::move(object));
}

}  // namespace orrery::json
