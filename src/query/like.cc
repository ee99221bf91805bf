#include "query/like.h"

#include <utility>
#include <vector>

#include "query/unicode.h"

namespace orrery::query {
namespace {

struct Element {
  enum class Kind { kLiteral, kAny, kRun, kSet };
  Kind kind = Kind::kLiteral;
  char32_t literal = 0;
  bool negated = false;                               // kSet
  std::vector<std::pair<char32_t, char32_t>> ranges;  // kSet, inclusive
};

std::u32string Decode(std::string_view s) {
  std::u32string out;
  size_t pos = 0;
  while (pos < s.size()) {
    out.push_back(DecodeUtf8(s, pos));
  }
  return out;
}

// Parses a bracket expression starting after '['; returns false when there is no
// closing ']' (the '[' is then a literal).
bool ParseSet(const std::u32string& p, size_t& i, Element& set) {
  size_t j = i;
  set.kind = Element::Kind::kSet;
  if (j < p.size() && p[j] == U'^') {
    set.negated = true;
    ++j;
  }
  const size_t first = j;
  while (j < p.size() && (p[j] != U']' || j == first)) {
    const char32_t lo = p[j];
    if (j + 2 < p.size() && p[j + 1] == U'-' && p[j + 2] != U']') {
      set.ranges.emplace_back(lo, p[j + 2]);
      j += 3;
    } else {
      set.ranges.emplace_back(lo, lo);
      ++j;
    }
  }
  if (j >= p.size()) {
    return false;
  }
  i = j + 1;
  return true;
}

std::vector<Element> Compile(const std::u32string& p, std::optional<char32_t> escape) {
  std::vector<Element> elements;
  size_t i = 0;
  while (i < p.size()) {
    const char32_t c = p[i++];
    Element e;
    if (escape && c == *escape && i < p.size()) {
      e.literal = p[i++];
    } else if (c == U'%') {
      e.kind = Element::Kind::kRun;
    } else if (c == U'_') {
      e.kind = Element::Kind::kAny;
    } else if (c == U'[') {
      size_t j = i;
      Element set;
      if (ParseSet(p, j, set)) {
        i = j;
        e = std::move(set);
      } else {
        e.literal = c;
      }
    } else {
      e.literal = c;
    }
    elements.push_back(std::move(e));
  }
  return elements;
}

bool MatchesOne(const Element& e, char32_t c) {
  switch (e.kind) {
    case Element::Kind::kLiteral:
      return e.literal == c;
    case Element::Kind::kAny:
      return true;
    case Element::Kind::kRun:
      return false;
    case Element::Kind::kSet: {
      bool in = false;
      for (const auto& [lo, hi] : e.ranges) {
        if (c >= lo && c <= hi) {
          in = true;
          break;
        }
      }
      return in != e.negated;
    }
  }
  return false;
}

}  // namespace

bool LikeMatches(std::string_view text, std::string_view pattern, std::optional<char32_t> escape) {
  const std::u32string s = Decode(text);
  const std::vector<Element> p = Compile(Decode(pattern), escape);
  // Greedy wildcard matching with backtracking to the last '%': linear in practice,
  // O(|s|·|p|) at worst.
  size_t si = 0;
  size_t pi = 0;
  size_t star = p.size();
  size_t star_si = 0;
  while (si < s.size()) {
    if (pi < p.size() && p[pi].kind == Element::Kind::kRun) {
      star = pi++;
      star_si = si;
    } else if (pi < p.size() && MatchesOne(p[pi], s[si])) {
      ++pi;
      ++si;
    } else if (star != p.size()) {
      pi = star + 1;
      si = ++star_si;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi].kind == Element::Kind::kRun) {
    ++pi;
  }
  return pi == p.size();
}

}  // namespace orrery::query
