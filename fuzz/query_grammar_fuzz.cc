// libFuzzer target for deep and wide queries: the input bytes are not a query but the
// choices of a generator that writes one from the grammar (query-language.md §3), with
// expressions nested, chained and repeated from a few levels up to past every limit of
// query/limits.h, and texts up to and beyond the 512 KB the service accepts. A short
// input can so drive a query of hundreds of kilobytes, which byte-level mutation of
// query texts (query_parser_fuzz) never reaches.
//
// Each query is compiled, evaluated over two documents, finished, and planned as the
// SDKs ask, on a thread whose stack is that of the server's request threads. Besides
// crashes, sanitizer reports, leaks and hangs, these are findings:
//  - a compile error that is not a 400 in the service's shape;
//  - the stack guard answering on a request stack (the limits must decide first);
//  - a query whose text parses but whose fully parenthesized form (ast::ToString, which
//    the query plan's rewritten queries use) does not parse back to the same text.
//
// Built with -DORRERY_FUZZ=ON (clang); run with `make fuzz`.

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/stack.h"
#include "common/status.h"
#include "json/json.h"
#include "query/ast.h"
#include "query/deepest_queries.h"
#include "query/errors.h"
#include "query/limits.h"
#include "query/parser.h"
#include "query/query.h"
#include "query/query_plan.h"

namespace {

using orrery::Result;
using orrery::Status;
using orrery::StatusCode;
using orrery::json::Value;
namespace query = orrery::query;

// The generator's own recursion: a few levels of grammar, each of which may wrap its
// result in thousands of levels of nesting by repetition (never by recursion).
constexpr int kGrammarDepth = 6;

std::string Repeat(std::string_view piece, size_t times) { return query::RepeatText(piece, times); }

class QueryGenerator {
 public:
  explicit QueryGenerator(FuzzedDataProvider& in) : in_(in) {}

  std::string Query() {
    std::string q = "SELECT ";
    if (in_.ConsumeBool()) q += "DISTINCT ";
    if (in_.ConsumeIntegralInRange(0, 3) == 0) q += "TOP " + std::to_string(Count()) + " ";
    switch (in_.ConsumeIntegralInRange(0, 3)) {
      case 0:
        q += "*";
        break;
      case 1:
        q += "VALUE " + Expr(kGrammarDepth);
        break;
      default:
        q += SelectList();
        break;
    }
    q += " FROM c";
    const int joins = in_.ConsumeIntegralInRange(0, 3) == 0 ? Count() % 14 : 0;
    for (int i = 0; i < joins; ++i) {
      q += " JOIN t" + std::to_string(i) + " IN c.tags";
    }
    if (in_.ConsumeBool()) q += " WHERE " + Expr(kGrammarDepth);
    if (in_.ConsumeIntegralInRange(0, 5) == 0) q += " GROUP BY " + Path();
    if (in_.ConsumeIntegralInRange(0, 3) == 0) {
      q += " ORDER BY " + Path() + (in_.ConsumeBool() ? " DESC" : "");
    }
    if (in_.ConsumeIntegralInRange(0, 5) == 0) {
      q += " OFFSET " + std::to_string(Count()) + " LIMIT " + std::to_string(Count());
    }
    return q;
  }

 private:
  // How many levels a nesting or chain gets: small, right around one of the limits,
  // or large (often beyond the text limit).
  size_t Levels() {
    const size_t nesting = query::kMaxNestingDepth;
    const size_t depth = query::kMaxExpressionDepth;
    // Deep cases are rarer than shallow ones: each costs milliseconds under ASan.
    switch (in_.ConsumeIntegralInRange(0, 11)) {
      case 0:
        return in_.ConsumeIntegralInRange<size_t>(nesting - 3, nesting + 3);
      case 1:
        return in_.ConsumeIntegralInRange<size_t>(depth - 3, depth + 3);
      case 2:
        return in_.ConsumeIntegralInRange<size_t>(2'000, 150'000);
      default:
        return in_.ConsumeIntegralInRange<size_t>(0, 40);
    }
  }

  int Count() { return in_.ConsumeIntegralInRange(0, 20); }

  std::string Path() {
    static constexpr const char* kPaths[] = {"c.n",       "c.s",        "c.o.k",
                                             "c.tags[0]", "c.o.a[1].q", "c.children[0].age",
                                             "c.z",       "c.b",        "c[\"id\"]"};
    return kPaths[in_.ConsumeIntegralInRange<size_t>(0, std::size(kPaths) - 1)];
  }

