#include "query/full_text_policy.h"

#include <algorithm>

#include "common/encoding.h"
#include "query/vector_policy.h"

namespace orrery::query {
namespace {

Status Invalid(std::string message) { return Status::BadRequest(std::move(message)); }

// The supported spelling of `language`, or nullopt.
std::optional<std::string> SupportedLanguage(std::string_view language) {
  for (std::string_view supported : FullTextPolicy::SupportedLanguages()) {
    if (LowerAscii(supported) == LowerAscii(language)) return std::string(supported);
  }
  return std::nullopt;
}

Status UnsupportedLanguage(std::string_view language) {
  std::string list;
  for (std::string_view supported : FullTextPolicy::SupportedLanguages()) {
    list += (list.empty() ? "" : ", ") + std::string(supported);
  }
  return Invalid("The Full Text Policy contains an unsupported language " + std::string(language) +
                 ". Supported languages are: " + list + ".");
}

}  // namespace

const std::vector<std::string_view>& FullTextPolicy::SupportedLanguages() {
  static const std::vector<std::string_view> kLanguages = {"en-US", "de-DE", "es-ES", "fr-FR",
                                                           "it-IT", "pt-PT", "pt-BR"};
  return kLanguages;
}

Result<std::shared_ptr<const FullTextPolicy>> FullTextPolicy::Parse(const json::Value* policy,
                                                                    const json::Value* indexes) {
  auto out = std::make_shared<FullTextPolicy>();
  if (policy != nullptr && !policy->is_null()) {
    if (!policy->is_object()) return Invalid("One of the specified inputs is invalid");
    if (const json::Value* language = policy->Find("defaultLanguage");
        language != nullptr && !language->is_null()) {
      if (!language->is_string()) return Invalid("One of the specified inputs is invalid");
      std::optional<std::string> supported = SupportedLanguage(language->as_string());
      if (!supported) return UnsupportedLanguage(language->as_string());
      out->default_language_ = *supported;
    }
    const json::Value* paths = policy->Find("fullTextPaths");
    if (paths != nullptr && !paths->is_null()) {
      if (!paths->is_array()) return Invalid("One of the specified inputs is invalid");
      for (const json::Value& entry : paths->as_array()) {
        const json::Value* path = entry.is_object() ? entry.Find("path") : nullptr;
        const std::string text = path != nullptr && path->is_string() ? path->as_string() : "";
        std::optional<std::vector<std::string>> segments = PolicyPathSegments(text);
        if (!segments) return Invalid("The Full Text Policy contains an invalid Path: " + text);
        FullTextPath parsed{text, std::move(*segments), out->default_language_};
        // Go's SDK sends "language": "" for a path without one.
        if (const json::Value* language = entry.Find("language");
            language != nullptr && language->is_string() && !language->as_string().empty()) {
          std::optional<std::string> supported = SupportedLanguage(language->as_string());
          if (!supported) return UnsupportedLanguage(language->as_string());
          parsed.language = *supported;
        }
        for (const FullTextPath& other : out->paths_) {
          if (other.path == parsed.path) {
            return Invalid("The Full Text Policy contains the path " + text + " more than once.");
          }
        }
        out->paths_.push_back(std::move(parsed));
      }
    }
  }
  if (indexes != nullptr && !indexes->is_null()) {
    if (!indexes->is_array()) return Invalid("One of the specified inputs is invalid");
    for (size_t i = 0; i < indexes->as_array().size(); ++i) {
      const json::Value& entry = indexes->as_array()[i];
      const std::string at = "(" + std::to_string(i) + ")";
      const json::Value* path = entry.is_object() ? entry.Find("path") : nullptr;
      if (path == nullptr || path->is_null()) {
        return Invalid("Missing path in full-text index specification at index " + at);
      }
      if (!path->is_string() || !PolicyPathSegments(path->as_string())) {
        return Invalid("Full-text index specification at index " + at + " contains invalid path");
      }
      const std::string& text = path->as_string();
      const bool declared = std::any_of(out->paths_.begin(), out->paths_.end(),
                                        [&](const FullTextPath& p) { return p.path == text; });
      if (!declared) {
        return Invalid("The path of the Full Text Index " + text +
                       " does not match the path specified in the Full Text Policy");
      }
      out->indexed_paths_.push_back(text);
    }
  }
  return std::shared_ptr<const FullTextPolicy>(std::move(out));
}

const std::string& FullTextPolicy::LanguageOf(const std::vector<std::string>& segments) const {
  for (const FullTextPath& p : paths_) {
    if (p.segments == segments) return p.language;
  }
  return default_language_;
}

}  // namespace orrery::query
