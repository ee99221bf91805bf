#pragma once

// UTF-8 helpers for the query language. String functions count UTF-16 code units, as
// the SDKs do (query-language.md §1), so positions and lengths go through UTF-16.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace orrery::query {

// Appends `code_point` as UTF-8; surrogates and values past U+10FFFF become U+FFFD.
void AppendUtf8(std::string& out, uint32_t code_point);

// Length of the UTF-8 sequence a lead byte announces (1 for invalid lead bytes).
size_t Utf8SequenceLength(char lead);

// Decodes the code point at `pos` and advances `pos`; invalid bytes give U+FFFD and
// advance by one.
uint32_t DecodeUtf8(std::string_view s, size_t& pos);

std::u16string ToUtf16(std::string_view s);
// Unpaired surrogates become U+FFFD.
std::string FromUtf16(std::u16string_view s);
size_t Utf16Length(std::string_view s);

// Simple (one-to-one) case mapping for ASCII, Latin-1, Latin Extended-A, Greek and
// Cyrillic; other characters are unchanged.
std::string ToLower(std::string_view s);
std::string ToUpper(std::string_view s);

}  // namespace orrery::query
