#include "query/errors.h"

#include <algorithm>
#include <string>

#include "json/json.h"

namespace orrery::query {

uint32_t CharacterOffset(std::string_view text, uint32_t byte_offset) {
  uint32_t units = 0;
  const size_t end = std::min<size_t>(byte_offset, text.size());
  for (size_t i = 0; i < end; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte & 0xC0) == 0x80) {
      continue;  // continuation byte
    }
    // A four-byte sequence is a code point above U+FFFF: two UTF-16 code units.
    units += (byte >= 0xF0) ? 2 : 1;
  }
  return units;
}

Status QueryError(std::string_view text, SourceRange range, std::string_view code,
                  std::string_view message) {
  std::string out = R"({"errors":[{"severity":"Error","location":{"start":)";
  out += std::to_string(CharacterOffset(text, range.start));
  out += R"(,"end":)";
  out += std::to_string(CharacterOffset(text, range.end));
  out += R"(},"code":)";
  json::AppendQuoted(out, code);
  out += R"(,"message":)";
  json::AppendQuoted(out, message);
  out += "}]}";
  return Status::BadRequest(std::move(out));
}

Status SyntaxErrorNear(std::string_view text, SourceRange range) {
  std::string message = "Syntax error, incorrect syntax near '";
  message += text.substr(range.start, range.end - range.start);
  message += "'.";
  return QueryError(text, range, kSyntaxError, message);
}

Status UnexpectedEndOfInput(std::string_view text) {
  const auto end = static_cast<uint32_t>(text.size());
  return QueryError(text, SourceRange{end, end}, kUnexpectedEnd,
                    "Syntax error, unexpected end-of-file.");
}

}  // namespace orrery::query
