// fullTextPolicy and fullTextIndexes validation (full_text_policy.h), with the service's
// messages as its own SDK tests assert them.

#include "query/full_text_policy.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace orrery::query {
namespace {

json::Value J(std::string_view text) { return json::Parse(text).value(); }

Result<std::shared_ptr<const FullTextPolicy>> ParseBoth(std::string_view policy,
                                                        std::string_view indexes = "null") {
  const json::Value p = J(policy);
  const json::Value i = J(indexes);
  return FullTextPolicy::Parse(&p, &i);
}

TEST(FullTextPolicyTest, PathsInheritTheDefaultLanguage) {
  auto policy = ParseBoth(
      R"({"defaultLanguage": "fr-FR", "fullTextPaths": [{"path": "/a"}, {"path": "/b", "language": ""},
          {"path": "/c/d", "language": "de-de"}]})",
      R"([{"path": "/a"}])");
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  EXPECT_EQ((*policy)->LanguageOf({"a"}), "fr-FR");
  EXPECT_EQ((*policy)->LanguageOf({"b"}), "fr-FR");
  EXPECT_EQ((*policy)->LanguageOf({"c", "d"}), "de-DE");
  EXPECT_EQ((*policy)->indexed_paths(), std::vector<std::string>{"/a"});
  EXPECT_TRUE(ParseBoth(R"({"defaultLanguage": "en-US"})").ok());
}

TEST(FullTextPolicyTest, ErrorsUseTheServiceMessages) {
  EXPECT_EQ(ParseBoth(R"({"fullTextPaths": [{"path": "abstract"}]})").status().message(),
            "The Full Text Policy contains an invalid Path: abstract");
  EXPECT_EQ(ParseBoth(R"({"defaultLanguage": "spa-SPA"})")
                .status()
                .message()
                .find("The Full Text Policy contains an unsupported language spa-SPA. Supported "
                      "languages are:"),
            0u);
  EXPECT_FALSE(ParseBoth(R"({"fullTextPaths": [{"path": "/a", "language": "xx-XX"}]})").ok());
  const std::string policy = R"({"fullTextPaths": [{"path": "/abstract"}]})";
  EXPECT_EQ(ParseBoth(policy, R"([{"path": "/path"}])").status().message(),
            "The path of the Full Text Index /path does not match the path specified in the Full "
            "Text Policy");
  EXPECT_EQ(ParseBoth(policy, R"([{"path": "abstract"}])").status().message(),
            "Full-text index specification at index (0) contains invalid path");
  EXPECT_EQ(ParseBoth(policy, R"([{"not_path": "/abstract"}])").status().message(),
            "Missing path in full-text index specification at index (0)");
}

}  // namespace
}  // namespace orrery::query
