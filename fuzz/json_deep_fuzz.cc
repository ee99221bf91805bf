// libFuzzer target for deep and wide JSON bodies: the input bytes are the choices of a
// generator that writes a valid JSON document of arrays and objects nested from a few
// levels to 100,000 (around the service's 128 especially), with wide arrays and objects
// and every scalar type, and knows how deep it is. That depth is the oracle:
//  - json::Parse must accept the document exactly when it is at most 128 levels deep,
//    and what it accepts must write back and parse to the same text;
//  - sent as an item to the API (signed, as a client would), it must be created when
//    it is at most 128 deep and refused with a 400 otherwise, and a refused item must
//    not exist afterwards.
// Crashes, sanitizer reports, leaks and hangs are findings too.
//
// Built with -DORRERY_FUZZ=ON (clang); run with `make fuzz`.

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/stack.h"
#include "fuzz_world.h"
#include "json/json.h"

namespace {

using orrery::http::Request;
using orrery::http::Response;

constexpr size_t kMaxItemDepth = 128;  // json::ParseOptions::max_depth, the service's

// A JSON document and the deepest nesting of arrays and objects in it (a scalar at the
// top is depth 0; `[1]` is 1).
struct Document {
  std::string text;
  size_t depth = 0;
};

class JsonGenerator {
 public:
  explicit JsonGenerator(FuzzedDataProvider& in) : in_(in) {}

  // An object (items must be objects) whose members hold the generated values.
  Document Item(const std::string& id) {
    Document value = Value(4);
    Document item;
    item.text = R"({"id":")" + id + R"(","t":"a","u":"b","v":)" + value.text + "}";
    item.depth = value.depth + 1;
    return item;
  }

 private:
  size_t Levels() {
    switch (in_.ConsumeIntegralInRange(0, 5)) {
      case 0:
        return in_.ConsumeIntegralInRange<size_t>(kMaxItemDepth - 3, kMaxItemDepth + 3);
      case 1:
        return in_.ConsumeIntegralInRange<size_t>(129, 100'000);
      default:
        return in_.ConsumeIntegralInRange<size_t>(0, 20);
    }
  }

  std::string Scalar() {
    switch (in_.ConsumeIntegralInRange(0, 6)) {
      case 0:
        return std::to_string(in_.ConsumeIntegral<int64_t>());
      case 1:
        // Within the range of a double: beyond it the body is refused as a bad number.
        return "1.25e" + std::to_string(in_.ConsumeIntegralInRange(-300, 300));
      case 2:
        return "18446744073709551616";  // beyond 64 bits: read as a double
      case 3:
        return R"("s\u00e9\n\"")";
      case 4:
        return in_.ConsumeBool() ? "true" : "false";
      default:
        return "null";
    }
  }

  // A value built by at most `budget` levels of generator recursion; each level may wrap
  // its value in thousands of levels of nesting, by repetition.
  Document Value(int budget) {
    if (budget <= 0 || in_.ConsumeIntegralInRange(0, 3) == 0) {
      return Document{Scalar(), 0};
    }
    switch (in_.ConsumeIntegralInRange(0, 3)) {
      case 0: {  // nested arrays
        Document inner = Value(budget - 1);
        const size_t n = Levels();
        return Document{std::string(n, '[') + inner.text + std::string(n, ']'), inner.depth + n};
      }
      case 1: {  // nested objects
        Document inner = Value(budget - 1);
        const size_t n = Levels();
        std::string text;
        text.reserve(n * 6 + inner.text.size());
        for (size_t i = 0; i < n; ++i) text += R"({"k":)";
        text += inner.text;
        text.append(n, '}');
        return Document{std::move(text), inner.depth + n};
      }
      case 2: {  // a wide array
        const size_t n = in_.ConsumeIntegralInRange<size_t>(0, 3000);
        Document out{"[", 1};
        for (size_t i = 0; i < n; ++i) {
          Document element = i < 3 ? Value(budget - 1) : Document{Scalar(), 0};
          out.text += (i > 0 ? "," : "") + element.text;
          out.depth = std::max(out.depth, element.depth + 1);
        }
        out.text += "]";
        return out;
      }
      default: {  // a wide object
        const size_t n = in_.ConsumeIntegralInRange<size_t>(0, 3000);
        Document out{"{", 1};
        for (size_t i = 0; i < n; ++i) {
          Document member = i < 3 ? Value(budget - 1) : Document{Scalar(), 0};
          out.text += (i > 0 ? ",\"m" : "\"m") + std::to_string(i) + "\":" + member.text;
          out.depth = std::max(out.depth, member.depth + 1);
        }
        out.text += "}";
        return out;
      }
    }
  }

