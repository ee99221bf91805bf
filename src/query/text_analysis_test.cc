// Text analysis for full-text search (text_analysis.h): words, stop words, and stems
// that join the forms of one word in each policy language.

#include "query/text_analysis.h"

#include <gtest/gtest.h>
#include <libstemmer.h>

#include <memory>

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

// Snowball's own stem of a lower-cased word, asked of libstemmer directly.
std::string SnowballStem(const char* algorithm, const std::string& word) {
  std::unique_ptr<sb_stemmer, void (*)(sb_stemmer*)> stemmer(sb_stemmer_new(algorithm, "UTF_8"),
                                                             sb_stemmer_delete);
  const sb_symbol* stem =
      sb_stemmer_stem(stemmer.get(), reinterpret_cast<const sb_symbol*>(word.data()),
                      static_cast<int>(word.size()));
  return std::string(reinterpret_cast<const char*>(stem),
                     static_cast<size_t>(sb_stemmer_length(stemmer.get())));
}

TEST(TextAnalysisTest, RemembersStemsPerLanguageAndForgetsThemWhenFull) {
  // The same words in two languages whose Snowball stems differ, interleaved and
  // repeated, so that later analyses are answered from what this thread remembers.
  const std::string words[] = {"kinder", "laufen", "houses", "gardens"};
  for (int round = 0; round < 3; ++round) {
    for (const std::string& word : words) {
      EXPECT_EQ(Stem(word, "en-US"), SnowballStem("english", word)) << word;
      EXPECT_EQ(Stem(word, "de-DE"), SnowballStem("german", word)) << word;
    }
  }
  EXPECT_NE(SnowballStem("english", "kinder"), SnowballStem("german", "kinder"));
  // More distinct words than are remembered: each still gets its own stem.
  for (int i = 0; i < 70000; ++i) {
    const std::string word = "w" + std::to_string(i) + "ings";
    if (i % 7000 == 0)
      EXPECT_EQ(Stem(word, "en-US"), SnowballStem("english", word)) << word;
    else
      Stem(word, "en-US");
  }
  EXPECT_EQ(Stem("houses", "en-US"), SnowballStem("english", "houses"));
}

TEST(TextAnalysisTest, DropsExactlyTheEnglishStopWords) {
  // Lucene's classic English stop set, each dropped; longer or shorter words that start
  // like one are kept.
  EXPECT_TRUE(Words("a an and are as at be but by for if in into is it no not of on or such "
                    "that the their then there these they this to was will with")
                  .empty());
  EXPECT_EQ(Words("theses intothe thes wills ab"),
            (std::vector<std::string>{"theses", "intothe", "thes", "wills", "ab"}));
  EXPECT_EQ(Words("THE These"), (std::vector<std::string>{}));
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
