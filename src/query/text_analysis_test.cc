// Text analysis for full-text search (text_analysis.h): words, stop words, and stems
// that join the forms of one word in each policy language.

#include "query/text_analysis.h"

#include <gtest/gtest.h>

namespace orrery::query {
namespace {

std::vector<std::string> Words(std::string_view text, std::string_view language = "en-US") {
  std::vector<std::string> out;
  for (const AnalyzedWord& w : AnalyzeText(text, language)) out.push_back(w.word);
  return out;
}

std::string Stem(std::string_view word, std::string_view language) {
  std::vector<AnalyzedWord> words = AnalyzeText(word, language);
  return words.size() == 1 ? words.front().stem : "<" + std::to_string(words.size()) + " words>";
}

TEST(TextAnalysisTest, SplitsLowerCasesAndDropsEnglishStopWords) {
  EXPECT_EQ(Words("The RED bicycle, and a car-park (2024)!"),
            (std::vector<std::string>{"red", "bicycle", "car", "park", "2024"}));
  // Stop words are English only.
  EXPECT_EQ(Words("the a", "de-DE"), (std::vector<std::string>{"the", "a"}));
  EXPECT_EQ(Words("ÉCOLE Über", "fr-FR"), (std::vector<std::string>{"école", "über"}));
  EXPECT_TRUE(Words("  ,;  ").empty());
}

TEST(TextAnalysisTest, FormsOfOneWordShareAStemInEveryLanguage) {
  // Singular and plural (or inflected) forms, from each language's grammar.
  const struct {
    const char* language;
    const char* a;
    const char* b;
  } kPairs[] = {
      {"en-US", "bicycle", "bicycles"},     {"en-US", "run", "running"},
      {"de-DE", "Fahrrad", "Fahrräder"},    {"es-ES", "bicicleta", "bicicletas"},
      {"fr-FR", "voiture", "voitures"},     {"it-IT", "bicicletta", "biciclette"},
      {"pt-PT", "bicicleta", "bicicletas"}, {"pt-BR", "carro", "carros"},
  };
  for (const auto& pair : kPairs) {
    EXPECT_EQ(Stem(pair.a, pair.language), Stem(pair.b, pair.language))
        << pair.language << ": " << pair.a << " / " << pair.b;
  }
  EXPECT_NE(Stem("bicycle", "en-US"), Stem("car", "en-US"));
}

TEST(TextAnalysisTest, EditDistance) {
  EXPECT_EQ(EditDistance("bicycle", "bicyle", 2), 1);
  EXPECT_EQ(EditDistance("kitten", "sitting", 3), 3);
  EXPECT_EQ(EditDistance("kitten", "sitting", 2), 3);  // stops past the limit
  EXPECT_EQ(EditDistance("a", "abcd", 2), 3);
  EXPECT_EQ(EditDistance("same", "same", 0), 0);
}

}  // namespace
}  // namespace orrery::query