  std::string Literal() {
    switch (in_.ConsumeIntegralInRange(0, 7)) {
      case 0:
        return std::to_string(in_.ConsumeIntegral<int32_t>());
      case 1:
        return "1.5e" + std::to_string(in_.ConsumeIntegralInRange(-320, 320));
      case 2:
        return "'" + Repeat("x", in_.ConsumeIntegralInRange(0, 8)) + "'";
      case 3:
        return in_.ConsumeBool() ? "true" : "false";
      case 4:
        return in_.ConsumeBool() ? "null" : "undefined";
      case 5:
        return "@p";
      case 6:
        return "[1, 'a', null]";
      default:
        return "{a: 1, b: 'x'}";
    }
  }

  std::string SelectList() {
    std::string list;
    const size_t items =
        in_.ConsumeIntegralInRange(0, 4) == 0 ? Afford(Levels(), 24) : 1 + Count() % 3;
    for (size_t i = 0; i <= items; ++i) {
      if (i > 0) list += ", ";
      list += Expr(kGrammarDepth - 1) + " AS a" + std::to_string(i);
    }
    return list;
  }

  std::string Expr(int budget) {
    if (budget <= 0) {
      return in_.ConsumeBool() ? Path() : Literal();
    }
    std::string inner = Expr(budget - 1);
    switch (in_.ConsumeIntegralInRange(0, 13)) {
      case 0:
        return Nested(inner);
      case 1:
        return Chained(inner);
      case 2:
        return "(" + inner + " " + BinaryOperator() + " " + Expr(budget - 1) + ")";
      case 3:
        return Function() + "(" + inner + ")";
      case 4:
        return inner + " IN (" + Expr(budget - 1) + ", " + Literal() + ")";
      case 5:
        return inner + " BETWEEN " + Literal() + " AND " + Literal();
      case 6:
        return "(SELECT VALUE " + inner + " FROM x IN c.tags WHERE " + Expr(budget - 1) + ")";
      case 7:
        return "EXISTS(SELECT VALUE x FROM x IN c.children WHERE " + inner + ")";
      case 8:
        return "ARRAY(SELECT VALUE " + inner + " FROM x IN c.tags)";
      case 9:
        return "(" + inner + " ? " + Expr(budget - 1) + " : " + Literal() + ")";
      case 10:
        return "NOT " + inner;
      case 11:
        return "[" + inner + ", " + Expr(budget - 1) + "]";
      case 12:
        return "{v: " + inner + "}";
      default:
        return inner;
    }
  }

  std::string BinaryOperator() {
    static constexpr const char* kOperators[] = {"AND", "OR", "??", "||", "+",  "-",  "*",
                                                 "/",   "%",  "=",  "!=", "<",  ">=", "&",
                                                 "|",   "^",  "<<", ">>", ">>>"};
    return kOperators[in_.ConsumeIntegralInRange<size_t>(0, std::size(kOperators) - 1)];
  }

  std::string Function() {
    static constexpr const char* kFunctions[] = {
        "ABS",          "LOWER", "IS_DEFINED", "LENGTH",   "TO_STRING",
        "ARRAY_LENGTH", "FLOOR", "IS_NUMBER",  "ToString", "StringToArray"};
    return kFunctions[in_.ConsumeIntegralInRange<size_t>(0, std::size(kFunctions) - 1)];
  }

  // `inner` wrapped in many levels of one nesting construct.
  std::string Nested(const std::string& inner) {
    struct Construct {
      const char* open;
      const char* close;
    };
    static constexpr Construct kConstructs[] = {
        {"(", ")"},
        {"NOT ", ""},
        {"- ", ""},
        {"~", ""},
        {"ABS(", ")"},
        {"[", "]"},
        {"{a:", "}"},
        {"(SELECT VALUE ", ")"},
        {"EXISTS(SELECT VALUE ", ")"},
        {"ARRAY(SELECT VALUE ", ")"},
        {"1 IN (", ")"},
        {"true ? ", " : 0"},
    };
    const size_t choice = in_.ConsumeIntegralInRange<size_t>(0, std::size(kConstructs));
    if (choice == std::size(kConstructs)) {
      const size_t n = Afford(Levels(), 2);
      return "c" + Repeat(".a", n) + " ?? " + inner;
    }
    const Construct& construct = kConstructs[choice];
    const std::string_view open = construct.open;
    const std::string_view close = construct.close;
    const size_t n = Afford(Levels(), open.size() + close.size());
    return Repeat(open, n) + inner + Repeat(close, n);
  }

