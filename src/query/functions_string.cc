// String built-ins (query-language.md §5.4). Lengths and positions count UTF-16 code
// units, as the SDKs do (§1). Any non-string argument where a string is expected, and
// a non-boolean ignoreCase, gives undefined.

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "json/json.h"
#include "query/functions_internal.h"
#include "query/unicode.h"

namespace orrery::query::functions_internal {
namespace {

using json::Value;

Value Bool(bool b) { return Value::Bool(b); }

// The optional ignoreCase argument at `index`: false when absent, nullopt when it is
// present but not a boolean (the call is then undefined).
std::optional<bool> IgnoreCase(Args a, size_t index) {
  if (a.size() <= index) {
    return false;
  }
  if (!a[index]->is_bool()) {
    return std::nullopt;
  }
  return a[index]->as_bool();
}

// Applies `test(haystack, needle)` to two strings, folding case when asked.
template <typename Test>
Value StringTest(Args a, Test test) {
  const std::optional<bool> ignore_case = IgnoreCase(a, 2);
  if (!a[0]->is_string() || !a[1]->is_string() || !ignore_case) {
    return Value();
  }
  if (*ignore_case) {
    return Bool(test(ToLower(a[0]->as_string()), ToLower(a[1]->as_string())));
  }
  return Bool(test(std::string_view(a[0]->as_string()), std::string_view(a[1]->as_string())));
}

bool ContainsText(std::string_view s, std::string_view t) {
  return s.find(t) != std::string_view::npos;
}

Value Contains(Args a) { return StringTest(a, ContainsText); }
Value StartsWith(Args a) {
  return StringTest(a, [](std::string_view s, std::string_view t) { return s.starts_with(t); });
}
Value EndsWith(Args a) {
  return StringTest(a, [](std::string_view s, std::string_view t) { return s.ends_with(t); });
}
Value StringEquals(Args a) {
  return StringTest(a, [](std::string_view s, std::string_view t) { return s == t; });
}

// CONTAINS_ALL_*/CONTAINS_ANY_*(s, t1, t2, ...): every argument must be a string.
template <bool kAll, bool kIgnoreCase>
Value ContainsTerms(Args a) {
  for (const Value* arg : a) {
    if (!arg->is_string()) {
      return Value();
    }
  }
  const std::string s = kIgnoreCase ? ToLower(a[0]->as_string()) : a[0]->as_string();
  for (size_t i = 1; i < a.size(); ++i) {
    const bool found = kIgnoreCase ? ContainsText(s, ToLower(a[i]->as_string()))
                                   : ContainsText(s, a[i]->as_string());
    if (found != kAll) {
      return Bool(found);
    }
  }
  return Bool(kAll);
}

Value Length(Args a) {
  if (!a[0]->is_string()) {
    return Value();
  }
  return Value::Int(static_cast<int64_t>(Utf16Length(a[0]->as_string())));
}

Value Lower(Args a) {
  return a[0]->is_string() ? Value::String(ToLower(a[0]->as_string())) : Value();
}
Value Upper(Args a) {
  return a[0]->is_string() ? Value::String(ToUpper(a[0]->as_string())) : Value();
}

Value Concat(Args a) {
  std::string out;
  for (const Value* arg : a) {
    if (!arg->is_string()) {
      return Value();
    }
    out += arg->as_string();
  }
  return Value::String(std::move(out));
}

// SUBSTRING(s, start, length): out-of-range start and length are clamped, so
// SUBSTRING(s, 0, -1) is "" (query-language.md §5.4).
Value Substring(Args a) {
  if (!a[0]->is_string() || !a[1]->is_number() || !a[2]->is_number()) {
    return Value();
  }
  const std::u16string s = ToUtf16(a[0]->as_string());
  const auto size = static_cast<int64_t>(s.size());
  const int64_t start = std::clamp<int64_t>(ToCount(*a[1]), 0, size);
  const int64_t length = std::clamp<int64_t>(ToCount(*a[2]), 0, size - start);
  return Value::String(FromUtf16(std::u16string_view(s).substr(start, length)));
}

// LEFT(s, n) / RIGHT(s, n): n is truncated and clamped to [0, LENGTH(s)].
template <bool kLeft>
Value Side(Args a) {
  if (!a[0]->is_string() || !a[1]->is_number()) {
    return Value();
  }
  const std::u16string s = ToUtf16(a[0]->as_string());
  const auto n = static_cast<size_t>(std::clamp<int64_t>(ToCount(*a[1]), 0, s.size()));
  const std::u16string_view view(s);
  return Value::String(FromUtf16(kLeft ? view.substr(0, n) : view.substr(s.size() - n)));
}

// INDEX_OF(s, sub [, start]): the first UTF-16 position at or after start, or -1. A
// negative start counts as 0 and a start past the end finds nothing (not documented).
Value IndexOf(Args a) {
  if (!a[0]->is_string() || !a[1]->is_string() || (a.size() > 2 && !a[2]->is_number())) {
    return Value();
  }
  const std::u16string s = ToUtf16(a[0]->as_string());
  const std::u16string sub = ToUtf16(a[1]->as_string());
  const int64_t start = a.size() > 2 ? std::max<int64_t>(ToCount(*a[2]), 0) : 0;
  if (start > static_cast<int64_t>(s.size())) {
    return Value::Int(-1);
  }
  const size_t found = s.find(sub, static_cast<size_t>(start));
  return Value::Int(found == std::u16string::npos ? -1 : static_cast<int64_t>(found));
}

// LASTINDEXOF(s, sub [, start]): the last UTF-16 position at or after start, or -1.
Value LastIndexOf(Args a) {
  if (!a[0]->is_string() || !a[1]->is_string() || (a.size() > 2 && !a[2]->is_number())) {
    return Value();
  }
  const std::u16string s = ToUtf16(a[0]->as_string());
  const std::u16string sub = ToUtf16(a[1]->as_string());
  const int64_t start = a.size() > 2 ? std::max<int64_t>(ToCount(*a[2]), 0) : 0;
  const size_t found = s.rfind(sub);
  if (found == std::u16string::npos || static_cast<int64_t>(found) < start) {
    return Value::Int(-1);
  }
  return Value::Int(static_cast<int64_t>(found));
}

// Unicode White_Space, what .NET's Trim removes by default.
bool IsWhiteSpace(uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

// LTRIM/RTRIM/TRIM(s [, chars]): removes white space, or any of the code points of
// `chars`, from the start and/or the end.
template <bool kStart, bool kEnd>
Value Trim(Args a) {
  if (!a[0]->is_string() || (a.size() > 1 && !a[1]->is_string())) {
    return Value();
  }
  std::u32string set;
  if (a.size() > 1) {
    const std::string& chars = a[1]->as_string();
    for (size_t pos = 0; pos < chars.size();) {
      set.push_back(DecodeUtf8(chars, pos));
    }
  }
  const auto trimmed = [&](uint32_t c) {
    return a.size() > 1 ? set.find(static_cast<char32_t>(c)) != std::u32string::npos
                        : IsWhiteSpace(c);
  };
  const std::string& s = a[0]->as_string();
  size_t begin = 0;
  size_t end = s.size();
  if (kStart) {
    while (begin < end) {
      size_t next = begin;
      if (!trimmed(DecodeUtf8(s, next))) {
        break;
      }
      begin = next;
    }
  }
  if (kEnd) {
    while (end > begin) {
      size_t lead = end - 1;
      while (lead > begin && (static_cast<uint8_t>(s[lead]) & 0xC0) == 0x80) {
        --lead;
      }
      size_t next = lead;
      if (!trimmed(DecodeUtf8(s, next))) {
        break;
      }
      end = lead;
    }
  }
  return Value::String(s.substr(begin, end - begin));
}

// REPLACE(s, find, repl): every non-overlapping occurrence, left to right. An empty
// `find` leaves s unchanged.
Value Replace(Args a) {
  if (!a[0]->is_string() || !a[1]->is_string() || !a[2]->is_string()) {
    return Value();
  }
  const std::string& s = a[0]->as_string();
  const std::string& find = a[1]->as_string();
  if (find.empty()) {
    return *a[0];
  }
  std::string out;
  size_t pos = 0;
  for (size_t found; (found = s.find(find, pos)) != std::string::npos; pos = found + find.size()) {
    out.append(s, pos, found - pos);
    out += a[2]->as_string();
  }
  out.append(s, pos);
  return Value::String(std::move(out));
}

// REPLICATE(s, n): n truncated; a negative n, or a result over 10,000 characters
// (UTF-16 code units), gives undefined.
Value Replicate(Args a) {
  constexpr int64_t kMaxResultLength = 10000;
  if (!a[0]->is_string() || !a[1]->is_number()) {
    return Value();
  }
  const int64_t n = ToCount(*a[1]);
  const auto length = static_cast<int64_t>(Utf16Length(a[0]->as_string()));
  if (n < 0 || (length > 0 && n > kMaxResultLength / length)) {
    return Value();
  }
  std::string out;
  out.reserve(a[0]->as_string().size() * static_cast<size_t>(length > 0 ? n : 0));
  for (int64_t i = 0; i < n && length > 0; ++i) {
    out += a[0]->as_string();
  }
  return Value::String(std::move(out));
}

// REVERSE reverses code points, so a surrogate pair stays a valid character.
Value Reverse(Args a) {
  if (!a[0]->is_string()) {
    return Value();
  }
  const std::string& s = a[0]->as_string();
  std::u32string code_points;
  for (size_t pos = 0; pos < s.size();) {
    code_points.push_back(DecodeUtf8(s, pos));
  }
  std::string out;
  out.reserve(s.size());
  for (auto it = code_points.rbegin(); it != code_points.rend(); ++it) {
    AppendUtf8(out, *it);
  }
  return Value::String(std::move(out));
}

// ToString: numbers in JavaScript form (NaN and Infinity by name), arrays and objects
// as compact JSON, strings unchanged.
Value ToStringFunction(Args a) {
  const Value& v = *a[0];
  switch (v.type()) {
    case json::Type::kUndefined:
      return Value();
    case json::Type::kString:
      return v;
    case json::Type::kNumber: {
      if (v.is_integer()) {
        return Value::String(std::to_string(v.as_int()));
      }
      const double d = v.as_double();
      if (std::isnan(d)) {
        return Value::String("NaN");
      }
      if (std::isinf(d)) {
        return Value::String(d > 0 ? "Infinity" : "-Infinity");
      }
      std::string out;
      json::AppendNumber(out, d);
      return Value::String(std::move(out));
    }
    default:
      return Value::String(json::Write(v));
  }
}

// ---- StringTo*: strict JSON of the named type, surrounding white space allowed ----

std::optional<Value> ParseJson(const Value& v) {
  if (!v.is_string()) {
    return std::nullopt;
  }
  Result<Value> parsed = json::Parse(v.as_string());
  if (!parsed.ok()) {
    return std::nullopt;
  }
  return std::move(parsed).value();
}

template <json::Type kType>
Value StringTo(Args a) {
  std::optional<Value> parsed = ParseJson(*a[0]);
  if (!parsed || parsed->type() != kType) {
    return Value();
  }
  return std::move(*parsed);
}

// ---- REGEXMATCH ----

// Compiled PCRE2 patterns are kept per thread: a query evaluates the same pattern
// once per document, and compiling dominates matching for short strings.
struct CompiledRegex {
  std::unique_ptr<pcre2_code, decltype(&pcre2_code_free)> code{nullptr, pcre2_code_free};
  std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> match{nullptr,
                                                                            pcre2_match_data_free};
};

// Bounds the work one REGEXMATCH call may do, so a pathological pattern over a
// 2 MB string ends (as no match) instead of running for minutes.
constexpr uint32_t kRegexMatchLimit = 10'000'000;
constexpr size_t kRegexCacheSize = 64;

const CompiledRegex* CompileRegex(const std::string& pattern, uint32_t options) {
  thread_local std::unordered_map<std::string, CompiledRegex> cache;
  std::string key = pattern;
  key.append(reinterpret_cast<const char*>(&options), sizeof options);
  if (auto it = cache.find(key); it != cache.end()) {
    return it->second.code ? &it->second : nullptr;
  }
  if (cache.size() >= kRegexCacheSize) {
    cache.clear();
  }
  CompiledRegex compiled;
  int error = 0;
  PCRE2_SIZE offset = 0;
  compiled.code.reset(pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                    options, &error, &offset, nullptr));
  if (compiled.code) {
    compiled.match.reset(pcre2_match_data_create_from_pattern(compiled.code.get(), nullptr));
  }
  auto [it, inserted] = cache.emplace(std::move(key), std::move(compiled));
  return it->second.code ? &it->second : nullptr;
}

// REGEXMATCH(s, pattern [, modifiers]): an unanchored PCRE search over UTF-8.
// Modifiers are any of m, s, i, x; anything else, an invalid pattern, or a match
// that exceeds the work limit gives undefined.
Value RegexMatch(Args a) {
  if (!a[0]->is_string() || !a[1]->is_string() || (a.size() > 2 && !a[2]->is_string())) {
    return Value();
  }
  uint32_t options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
  if (a.size() > 2) {
    for (char m : a[2]->as_string()) {
      switch (m) {
        case 'm':
          options |= PCRE2_MULTILINE;
          break;
        case 's':
          options |= PCRE2_DOTALL;
          break;
        case 'i':
          options |= PCRE2_CASELESS;
          break;
        case 'x':
          options |= PCRE2_EXTENDED;
          break;
        default:
          return Value();
      }
    }
  }
  const CompiledRegex* regex = CompileRegex(a[1]->as_string(), options);
  if (regex == nullptr) {
    return Value();
  }
  thread_local std::unique_ptr<pcre2_match_context, decltype(&pcre2_match_context_free)> context{
      [] {
        pcre2_match_context* c = pcre2_match_context_create(nullptr);
        pcre2_set_match_limit(c, kRegexMatchLimit);
        return c;
      }(),
      pcre2_match_context_free};
  const std::string& subject = a[0]->as_string();
  const int rc = pcre2_match(regex->code.get(), reinterpret_cast<PCRE2_SPTR>(subject.data()),
                             subject.size(), 0, 0, regex->match.get(), context.get());
  if (rc >= 0) {
    return Bool(true);
  }
  if (rc == PCRE2_ERROR_NOMATCH) {
    return Bool(false);
  }
  return Value();
}

// ---- StringJoin / StringSplit ----

// StringJoin(arr, sep): every element must be a string.
Value StringJoin(Args a) {
  if (!a[0]->is_array() || !a[1]->is_string()) {
    return Value();
  }
  std::string out;
  bool first = true;
  for (const Value& element : a[0]->as_array()) {
    if (!element.is_string()) {
      return Value();
    }
    if (!first) {
      out += a[1]->as_string();
    }
    first = false;
    out += element.as_string();
  }
  return Value::String(std::move(out));
}

// StringSplit(s, sep): an empty separator gives [s], as .NET's String.Split does.
Value StringSplit(Args a) {
  if (!a[0]->is_string() || !a[1]->is_string()) {
    return Value();
  }
  const std::string& s = a[0]->as_string();
  const std::string& sep = a[1]->as_string();
  json::Array parts;
  if (sep.empty()) {
    parts.push_back(*a[0]);
    return Value::MakeArray(std::move(parts));
  }
  size_t pos = 0;
  for (size_t found; (found = s.find(sep, pos)) != std::string::npos; pos = found + sep.size()) {
    parts.push_back(Value::String(s.substr(pos, found - pos)));
  }
  parts.push_back(Value::String(s.substr(pos)));
  return Value::MakeArray(std::move(parts));
}

constexpr int kVariadic = FunctionInfo::kVariadic;
constexpr AggregateKind kScalar = AggregateKind::kNone;

constexpr std::array kFunctions = {
    FunctionInfo{"CONCAT", 2, kVariadic, Concat, kScalar},
    FunctionInfo{"CONTAINS", 2, 3, Contains, kScalar},
    FunctionInfo{"CONTAINS_ALL_CI", 2, kVariadic, ContainsTerms<true, true>, kScalar},
    FunctionInfo{"CONTAINS_ALL_CS", 2, kVariadic, ContainsTerms<true, false>, kScalar},
    FunctionInfo{"CONTAINS_ANY_CI", 2, kVariadic, ContainsTerms<false, true>, kScalar},
    FunctionInfo{"CONTAINS_ANY_CS", 2, kVariadic, ContainsTerms<false, false>, kScalar},
    FunctionInfo{"ENDSWITH", 2, 3, EndsWith, kScalar},
    FunctionInfo{"INDEX_OF", 2, 3, IndexOf, kScalar},
    FunctionInfo{"LASTINDEXOF", 2, 3, LastIndexOf, kScalar},
    FunctionInfo{"LEFT", 2, 2, Side<true>, kScalar},
    FunctionInfo{"LENGTH", 1, 1, Length, kScalar},
    FunctionInfo{"LOWER", 1, 1, Lower, kScalar},
    FunctionInfo{"LTRIM", 1, 2, Trim<true, false>, kScalar},
    FunctionInfo{"REGEXMATCH", 2, 3, RegexMatch, kScalar},
    FunctionInfo{"REPLACE", 3, 3, Replace, kScalar},
    FunctionInfo{"REPLICATE", 2, 2, Replicate, kScalar},
    FunctionInfo{"REVERSE", 1, 1, Reverse, kScalar},
    FunctionInfo{"RIGHT", 2, 2, Side<false>, kScalar},
    FunctionInfo{"RTRIM", 1, 2, Trim<false, true>, kScalar},
    FunctionInfo{"STARTSWITH", 2, 3, StartsWith, kScalar},
    FunctionInfo{"STRINGEQUALS", 2, 3, StringEquals, kScalar},
    FunctionInfo{"StringJoin", 2, 2, StringJoin, kScalar},
    FunctionInfo{"StringSplit", 2, 2, StringSplit, kScalar},
    FunctionInfo{"StringToArray", 1, 1, StringTo<json::Type::kArray>, kScalar},
    FunctionInfo{"StringToBoolean", 1, 1, StringTo<json::Type::kBool>, kScalar},
    FunctionInfo{"StringToNull", 1, 1, StringTo<json::Type::kNull>, kScalar},
    FunctionInfo{"StringToNumber", 1, 1, StringTo<json::Type::kNumber>, kScalar},
    FunctionInfo{"StringToObject", 1, 1, StringTo<json::Type::kObject>, kScalar},
    FunctionInfo{"SUBSTRING", 3, 3, Substring, kScalar},
    FunctionInfo{"ToString", 1, 1, ToStringFunction, kScalar},
    FunctionInfo{"TRIM", 1, 2, Trim<true, true>, kScalar},
    FunctionInfo{"UPPER", 1, 1, Upper, kScalar},
};

}  // namespace

std::span<const FunctionInfo> StringFunctions() { return kFunctions; }

}  // namespace orrery::query::functions_internal
