#include "query/text_analysis.h"

#include <libstemmer.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <unordered_map>

namespace orrery::query {
namespace {

// The Snowball algorithm of each policy language.
const char* AlgorithmOf(std::string_view language) {
  const std::string_view prefix = language.substr(0, 2);
  if (prefix == "de") return "german";
  if (prefix == "es") return "spanish";
  if (prefix == "fr") return "french";
  if (prefix == "it") return "italian";
  if (prefix == "pt") return "portuguese";
  return "english";
}

struct StemmerDeleter {
  void operator()(sb_stemmer* s) const { sb_stemmer_delete(s); }
};

// A stemmer keeps state between calls: one per thread and algorithm.
sb_stemmer* StemmerFor(const char* algorithm) {
  thread_local std::map<std::string_view, std::unique_ptr<sb_stemmer, StemmerDeleter>> stemmers;
  auto& slot = stemmers[algorithm];
  if (!slot) slot.reset(sb_stemmer_new(algorithm, "UTF_8"));
  return slot.get();
}

// The English stop words of the service's en-US analyzer are not published; these are
// Lucene's classic English set, sorted for a binary search (a hash set's lookup was 7% of
// ranking a common word by FullTextScore, most of it hashing words far longer than any
// of these).
constexpr std::array<std::string_view, 33> kEnglishStopWords = {
    "a",   "an",    "and",  "are",   "as",    "at",   "be",   "but", "by",  "for",  "if",
    "in",  "into",  "is",   "it",    "no",    "not",  "of",   "on",  "or",  "such", "that",
    "the", "their", "then", "there", "these", "they", "this", "to",  "was", "will", "with"};
static_assert(std::is_sorted(kEnglishStopWords.begin(), kEnglishStopWords.end()));
constexpr size_t kLongestStopWord = [] {
  size_t longest = 0;
  for (std::string_view word : kEnglishStopWords) longest = std::max(longest, word.size());
  return longest;
}();

bool IsEnglishStopWord(std::string_view word) {
  return word.size() <= kLongestStopWord &&
         std::binary_search(kEnglishStopWords.begin(), kEnglishStopWords.end(), word);
}

// ASCII letters and digits as the C locale's isalnum sees them (the server never sets
// another), and every byte of a non-ASCII character.
bool IsWordByte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

// Lower-cases ASCII and the Latin-1 capitals (UTF-8 C3 80..C3 9E but for ×).
void AppendLower(std::string& out, std::string_view word) {
  for (size_t i = 0; i < word.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(word[i]);
    if (c == 0xC3 && i + 1 < word.size()) {
      const unsigned char d = static_cast<unsigned char>(word[i + 1]);
      out += static_cast<char>(c);
      out += static_cast<char>(d >= 0x80 && d <= 0x9E && d != 0x97 ? d + 0x20 : d);
      ++i;
      continue;
    }
    out += static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
  }
}

// Snowball's stem of a lower-cased word, remembered per thread: texts repeat their words,
// and stemming was 14% of ranking a common word by FullTextScore over 100,000 texts,
// where a look-up here costs a hash of the word. Bounded: forgotten whole when full.
const std::string& StemOf(const char* algorithm, sb_stemmer* stemmer, const std::string& word) {
  // About 1.5 MB a thread at most; a text's common words stay well within it.
  constexpr size_t kMaxRemembered = 1 << 14;
  thread_local std::map<const char*, std::unordered_map<std::string, std::string>> by_algorithm;
  std::unordered_map<std::string, std::string>& remembered = by_algorithm[algorithm];
  if (remembered.size() >= kMaxRemembered) remembered.clear();
  auto [it, added] = remembered.try_emplace(word);
  if (added) {
    const sb_symbol* stem = sb_stemmer_stem(
        stemmer, reinterpret_cast<const sb_symbol*>(word.data()), static_cast<int>(word.size()));
    it->second = stem != nullptr ? std::string(reinterpret_cast<const char*>(stem),
                                               static_cast<size_t>(sb_stemmer_length(stemmer)))
                                 : word;
  }
  return it->second;
}

}  // namespace

std::vector<AnalyzedWord> AnalyzeText(std::string_view text, std::string_view language) {
  std::vector<AnalyzedWord> out;
  const char* algorithm = AlgorithmOf(language);
  const bool english = std::string_view(algorithm) == "english";
  sb_stemmer* stemmer = StemmerFor(algorithm);
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !IsWordByte(static_cast<unsigned char>(text[i]))) ++i;
    const size_t start = i;
    while (i < text.size() && IsWordByte(static_cast<unsigned char>(text[i]))) ++i;
    if (start == i) break;
    AnalyzedWord word;
    AppendLower(word.word, text.substr(start, i - start));
    if (english && IsEnglishStopWord(word.word)) continue;
    word.stem = stemmer != nullptr ? StemOf(algorithm, stemmer, word.word) : word.word;
    out.push_back(std::move(word));
  }
  return out;
}

const std::vector<AnalyzedWord>& AnalyzeDocumentText(std::string_view text,
                                                     std::string_view language) {
  thread_local std::string last_text;
  thread_local std::string last_language;
  thread_local std::vector<AnalyzedWord> last_words;
  if (text != last_text || language != last_language) {
    last_words = AnalyzeText(text, language);
    last_text.assign(text);
    last_language.assign(language);
  }
  return last_words;
}

int EditDistance(std::string_view a, std::string_view b, int limit) {
  const int length_gap = static_cast<int>(a.size()) - static_cast<int>(b.size());
  if (std::abs(length_gap) > limit) return limit + 1;
  std::vector<int> previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = static_cast<int>(i);
    int best = current[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      const int substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
      best = std::min(best, current[j]);
    }
    if (best > limit) return limit + 1;
    std::swap(previous, current);
  }
  return std::min(previous[b.size()], limit + 1);
}

}  // namespace orrery::query