  // `inner` followed by many operands of one binary operator (left-deep as written).
  std::string Chained(const std::string& inner) {
    const std::string op = BinaryOperator();
    const std::string term = in_.ConsumeBool() ? Literal() : Path();
    const std::string piece = " " + op + " " + term;
    return inner + Repeat(piece, Afford(Levels(), piece.size()));
  }

  // At most `n` repetitions of a piece of `bytes`, within what is left of the query's
  // text budget: a generated query stays under some 700 KB however the choices fall
  // (past the 512 KB limit, but not so far that generating it dominates the run).
  size_t Afford(size_t n, size_t bytes) {
    n = std::min(n, budget_ / std::max<size_t>(bytes, 1));
    budget_ -= n * bytes;
    return n;
  }

  size_t budget_ = 700'000;
  FuzzedDataProvider& in_;
};

constexpr std::string_view kDocuments[] = {
    R"({"id":"1","pk":"a","n":1,"s":"Hello","b":true,"z":null,"tags":["x","y",3],
        "o":{"k":"v","n":-7,"a":[1,{"q":2}]},"children":[{"name":"c1","age":5},{"age":8}]})",
    R"({"id":"2","pk":"b","n":-3,"s":"a%b","b":false,"tags":[],"o":{"k":"w"},
        "children":[]})",
};

[[noreturn]] void Finding(const char* what, const std::string& query, const Status& status) {
  std::fprintf(stderr, "query_grammar_fuzz: %s: %s\nquery (%zu bytes): %.300s...\n", what,
               status.ToString().c_str(), query.size(), query.c_str());
  std::abort();
}

void CheckCompileError(const std::string& text, const Status& status) {
  if (status.code() != StatusCode::kBadRequest) {
    Finding("a compile error that is not a 400", text, status);
  }
  if (status.message().find(query::kStackExhaustedMessage) != std::string::npos) {
    Finding("the stack guard answered on a request stack", text, status);
  }
  if (orrery::json::Parse(status.message()).status().code() != StatusCode::kOk) {
    Finding("a compile error outside the service's errors document", text, status);
  }
}

void Evaluate(const std::string& text, const query::CompiledQuery& compiled) {
  std::vector<query::Row> rows;
  static const std::vector<Value>* documents = [] {
    auto* out = new std::vector<Value>;
    for (std::string_view document : kDocuments) out->push_back(*orrery::json::Parse(document));
    return out;
  }();
  for (const Value& document : *documents) {
    const Status status = compiled.EvaluateDocument(document, rows);
    if (!status.ok()) {
      if (status.message().find(query::kStackExhaustedMessage) != std::string::npos) {
        Finding("the evaluator ran out of stack on a request stack", text, status);
      }
      return;
    }
  }
  Result<std::vector<Value>> result = compiled.Finish(std::move(rows));
  if (result.ok()) {
    for (const Value& value : *result) (void)orrery::json::Write(value);
  }
}

void RoundTrip(const std::string& text) {
  Result<std::unique_ptr<query::ast::Query>> parsed = query::Parse(text);
  if (!parsed.ok()) return;
  const std::string printed = query::ast::ToString(**parsed);
  Result<std::unique_ptr<query::ast::Query>> again = query::Parse(printed);
  if (!again.ok()) Finding("ToString of a parsed query does not parse", printed, again.status());
  if (query::ast::ToString(**again) != printed) {
    Finding("ToString is not stable", printed, Status::Ok());
  }
}

void RunOne(const std::string& text) {
  const std::vector<query::Parameter> parameters = {{"@p", Value::Int(2)}};
  Result<std::unique_ptr<query::CompiledQuery>> compiled = query::Compile(text, parameters);
  if (!compiled.ok()) {
    CheckCompileError(text, compiled.status());
    return;
  }
  Evaluate(text, **compiled);
  Result<Value> plan = query::BuildQueryPlan(text, parameters);
  if (!plan.ok()) CheckCompileError(text, plan.status());
  RoundTrip(text);
}

}  // namespace

extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const std::string text = QueryGenerator(in).Query();
  // Queries run on the server's request threads; so do they here.
  orrery::RunWithStack(orrery::kRequestThreadStackBytes, [&] { RunOne(text); });
  return 0;
}
