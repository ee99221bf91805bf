// FullTextContains, FullTextContainsAll and FullTextContainsAny (functions_full_text.cc).

#include <gtest/gtest.h>

#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::Eval;

constexpr const char* kText = "'The red bicycles were running past a blue car'";

std::string Call(const std::string& function, const std::string& terms) {
  return Eval(function + "(" + kText + ", " + terms + ")");
}

TEST(FullTextFunctionsTest, PhrasesMatchWordsInARowByStem) {
  EXPECT_EQ(Call("FullTextContains", "'red bicycle'"), "[true]");
  EXPECT_EQ(Call("FullTextContains", "'Bicycle'"), "[true]");
  EXPECT_EQ(Call("FullTextContains", "'bicycle red'"), "[false]");
  EXPECT_EQ(Call("FullTextContains", "'red car'"), "[false]");
  EXPECT_EQ(Call("FullTextContains", "'run'"), "[true]");
  EXPECT_EQ(Call("FullTextContains", "'the'"), "[false]");  // a stop word finds nothing
}

TEST(FullTextFunctionsTest, AllAndAny) {
  EXPECT_EQ(Call("FullTextContainsAll", "'red', 'car'"), "[true]");
  EXPECT_EQ(Call("FullTextContainsAll", "'red', 'truck'"), "[false]");
  EXPECT_EQ(Call("FullTextContainsAny", "'truck', 'car'"), "[true]");
  EXPECT_EQ(Call("FullTextContainsAny", "'truck', 'boat'"), "[false]");
}

TEST(FullTextFunctionsTest, FuzzyTermsAcceptWordsWithinTheirDistance) {
  EXPECT_EQ(Call("FullTextContains", "{'term': 'bicycls', 'distance': 1}"), "[true]");
  EXPECT_EQ(Call("FullTextContains", "{'term': 'bcycls', 'distance': 1}"), "[false]");
  EXPECT_EQ(Call("FullTextContains", "{'term': 'bcycls', 'distance': 2}"), "[true]");
  EXPECT_EQ(Call("FullTextContainsAny", "{'term': 'cat', 'distance': 1}, 'boat'"), "[true]");
  // At most 2 edits; a term needs both members.
  EXPECT_EQ(Call("FullTextContains", "{'term': 'car', 'distance': 3}"), "[]");
  EXPECT_EQ(Call("FullTextContains", "{'term': 'car'}"), "[]");
}

TEST(FullTextFunctionsTest, OtherLanguagesThroughTheTwins) {
  EXPECT_EQ(Eval("_FullTextContains('de-DE', 'Die Fahrräder sind rot', 'Fahrrad')"), "[true]");
  EXPECT_EQ(Eval("_FullTextContainsAll('fr-FR', 'Les voitures rouges', 'voiture', 'rouge')"),
            "[true]");
}

TEST(FullTextFunctionsTest, NonStringsGiveUndefined) {
  EXPECT_EQ(Eval("FullTextContains(1, 'a')"), "[]");
  EXPECT_EQ(Eval("FullTextContains('a b', 1)"), "[]");
}

}  // namespace
}  // namespace orrery::query
