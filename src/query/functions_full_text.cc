// FullTextContains, FullTextContainsAll and FullTextContainsAny (docs/research/
// vector-fulltext-protocol.md §4.2): whether a text holds a phrase (its words in a row,
// compared by stem, text_analysis.h), all of several, or any of them; a term may be
// {"term": "...", "distance": d} to accept words within d edits (at most 2). The
// functions read en-US text; full_text_references.h turns a call on a path of another
// language into its "_"-named twin, which takes the language first.

#include <array>
#include <optional>

#include "query/functions_internal.h"
#include "query/text_analysis.h"

namespace orrery::query::functions_internal {
namespace {

using json::Value;

constexpr int kMaxFuzzyDistance = 2;
constexpr std::string_view kDefaultLanguage = "en-US";

struct Term {
  std::vector<AnalyzedWord> words;
  int distance = 0;
};

std::optional<Term> TermOf(const Value& v, std::string_view language) {
  Term term;
  const Value* text = &v;
  if (v.is_object()) {
    text = v.Find("term");
    const Value* distance = v.Find("distance");
    if (text == nullptr || distance == nullptr) return std::nullopt;
    std::optional<int64_t> d = AsInt64(*distance);
    if (!d || *d < 0 || *d > kMaxFuzzyDistance) return std::nullopt;
    term.distance = static_cast<int>(*d);
  }
  if (text == nullptr || !text->is_string()) return std::nullopt;
  term.words = AnalyzeText(text->as_string(), language);
  return term;
}

bool WordMatches(const AnalyzedWord& text, const AnalyzedWord& term, int distance) {
  if (text.stem == term.stem) return true;
  return distance > 0 && EditDistance(text.word, term.word, distance) <= distance;
}

bool Contains(const std::vector<AnalyzedWord>& text, const Term& term) {
  if (term.words.empty() || term.words.size() > text.size()) return false;
  for (size_t start = 0; start + term.words.size() <= text.size(); ++start) {
    size_t k = 0;
    while (k < term.words.size() && WordMatches(text[start + k], term.words[k], term.distance)) ++k;
    if (k == term.words.size()) return true;
  }
  return false;
}

enum class Mode { kOne, kAll, kAny };

// args: the text, then the terms.
Value Match(Args a, std::string_view language, Mode mode) {
  if (!a[0]->is_string()) return Value();
  const std::vector<AnalyzedWord> text = AnalyzeText(a[0]->as_string(), language);
  bool all = true;
  bool any = false;
  for (size_t i = 1; i < a.size(); ++i) {
    std::optional<Term> term = TermOf(*a[i], language);
    if (!term) return Value();
    const bool found = Contains(text, *term);
    all = all && found;
    any = any || found;
  }
  return Value::Bool(mode == Mode::kAny ? any : all);
}

// The "_" twins: the language, then the arguments of the public function.
Value MatchIn(Args a, Mode mode) {
  if (!a[0]->is_string()) return Value();
  return Match(a.subspan(1), a[0]->as_string(), mode);
}

Value FullTextContains(Args a) { return Match(a, kDefaultLanguage, Mode::kOne); }
Value FullTextContainsAll(Args a) { return Match(a, kDefaultLanguage, Mode::kAll); }
Value FullTextContainsAny(Args a) { return Match(a, kDefaultLanguage, Mode::kAny); }
Value FullTextContainsIn(Args a) { return MatchIn(a, Mode::kOne); }
Value FullTextContainsAllIn(Args a) { return MatchIn(a, Mode::kAll); }
Value FullTextContainsAnyIn(Args a) { return MatchIn(a, Mode::kAny); }

constexpr AggregateKind kScalar = AggregateKind::kNone;
constexpr int kVariadic = FunctionInfo::kVariadic;

constexpr std::array kFunctions = {
    FunctionInfo{"FullTextContains", 2, 2, FullTextContains, kScalar},
    FunctionInfo{"FullTextContainsAll", 2, kVariadic, FullTextContainsAll, kScalar},
    FunctionInfo{"FullTextContainsAny", 2, kVariadic, FullTextContainsAny, kScalar},
    FunctionInfo{"_FullTextContains", 3, 3, FullTextContainsIn, kScalar},
    FunctionInfo{"_FullTextContainsAll", 3, kVariadic, FullTextContainsAllIn, kScalar},
    FunctionInfo{"_FullTextContainsAny", 3, kVariadic, FullTextContainsAnyIn, kScalar},
};

}  // namespace

std::span<const FunctionInfo> FullTextFunctions() { return kFunctions; }

}  // namespace orrery::query::functions_internal
