#pragma once

// A container's fullTextPolicy and the fullTextIndexes of its indexing policy, as the
// service validates them (docs/research/vector-fulltext-protocol.md §5): the language
// of each full-text path decides how FullTextContains and FullTextScore tokenize and
// stem its text.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "json/value.h"

namespace orrery::query {

struct FullTextPath {
  std::string path;                   // "/text"
  std::vector<std::string> segments;  // {"text"}
  std::string language;               // "en-US", the policy's default when not given
};

class FullTextPolicy {
 public:
  // The languages the service accepts (en-US, and the multi-language preview's).
  static const std::vector<std::string_view>& SupportedLanguages();

  // Validates `policy` (fullTextPolicy, may be null) and `indexes`
  // (indexingPolicy.fullTextIndexes, may be null). Errors: BadRequest with the service's
  // message.
  static Result<std::shared_ptr<const FullTextPolicy>> Parse(const json::Value* policy,
                                                             const json::Value* indexes);

  const std::string& default_language() const { return default_language_; }
  const std::vector<FullTextPath>& paths() const { return paths_; }
  const std::vector<std::string>& indexed_paths() const { return indexed_paths_; }
  // The language of the item path `segments`: its own, or the default.
  const std::string& LanguageOf(const std::vector<std::string>& segments) const;

 private:
  std::string default_language_ = "en-US";
  std::vector<FullTextPath> paths_;
  std::vector<std::string> indexed_paths_;
};

}  // namespace orrery::query
