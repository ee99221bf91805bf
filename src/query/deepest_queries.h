#pragma once

// The deepest query of each kind that the limits of limits.h admit, with the result it
// must give over the item {"id":"a","n":7} (computed here: nesting `[1]` n times is n
// brackets around 1). Shared by limits_test.cc, which runs them within a quarter of a
// request thread's stack, and bench/query_stack_bench.cc, which measures how much stack
// each one needs.

#include <string>
#include <string_view>
#include <vector>

namespace orrery::query {

inline std::string RepeatText(std::string_view piece, size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (size_t i = 0; i < times; ++i) {
    out += piece;
  }
  return out;
}

// `open` n times, then `core`, then `close` n times.
inline std::string NestText(std::string_view open, std::string_view core, std::string_view close,
                            size_t n) {
  return RepeatText(open, n) + std::string(core) + RepeatText(close, n);
}

inline constexpr std::string_view kDeepestQueryItems = R"([{"id":"a","n":7}])";

struct DeepestQuery {
  const char* name;
  std::string text;
  std::string expected;  // the result over kDeepestQueryItems, as a JSON array
};

inline std::vector<DeepestQuery> DeepestQueries() {
  return {
      {"parentheses", "SELECT VALUE c.id FROM c WHERE " + NestText("(", "c.n = 7", ")", 2000),
       R"(["a"])"},
      {"calls", "SELECT VALUE " + NestText("ABS(", "-1", ")", 999), "[1]"},
      {"scalar subqueries", "SELECT VALUE " + NestText("(SELECT VALUE ", "1", ")", 999), "[1]"},
      {"EXISTS", "SELECT VALUE " + NestText("EXISTS(SELECT VALUE ", "1", ")", 999), "[true]"},
      {"ARRAY", "SELECT VALUE " + NestText("ARRAY(SELECT VALUE ", "1", ")", 999),
       "[" + NestText("[", "1", "]", 999) + "]"},
      {"FROM subqueries", NestText("SELECT VALUE x FROM (", "SELECT VALUE 1", ") x", 999), "[1]"},
      {"arrays", "SELECT VALUE " + NestText("[", "1", "]", 1000),
       "[" + NestText("[", "1", "]", 1000) + "]"},
      {"objects", "SELECT VALUE " + NestText("{a:", "1", "}", 1000),
       "[" + NestText("{\"a\":", "1", "}", 1000) + "]"},
      {"additions", "SELECT VALUE 0" + RepeatText("+1", 1000), "[1000]"},
      {"negations", "SELECT VALUE " + RepeatText("- ", 999) + "1", "[-1]"},
      {"ternaries", "SELECT VALUE " + RepeatText("false ? 1 : ", 999) + "2", "[2]"},
      {"IN lists", "SELECT VALUE " + NestText("true IN (", "true", ")", 999), "[true]"},
  };
}

}  // namespace orrery::query
