// FullTextContains, FullTextContainsAll and FullTextContainsAny (docs/research/
// vector-fulltext-protocol.md §4.2): whether a text holds a phrase (its words in a row,
// compared by stem, text_analysis.h), all of several, or any of them; a term may be
// {"term": "...", "distance": d} to accept words within d edits (at most 2). The
// functions read en-US text; full_text_references.h turns a call on a path of another
// language into its "_"-named twin, which takes the language first.

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "query/bm25.h"
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
  const std::vector<AnalyzedWord>& text = AnalyzeDocumentText(a[0]->as_string(), language);
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

// How often the words of `term` stand in a row in `text`.
int Occurrences(const std::vector<AnalyzedWord>& text, const std::vector<AnalyzedWord>& term) {
  if (term.empty() || term.size() > text.size()) return 0;
  int count = 0;
  for (size_t start = 0; start + term.size() <= text.size(); ++start) {
    size_t k = 0;
    while (k < term.size() && text[start + k].stem == term[k].stem) ++k;
    if (k == term.size()) ++count;
  }
  return count;
}

std::string_view LanguageArg(Args a, size_t at) {
  return a.size() > at && a[at]->is_string() ? std::string_view(a[at]->as_string())
                                             : kDefaultLanguage;
}

// _FullTextScore(text, [terms], documents, words, [documents holding each term]
// [, language]): the BM25 score of `text` among the container's documents.
Value FullTextScoreWith(Args a) {
  if (!a[0]->is_string() || !a[1]->is_array() || !a[2]->is_number() || !a[3]->is_number() ||
      !a[4]->is_array()) {
    return Value();
  }
  const std::string_view language = LanguageArg(a, 5);
  const std::vector<AnalyzedWord>& text = AnalyzeDocumentText(a[0]->as_string(), language);
  const double documents = a[2]->as_double();
  const double length_norm =
      bm25::LengthNorm(static_cast<double>(text.size()), documents, a[3]->as_double());
  double score = 0;
  const json::Array& terms = a[1]->as_array();
  const json::Array& hits = a[4]->as_array();
  for (size_t j = 0; j < terms.size(); ++j) {
    if (!terms[j].is_string()) continue;
    const int tf = Occurrences(text, AnalyzeText(terms[j].as_string(), language));
    if (tf == 0) continue;
    const double df = j < hits.size() && hits[j].is_number() ? hits[j].as_double() : 1;
    score += bm25::TermScore(bm25::Idf(documents, df), tf, length_norm);
  }
  return Value::Double(score);
}

// _FullTextWordCount(text [, language]): the words BM25 counts (0 for no text).
Value FullTextWordCount(Args a) {
  if (!a[0]->is_string()) return Value::Int(0);
  return Value::Int(
      static_cast<int64_t>(AnalyzeDocumentText(a[0]->as_string(), LanguageArg(a, 1)).size()));
}

// _FullTextHit(text, term [, language]): 1 when the text holds the term, else 0.
Value FullTextHit(Args a) {
  if (!a[0]->is_string() || !a[1]->is_string()) return Value::Int(0);
  const std::string_view language = LanguageArg(a, 2);
  const std::vector<AnalyzedWord> term = AnalyzeText(a[1]->as_string(), language);
  const int found = Occurrences(AnalyzeDocumentText(a[0]->as_string(), language), term);
  return Value::Int(found > 0 ? 1 : 0);
}

// FullTextScore and RRF have a value only once the ranking resolves them (rank_plan.h).
Value Unresolved(Args) { return Value(); }

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
    FunctionInfo{"FullTextScore", 2, kVariadic, Unresolved, kScalar},
    FunctionInfo{"RRF", 1, kVariadic, Unresolved, kScalar},
    FunctionInfo{"_FullTextScore", 5, 6, FullTextScoreWith, kScalar},
    FunctionInfo{"_FullTextWordCount", 1, 2, FullTextWordCount, kScalar},
    FunctionInfo{"_FullTextHit", 2, 3, FullTextHit, kScalar},
};

}  // namespace

std::span<const FunctionInfo> FullTextFunctions() { return kFunctions; }

}  // namespace orrery::query::functions_internal
