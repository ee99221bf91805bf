#pragma once

// Helpers shared by the query tests: run a query over items given as JSON text and
// render the result as one JSON array, so expectations read like the service's output.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.h"
#include "query/query.h"

namespace orrery::query::testing {

inline json::Value J(std::string_view text) {
  Result<json::Value> value = json::Parse(text);
  EXPECT_TRUE(value.ok()) << text << ": " << value.status().ToString();
  return value.ok() ? std::move(value).value() : json::Value();
}

inline std::vector<Parameter> Params(std::string_view object_text) {
  std::vector<Parameter> params;
  json::Value object = J(object_text);
  for (auto& [name, value] : object.as_object()) {
    params.push_back(Parameter{name, value});
  }
  return params;
}

inline std::string WriteArray(const std::vector<json::Value>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) {
      out += ',';
    }
    json::AppendTo(out, values[i]);
  }
  return out + "]";
}

struct QueryRun {
  Status status;
  std::vector<json::Value> values;
  std::string text() const { return status.ok() ? WriteArray(values) : status.ToString(); }
};

// Compiles `query`, evaluates it over each item of the JSON array `items` (once over
// nothing when the query has no FROM), and finishes.
inline QueryRun RunQuery(std::string_view query, std::string_view items = "[]",
                         std::vector<Parameter> params = {}) {
  QueryRun run;
  auto compiled = Compile(query, std::move(params));
  if (!compiled.ok()) {
    run.status = compiled.status();
    return run;
  }
  std::vector<Row> rows;
  if ((*compiled)->reads_items()) {
    const json::Value all = J(items);
    for (const json::Value& item : all.as_array()) {
      run.status = (*compiled)->EvaluateDocument(item, rows);
      if (!run.status.ok()) {
        return run;
      }
    }
  } else {
    run.status = (*compiled)->EvaluateDocument(json::Value(), rows);
    if (!run.status.ok()) {
      return run;
    }
  }
  auto finished = (*compiled)->Finish(std::move(rows));
  if (!finished.ok()) {
    run.status = finished.status();
    return run;
  }
  run.values = std::move(finished).value();
  return run;
}

// The result as a JSON array, or the error as text.
inline std::string Execute(std::string_view query, std::string_view items = "[]",
                           std::vector<Parameter> params = {}) {
  return RunQuery(query, items, std::move(params)).text();
}

// The result with its rows sorted by their JSON text, for queries without ORDER BY.
inline std::string RunSorted(std::string_view query, std::string_view items = "[]") {
  QueryRun run = RunQuery(query, items);
  if (!run.status.ok()) {
    return run.text();
  }
  std::vector<std::string> texts;
  for (const json::Value& v : run.values) {
    texts.push_back(json::Write(v));
  }
  std::sort(texts.begin(), texts.end());
  std::string out = "[";
  for (size_t i = 0; i < texts.size(); ++i) {
    out += (i > 0 ? "," : "") + texts[i];
  }
  return out + "]";
}

// `SELECT VALUE <expr>` without FROM, as JSON text; "[]" means undefined.
inline std::string Eval(std::string_view expr, std::vector<Parameter> params = {}) {
  return Execute("SELECT VALUE " + std::string(expr), "[]", std::move(params));
}

// The parsed error document of a failed compile: {"errors":[...]}; undefined if the
// query compiled.
inline json::Value CompileError(std::string_view query, std::vector<Parameter> params = {}) {
  auto compiled = Compile(query, std::move(params));
  if (compiled.ok()) {
    ADD_FAILURE() << "expected an error for: " << query;
    return json::Value();
  }
  EXPECT_EQ(compiled.status().code(), StatusCode::kBadRequest);
  return J(compiled.status().message());
}

// "CODE start-end: message" of the first error, for compact assertions.
inline std::string ErrorSummary(std::string_view query, std::vector<Parameter> params = {}) {
  json::Value doc = CompileError(query, std::move(params));
  if (!doc.is_object()) {
    return "";
  }
  const json::Value& error = doc.Find("errors")->as_array().front();
  const json::Value& location = *error.Find("location");
  return error.Find("code")->as_string() + " " + std::to_string(location.Find("start")->as_int()) +
         "-" + std::to_string(location.Find("end")->as_int()) + ": " +
         error.Find("message")->as_string();
}

}  // namespace orrery::query::testing
