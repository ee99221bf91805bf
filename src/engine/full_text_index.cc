#include "engine/full_text_index.h"

#include <algorithm>

#include "common/encoding.h"
#include "index/index_key.h"
#include "query/text_analysis.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

// Where a range-index path starts in PathPrefix's output: after the key space, the
// container and the partition.
constexpr size_t kPathStart = 9;

// A range-index path's prefix with `marker` before the path: the full-text spaces.
std::string MarkedPathPrefix(uint32_t container, uint32_t partition,
                             std::span<const std::string> path, char marker) {
  std::string prefix = index::PathPrefix(container, partition, path);
  prefix.insert(kPathStart, 1, marker);
  return prefix;
}

}  // namespace

std::string FullTextPathPrefix(uint32_t container, uint32_t partition,
                               std::span<const std::string> path) {
  return MarkedPathPrefix(container, partition, path, kFullTextMarker);
}

std::string FullTextFrequencyPrefix(uint32_t container, uint32_t partition,
                                    std::span<const std::string> path) {
  return MarkedPathPrefix(container, partition, path, kFullTextFrequencyMarker);
}

index::KeyRange FullTextFrequencyRange(const std::string& frequency_prefix, std::string_view stem) {
  index::KeyRange range{frequency_prefix, {}};
  index::AppendValue(range.begin, json::Value::String(std::string(stem)));
  // A term frequency's first byte is below 0xFF (a text holds far fewer words).
  range.end = range.begin + '\xFF';
  return range;
}

std::optional<FrequencyEntry> ParseFrequencyEntry(std::string_view after_stem) {
  constexpr size_t kCounts = 8;
  if (after_stem.size() < kCounts + 2) return std::nullopt;
  const size_t zero = after_stem.find('\0', kCounts);
  if (zero == std::string_view::npos) return std::nullopt;
  FrequencyEntry entry;
  entry.tf = static_cast<int>(DecodeFixed32BE(after_stem.substr(0, 4)));
  entry.words = static_cast<int>(DecodeFixed32BE(after_stem.substr(4, 4)));
  entry.epk = after_stem.substr(kCounts, zero - kCounts);
  entry.id = after_stem.substr(zero + 1);
  return entry;
}

void AppendFullTextEntryKeys(const index::IndexingPolicy& policy,
                             const query::FullTextPolicy& languages, const json::Value& document,
                             const index::ItemLocation& where, std::vector<std::string>& keys) {
  if (!policy.enabled()) return;
  for (const index::PathSegments& path : policy.full_text_paths()) {
    const json::Value* text = document.FindPath(path);
    if (text == nullptr || !text->is_string()) continue;
    std::vector<std::string> stems;
    for (query::AnalyzedWord& word :
         query::AnalyzeText(text->as_string(), languages.LanguageOf(path))) {
      stems.push_back(std::move(word.stem));
    }
    if (stems.empty()) continue;
    const auto words = static_cast<int64_t>(stems.size());
    std::sort(stems.begin(), stems.end());
    const std::string prefix = FullTextPathPrefix(where.container, where.partition, path);
    const std::string frequency_prefix =
        FullTextFrequencyPrefix(where.container, where.partition, path);
    keys.push_back(index::EntryKey(prefix, json::Value::Int(words), where.epk, where.id));
    for (size_t first = 0; first < stems.size();) {
      size_t end = first + 1;
      while (end < stems.size() && stems[end] == stems[first]) ++end;
      const json::Value stem = json::Value::String(std::move(stems[first]));
      keys.push_back(index::EntryKey(prefix, stem, where.epk, where.id));
      std::string frequency = frequency_prefix;
      index::AppendValue(frequency, stem);
      AppendFixed32BE(frequency, static_cast<uint32_t>(end - first));
      AppendFixed32BE(frequency, static_cast<uint32_t>(words));
      frequency += where.epk;
      frequency += '\0';
      frequency += where.id;
      keys.push_back(std::move(frequency));
      first = end;
    }
  }
}

index::KeyRange FullTextWordCountRange(const std::string& path_prefix) {
  index::KeyRange range;
  range.begin = path_prefix + static_cast<char>(index::ValueTag::kNumber);
  range.end = path_prefix + static_cast<char>(static_cast<uint8_t>(index::ValueTag::kNumber) + 1);
  return range;
}

std::optional<WordCountEntry> ParseWordCountEntry(std::string_view key) {
  if (key.size() <= kPathStart + 1 || key[0] != storage::keys::kIndexSpace ||
      key[kPathStart] != kFullTextMarker) {
    return std::nullopt;
  }
  const std::optional<size_t> end = index::PathEnd(key, kPathStart + 1, /*names_only=*/false);
  if (!end || *end >= key.size() ||
      static_cast<index::ValueTag>(key[*end]) != index::ValueTag::kNumber) {
    return std::nullopt;
  }
  const std::optional<double> words = index::DecodeNumber(key.substr(*end, 9));
  if (!words) return std::nullopt;
  return WordCountEntry{key.substr(kPathStart, *end - kPathStart), static_cast<int64_t>(*words)};
}

std::string_view WordCountPath(std::string_view path_prefix) {
  return path_prefix.substr(kPathStart);
}

std::vector<json::Value> FullTextLookupStems(const query::PathPredicate& predicate,
                                             const query::FullTextPolicy& languages) {
  const std::string& language = languages.LanguageOf(predicate.path);
  std::vector<json::Value> stems;
  std::string longest;
  for (const std::string& term : predicate.terms) {
    const std::vector<query::AnalyzedWord> words = query::AnalyzeText(term, language);
    if (words.empty()) {
      // A term of only stop words matches no text: every match of the others still does.
      if (!predicate.any_term) return {};
      continue;
    }
    if (predicate.any_term) {
      stems.push_back(json::Value::String(words.front().stem));
      continue;
    }
    for (const query::AnalyzedWord& word : words) {
      if (word.stem.size() > longest.size()) longest = word.stem;
    }
  }
  if (!predicate.any_term && !longest.empty()) stems.push_back(json::Value::String(longest));
  return stems;
}

}  // namespace orrery::engine
