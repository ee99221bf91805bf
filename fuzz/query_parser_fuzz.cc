// libFuzzer target for the query language: the input bytes are a query text, compiled
// (lexer, parser, binder) with a few fixed parameters and, when it compiles, evaluated
// over two small fixed documents and finished (evaluator, built-ins, ORDER BY, GROUP BY,
// DISTINCT, OFFSET/LIMIT). The query plan the SDKs ask for is built from the same text.
// Errors are expected; crashes, sanitizer reports, leaks and hangs are bugs.
//
// Built with -DORRERY_FUZZ=ON (clang); run with `make fuzz`.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "json/json.h"
#include "json/value.h"
#include "query/query.h"
#include "query/query_plan.h"

namespace {

using orrery::Result;
using orrery::json::Value;
using orrery::query::CompiledQuery;
using orrery::query::Parameter;
using orrery::query::Row;

// Longer inputs add little coverage and slow every iteration down.
constexpr size_t kMaxInputBytes = 4096;

// Documents with every JSON type, nesting, duplicated-looking values for GROUP BY and
// DISTINCT, and short arrays (JOIN multiplies their lengths).
constexpr std::string_view kDocuments[] = {
    R"({"id":"1","pk":"a","n":1,"d":2.5,"s":"Hello, World","b":true,"z":null,
        "tags":["x","y",3],"o":{"k":"v","n":-7,"a":[1,{"q":2}]},
        "children":[{"name":"c1","age":5},{"name":"c2","age":8}],
        "u":"\u00e9\u20ac\ud83d\ude00","t":"2024-01-02T03:04:05.1234567Z"})",
    R"({"id":"2","pk":"b","n":-3,"d":1e300,"s":"a%b_c","b":false,"tags":[],
        "o":{"k":"w","n":0},"children":[{"name":"c3"}],"t":"not a date",
        "p":{"type":"Point","coordinates":[-122.1,47.6]}})",
};

Value ParseOrDie(std::string_view text) {
  Result<Value> value = orrery::json::Parse(text);
  if (!value.ok()) {
    std::fprintf(stderr, "query_parser_fuzz: bad fixed JSON: %s\n",
                 value.status().ToString().c_str());
    std::abort();
  }
  return std::move(value).value();
}

const std::vector<Value>& Documents() {
  static const auto* documents = [] {
    auto* out = new std::vector<Value>;
    for (std::string_view text : kDocuments) {
      out->push_back(ParseOrDie(text));
    }
    return out;
  }();
  return *documents;
}

std::vector<Parameter> Parameters() {
  return {
      Parameter{"@p", Value::Int(2)},
      Parameter{"@d", Value::Double(-0.5)},
      Parameter{"@s", Value::String("x")},
      Parameter{"@a", ParseOrDie(R"([1,"y",null,[2]])")},
      Parameter{"@o", ParseOrDie(R"({"k":"v","n":1})")},
  };
}

void Run(const CompiledQuery& query) {
  std::vector<Row> rows;
  if (query.reads_items()) {
    for (const Value& document : Documents()) {
      if (!query.EvaluateDocument(document, rows).ok()) {
        return;
      }
    }
  } else if (!query.EvaluateDocument(Value(), rows).ok()) {
    return;
  }
  (void)query.needs_full_result();
  (void)query.top();
  Result<std::vector<Value>> result = query.Finish(std::move(rows));
  if (result.ok()) {
    // Writing exercises the number and string formatting of whatever came out.
    for (const Value& value : *result) {
      (void)orrery::json::Write(value);
    }
  }
}

}  // namespace

// UBSan reports are findings: stop at the first one, with a stack (UBSAN_OPTIONS can
// still override this when the target is run by hand).
extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxInputBytes) {
    return -1;  // not added to the corpus
  }
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<Parameter> parameters = Parameters();

  Result<std::unique_ptr<CompiledQuery>> compiled = orrery::query::Compile(text, parameters);
  if (compiled.ok()) {
    Run(**compiled);
  }
  (void)orrery::query::BuildQueryPlan(text, parameters);
  return 0;
}
