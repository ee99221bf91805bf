#include "json/member_scan.h"

#include <charconv>
#include <cstring>

#include "json/json.h"

namespace orrery::json {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

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
    while (true) {
      const void* quote = std::memchr(text_.data() + pos_, '"', text_.size() - pos_);
      if (quote == nullptr) return false;
      size_t end = static_cast<const char*>(quote) - text_.data();
      size_t backslashes = 0;
      while (end - backslashes > pos_ && text_[end - backslashes - 1] == '\\') ++backslashes;
      pos_ = end + 1;
      if (backslashes % 2 == 0) return true;
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

// The few members a query reads: a linear check, lengths first, beats a binary search.
bool IsWanted(const std::vector<std::string>& wanted, std::string_view name) {
  for (const std::string& w : wanted) {
    if (w.size() == name.size() && std::memcmp(w.data(), name.data(), name.size()) == 0) {
      return true;
    }
  }
  return false;
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
  if (scanner.Consume('}')) return Value::MakeObject(std::move(object));
  do {
    std::optional<std::string_view> name = scanner.MemberName();
    if (!name || !scanner.Consume(':')) return std::nullopt;
    scanner.SkipSpace();
    const size_t start = scanner.pos();
    if (!scanner.SkipValue()) return std::nullopt;
    if (IsWanted(wanted, *name)) {
      Result<Value> value = ParseMemberValue(text.substr(start, scanner.pos() - start));
      if (!value.ok()) return std::nullopt;
      object.emplace_back(std::string(*name), std::move(*value));
    }
  } while (scanner.Consume(','));
  if (!scanner.Consume('}')) return std::nullopt;
  return Value::MakeObject(std::move(object));
}

}  // namespace orrery::json