  FuzzedDataProvider& in_;
};

[[noreturn]] void Finding(const char* what, const Document& document, const std::string& detail) {
  std::fprintf(stderr, "json_deep_fuzz: %s (depth %zu, %zu bytes): %s\n%.300s...\n", what,
               document.depth, document.text.size(), detail.c_str(), document.text.c_str());
  std::abort();
}

void CheckParse(const Document& document) {
  orrery::Result<orrery::json::Value> value = orrery::json::Parse(document.text);
  const bool within = document.depth <= kMaxItemDepth;
  if (value.ok() != within) {
    Finding(within ? "a document within the depth limit was refused"
                   : "a document beyond the depth limit was accepted",
            document, value.ok() ? "" : value.status().ToString());
  }
  if (!value.ok()) return;
  const std::string written = orrery::json::Write(*value);
  orrery::Result<orrery::json::Value> again = orrery::json::Parse(written);
  if (!again.ok() || orrery::json::Write(*again) != written) {
    Finding("the round trip changed the value", document, written.substr(0, 200));
  }
}

Response Send(std::string method, std::string target, std::string body) {
  Request request;
  request.method = std::move(method);
  request.target = std::move(target);
  request.headers.push_back({"x-ms-documentdb-partitionkey", R"(["a","b"])"});
  request.headers.push_back({"content-type", "application/json"});
  request.body = std::move(body);
  orrery::fuzz::Sign(request);
  return orrery::fuzz::TheWorld().service->Handle(request);
}

void CheckItem(const Document& item, const std::string& id) {
  const Response created = Send("POST", "/dbs/db/colls/c/docs", item.text);
  // Within a few KB of 2 MB the system properties decide whether the item fits.
  constexpr size_t kMaxItemBytes = 2 * 1024 * 1024;
  const bool near_size_limit = item.text.size() + 4096 > kMaxItemBytes;
  const bool too_deep = item.depth > kMaxItemDepth;
  bool as_expected;
  if (too_deep) {
    as_expected = created.status == 400 || (near_size_limit && created.status == 413);
  } else if (near_size_limit) {
    as_expected = created.status == 201 || created.status == 413;
  } else {
    as_expected = created.status == 201;
  }
  if (!as_expected) {
    Finding("the item create answered an unexpected status", item,
            std::to_string(created.status) + ": " + created.body.substr(0, 300));
  }
  const bool accepted = created.status == 201;
  const Response read = Send("GET", "/dbs/db/colls/c/docs/" + id, "");
  if (read.status != (accepted ? 200 : 404)) {
    Finding("the item's existence does not match its create", item,
            "read answered " + std::to_string(read.status));
  }
  if (accepted) (void)Send("DELETE", "/dbs/db/colls/c/docs/" + id, "");
}

}  // namespace

extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static uint64_t counter = 0;
  FuzzedDataProvider in(data, size);
  const std::string id = "deep" + std::to_string(++counter);
  const Document item = JsonGenerator(in).Item(id);
  // Request bodies are read on the server's request threads; so are they here.
  orrery::RunWithStack(orrery::kRequestThreadStackBytes, [&] {
    CheckParse(item);
    CheckItem(item, id);
  });
  return 0;
}
