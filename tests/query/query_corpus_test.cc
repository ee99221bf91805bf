// Runs the data-driven query corpus (tests/query/<feature>/*.test, format in
// shared/docs/style.md "Data-driven query tests") against a real in-memory
// engine::Account. Every case is its own test, named after its file and line, and runs
// in several configurations: 1 and 4 physical partitions (plus `partitions=N` from the
// container directive), each read in pages of 1000 and of 3 items (or only the case's
// `max-items=N`), pages concatenated through continuation tokens, and once more with
// the range index switched off (full scans). All must give the expected answer.
// `indexing <policy JSON>` right after `container` sets the container's indexing
// policy; the container option `geometry` makes its geospatialConfig type "Geometry". Files ending
// in .test_pending (functions not implemented yet) and .test_slow are not run here.
//
// Comparison: JSON structural equality (numbers by value, object members in any
// order); `rowsort` compares as multisets. A result row that is an object carrying
// the system properties (`_rid`...) is compared without them when the expected row
// has no `_rid`, so `SELECT *` cases need not spell out generated values.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/account.h"
#include "engine/partition/partition_key.h"
#include "json/json.h"
#include "query/query.h"

namespace orrery {
namespace {

namespace fs = std::filesystem;

struct ContainerSpec {
  std::string name;
  std::vector<std::string> paths;
  int partitions = 0;           // 0: only the default configurations
  bool geometry = false;        // geospatialConfig type "Geometry"
  std::string indexing_policy;  // JSON; empty: the default policy
  std::vector<std::string> items;
};

struct Case {
  std::string file;  // relative to tests/query
  int line = 0;
  std::shared_ptr<const ContainerSpec> container;  // snapshot at the case
  std::string query;
  bool rowsort = false;
  std::optional<std::string> partition;  // JSON value or array
  std::string params;                    // JSON object or empty
  int max_items = 0;                     // 0: the default page sizes
  bool is_error = false;
  int error_status = 0;
  std::optional<int> error_substatus;
  std::string error_pattern;
  std::vector<std::string> expected;
  std::optional<std::string> skip_reason;
};

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) {
    return "";
  }
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

bool IsDirective(const std::string& line) {
  for (const char* d : {"container", "indexing", "insert", "query", "error", "skip", "require"}) {
    std::string_view dv(d);
    if (StartsWith(line, dv) && (line.size() == dv.size() || line[dv.size()] == ' ')) {
      return true;
    }
  }
  return false;
}

// Splits directive options; values may be JSON with spaces inside brackets or strings.
std::vector<std::string> SplitOptions(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') {
      ++i;
    }
    if (i >= s.size()) {
      break;
    }
    std::string token;
    int depth = 0;
    bool in_string = false;
    for (; i < s.size(); ++i) {
      char ch = s[i];
      if (in_string) {
        token += ch;
        if (ch == '\\' && i + 1 < s.size()) {
          token += s[++i];
        } else if (ch == '"') {
          in_string = false;
        }
        continue;
      }
      if (ch == ' ' && depth == 0) {
        break;
      }
      if (ch == '"') {
        in_string = true;
      }
      if (ch == '[' || ch == '{') {
        ++depth;
      }
      if (ch == ']' || ch == '}') {
        --depth;
      }
      token += ch;
    }
    out.push_back(std::move(token));
  }
  return out;
}

class FileParser {
 public:
  FileParser(std::string file, std::vector<std::string> lines)
      : file_(std::move(file)), lines_(std::move(lines)) {}

  // Appends the file's cases; returns an error message for a malformed file.
  std::optional<std::string> Parse(std::vector<Case>& out) {
    std::optional<std::string> pending_skip;
    while (pos_ < lines_.size()) {
      std::string line = Trim(lines_[pos_]);
      if (line.empty() || line[0] == '#') {
        ++pos_;
        continue;
      }
      int line_no = static_cast<int>(pos_) + 1;
      if (StartsWith(line, "container ")) {
        auto spec = std::make_shared<ContainerSpec>();
        std::vector<std::string> words = SplitOptions(line.substr(10));
        if (words.size() < 2) {
          return Error(line_no, "container <name> <pk path>");
        }
        spec->name = words[0];
        std::stringstream paths(words[1]);
        for (std::string p; std::getline(paths, p, ',');) {
          spec->paths.push_back(p);
        }
        for (size_t i = 2; i < words.size(); ++i) {
          if (words[i] == "geometry") {
            spec->geometry = true;
          } else if (StartsWith(words[i], "partitions=")) {
            spec->partitions = std::stoi(words[i].substr(11));
          } else {
            return Error(line_no, "unknown option");
          }
        }
        container_ = spec;
        ++pos_;
      } else if (StartsWith(line, "indexing ")) {
        if (!container_ || !container_->items.empty()) {
          return Error(line_no, "indexing <policy JSON> goes right after container");
        }
        auto spec = std::make_shared<ContainerSpec>(*container_);
        spec->indexing_policy = Trim(line.substr(9));
        if (!json::Parse(spec->indexing_policy).ok()) {
          return Error(line_no, "bad indexing policy JSON");
        }
        container_ = spec;
        ++pos_;
      } else if (line == "insert") {
        if (!container_) {
          return Error(line_no, "insert before container");
        }
        auto spec = std::make_shared<ContainerSpec>(*container_);
        for (++pos_; pos_ < lines_.size() && !Trim(lines_[pos_]).empty(); ++pos_) {
          std::string item = Trim(lines_[pos_]);
          if (!json::Parse(item).ok()) {
            return Error(static_cast<int>(pos_) + 1, "bad item JSON");
          }
          spec->items.push_back(item);
        }
        container_ = spec;
      } else if (StartsWith(line, "skip")) {
        pending_skip = Trim(line.substr(4));
        ++pos_;
      } else if (StartsWith(line, "require")) {
        ++pos_;  // no requirements are known to this runner yet
      } else if (StartsWith(line, "query") || StartsWith(line, "error ")) {
        Case c;
        c.file = file_;
        c.line = line_no;
        c.container = container_;
        c.skip_reason = std::move(pending_skip);
        pending_skip.reset();
        if (auto e = ParseCase(line, c)) {
          return e;
        }
        out.push_back(std::move(c));
      } else {
        return Error(line_no, "unknown directive: " + line);
      }
    }
    return std::nullopt;
  }

 private:
  std::optional<std::string> Error(int line, const std::string& what) const {
    return file_ + ":" + std::to_string(line) + ": " + what;
  }

  std::optional<std::string> ParseCase(const std::string& header, Case& c) {
    std::vector<std::string> words = SplitOptions(header);
    size_t i = 1;
    if (words[0] == "error") {
      c.is_error = true;
      if (words.size() < 2) {
        return Error(c.line, "error <status> [substatus]");
      }
      c.error_status = std::stoi(words[1]);
      i = 2;
      if (i < words.size() && std::isdigit(static_cast<unsigned char>(words[i][0]))) {
        c.error_substatus = std::stoi(words[i]);
        ++i;
      }
    } else if (words[0] != "query") {
      return Error(c.line, "unknown directive " + words[0]);
    }
    for (; i < words.size(); ++i) {
      const std::string& w = words[i];
      if (w == "rowsort") {
        c.rowsort = true;
      } else if (StartsWith(w, "partition=")) {
        c.partition = w.substr(10);
      } else if (StartsWith(w, "params=")) {
        c.params = w.substr(7);
      } else if (StartsWith(w, "max-items=")) {
        c.max_items = std::stoi(w.substr(10));
      } else {
        return Error(c.line, "unknown option " + w);
      }
    }
    ++pos_;
    std::string text;
    for (; pos_ < lines_.size() && Trim(lines_[pos_]) != "----"; ++pos_) {
      if (!text.empty()) {
        text += '\n';
      }
      text += lines_[pos_];
    }
    if (pos_ >= lines_.size()) {
      return Error(c.line, "missing ----");
    }
    c.query = text;
    ++pos_;
    for (; pos_ < lines_.size(); ++pos_) {
      std::string line = Trim(lines_[pos_]);
      if (line.empty() || IsDirective(line)) {
        break;
      }
      if (c.is_error) {
        c.error_pattern = line;
        ++pos_;
        break;
      }
      if (!json::Parse(line).ok()) {
        return Error(static_cast<int>(pos_) + 1, "bad expected JSON: " + line);
      }
      c.expected.push_back(line);
    }
    return std::nullopt;
  }

  std::string file_;
  std::vector<std::string> lines_;
  size_t pos_ = 0;
  std::shared_ptr<const ContainerSpec> container_;
};

json::Value J(std::string_view text) { return std::move(json::Parse(text)).value(); }

// Drops the generated system properties of a `SELECT *` row when the expectation
// does not name them.
json::Value Normalize(json::Value actual, const json::Value* expected) {
  if (!actual.is_object() || actual.Find("_rid") == nullptr) {
    return actual;
  }
  if (expected != nullptr && expected->is_object() && expected->Find("_rid") != nullptr) {
    return actual;
  }
  for (const char* key : {"_rid", "_self", "_etag", "_attachments", "_ts"}) {
    actual.Remove(key);
  }
  return actual;
}

std::string Show(const std::vector<json::Value>& rows) {
  std::string out;
  for (const auto& r : rows) {
    out += "  " + json::Write(r) + "\n";
  }
  return out.empty() ? "  (no rows)\n" : out;
}

struct RunResult {
  Status status;
  std::vector<json::Value> rows;
};

class CaseRunner {
 public:
  explicit CaseRunner(const Case& c) : case_(c) {}

  void Run() {
    std::set<int> partition_counts = {1, 4};
    if (case_.container && case_.container->partitions > 0) {
      partition_counts.insert(case_.container->partitions);
    }
    std::vector<int> page_sizes =
        case_.max_items > 0 ? std::vector<int>{case_.max_items} : std::vector<int>{1000, 3};
    for (int partitions : partition_counts) {
      std::shared_ptr<engine::Container> container = Setup(partitions);
      if (::testing::Test::HasFatalFailure()) {
        return;
      }
      for (int page_size : page_sizes) {
        SCOPED_TRACE("partitions=" + std::to_string(partitions) +
                     " max-items=" + std::to_string(page_size));
        RunResult result = Execute(*container, page_size);
        Check(result);
      }
      // The same answers without the range index (as while it is rebuilt): every
      // index plan is checked against a plain scan.
      container->write_state()->index_ready = false;
      SCOPED_TRACE("partitions=" + std::to_string(partitions) + " without the index");
      Check(Execute(*container, page_sizes.back()));
      container->write_state()->index_ready = true;
    }
  }

 private:
  std::shared_ptr<engine::Container> Setup(int partitions) {
    engine::AccountOptions options;
    options.store.in_memory = true;
    options.initial_partitions = partitions;
    auto account = engine::Account::Open(options);
    EXPECT_TRUE(account.ok()) << account.status().ToString();
    if (!account.ok()) {
      return nullptr;
    }
    account_ = std::move(account).value();
    EXPECT_TRUE(account_->CreateDatabase(J(R"({"id":"db"})"), {}).ok());
    std::string name = "c";
    json::Value paths = json::Value::MakeArray();
    if (case_.container) {
      name = case_.container->name;
      for (const auto& p : case_.container->paths) {
        paths.as_array().push_back(json::Value::String(p));
      }
    } else {
      paths.as_array().push_back(json::Value::String("/pk"));
    }
    json::Value pk = json::Value::MakeObject();
    pk.Set("paths", paths);
    pk.Set("kind", json::Value::String(paths.as_array().size() > 1 ? "MultiHash" : "Hash"));
    pk.Set("version", json::Value::Int(2));
    json::Value body = json::Value::MakeObject();
    body.Set("id", json::Value::String(name));
    body.Set("partitionKey", pk);
    if (case_.container && !case_.container->indexing_policy.empty()) {
      body.Set("indexingPolicy", J(case_.container->indexing_policy));
    }
    if (case_.container && case_.container->geometry) {
      body.Set("geospatialConfig", J(R"({"type":"Geometry"})"));
    }
    auto created = account_->CreateContainer("db", body, {});
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    auto container = account_->GetContainer("db", name);
    if (!container.ok()) {
      ADD_FAILURE() << container.status().ToString();
      return nullptr;
    }
    std::shared_ptr<engine::Container> c = *container;
    if (case_.container) {
      for (const auto& item : case_.container->items) {
        auto key = partition::ExtractFromItem(J(item), c->settings().partition_key);
        if (!key.ok()) {
          ADD_FAILURE() << "item " << item << ": " << key.status().ToString();
          continue;
        }
        engine::ItemWriteRequest request;
        request.kind = engine::WriteKind::kCreate;
        request.partition_key = *key;
        request.body = item;
        auto written = c->WriteItem(request);
        EXPECT_TRUE(written.ok()) << "item " << item << ": " << written.status().ToString();
      }
    }
    return c;
  }

  Result<engine::ReadScope> Scope(const engine::Container& container) const {
    if (!case_.partition) {
      return container.FullScope();
    }
    ORRERY_ASSIGN_OR_RETURN(json::Value v, json::Parse(*case_.partition));
    partition::PartitionKeyValue key;
    if (v.is_array()) {
      for (const auto& e : v.as_array()) {
        ORRERY_ASSIGN_OR_RETURN(auto component, partition::ComponentFromJson(e));
        key.push_back(component);
      }
    } else {
      ORRERY_ASSIGN_OR_RETURN(auto component, partition::ComponentFromJson(v));
      key.push_back(component);
    }
    const auto& definition = container.settings().partition_key;
    engine::ReadScope scope;
    std::string epk = partition::EffectivePartitionKey(definition, key);
    if (key.size() == definition.paths.size()) {
      scope.exact_epk = epk;
      scope.range = engine::EpkRange{epk, epk + "\x01"};
    } else {
      scope.range = engine::EpkRange{epk, epk + "FF"};
    }
    return scope;
  }

  RunResult Execute(const engine::Container& container, int page_size) const {
    RunResult out;
    std::vector<query::Parameter> parameters;
    if (!case_.params.empty()) {
      auto params = json::Parse(case_.params);
      if (!params.ok() || !params->is_object()) {
        out.status = Status::Internal("params= must be a JSON object");
        return out;
      }
      for (const auto& [name, value] : params->as_object()) {
        parameters.push_back({name, value});
      }
    }
    // As the API compiles a query for its container (api/feed.cc CompileQueryBody).
    auto udfs = container.UserFunctionsForQueries();
    if (!udfs.ok()) {
      out.status = udfs.status();
      return out;
    }
    auto compiled =
        query::Compile(case_.query, std::move(parameters), container.computed_properties(),
                       &container.vector_policy(), &container.full_text_policy(),
                       container.coordinate_system(), udfs->get());
    if (!compiled.ok()) {
      out.status = compiled.status();
      return out;
    }
    auto scope = Scope(container);
    if (!scope.ok()) {
      out.status = Status::Internal("bad partition=: " + scope.status().ToString());
      return out;
    }
    std::string continuation;
    for (int pages = 0; pages < 100000; ++pages) {
      auto page = container.Query(**compiled, *scope, page_size, continuation);
      if (!page.ok()) {
        out.status = page.status();
        return out;
      }
      // The service never returns more than x-ms-max-item-count rows in a page.
      if (page->documents.size() > static_cast<size_t>(page_size)) {
        out.status = Status::Internal("a page of " + std::to_string(page->documents.size()) +
                                      " rows exceeds max-items " + std::to_string(page_size));
        return out;
      }
      for (const auto& d : page->documents) {
        out.rows.push_back(J(d));
      }
      if (!page->continuation) {
        return out;
      }
      continuation = *page->continuation;
    }
    out.status = Status::Internal("continuations never ended");
    return out;
  }

  void Check(const RunResult& result) const {
    if (case_.is_error) {
      CheckError(result);
      return;
    }
    ASSERT_TRUE(result.status.ok()) << "query failed: " << result.status.ToString();
    std::vector<json::Value> expected;
    for (const auto& e : case_.expected) {
      expected.push_back(J(e));
    }
    std::vector<json::Value> actual;
    for (size_t i = 0; i < result.rows.size(); ++i) {
      actual.push_back(Normalize(result.rows[i], i < expected.size() ? &expected[i] : nullptr));
    }
    bool same = actual.size() == expected.size();
    if (same && !case_.rowsort) {
      same = std::equal(actual.begin(), actual.end(), expected.begin());
    } else if (same) {
      std::vector<bool> used(actual.size(), false);
      for (const auto& e : expected) {
        bool found = false;
        for (size_t i = 0; i < actual.size() && !found; ++i) {
          if (!used[i] && Normalize(result.rows[i], &e) == e) {
            used[i] = true;
            found = true;
          }
        }
        if (!found) {
          same = false;
          break;
        }
      }
    }
    EXPECT_TRUE(same) << "expected" << (case_.rowsort ? " (rowsort)" : "") << ":\n"
                      << Show(expected) << "actual:\n"
                      << Show(actual);
  }

  void CheckError(const RunResult& result) const {
    ASSERT_FALSE(result.status.ok()) << "expected an error, got rows:\n" << Show(result.rows);
    static const std::map<StatusCode, int> kHttp = {
        {StatusCode::kBadRequest, 400}, {StatusCode::kNotFound, 404},
        {StatusCode::kConflict, 409},   {StatusCode::kEntityTooLarge, 413},
        {StatusCode::kInternal, 500},
    };
    auto it = kHttp.find(result.status.code());
    int http = it == kHttp.end() ? -1 : it->second;
    EXPECT_EQ(http, case_.error_status) << result.status.ToString();
    if (case_.error_substatus) {
      EXPECT_EQ(result.status.substatus(), *case_.error_substatus) << result.status.ToString();
    }
    const std::string& message = result.status.message();
    std::string pattern = case_.error_pattern;
    if (StartsWith(pattern, "<REGEX>")) {
      pattern = pattern.substr(7);
      if (StartsWith(pattern, ":")) {
        pattern = pattern.substr(1);
      }
      EXPECT_TRUE(std::regex_search(message, std::regex(pattern)))
          << "message does not match /" << pattern << "/: " << message;
    } else {
      EXPECT_NE(message.find(pattern), std::string::npos)
          << "message lacks \"" << pattern << "\": " << message;
    }
  }

  const Case& case_;
  std::unique_ptr<engine::Account> account_;
};

class CaseTest : public ::testing::Test {
 public:
  explicit CaseTest(Case c) : case_(std::move(c)) {}
  void TestBody() override {
    if (case_.skip_reason) {
      GTEST_SKIP() << *case_.skip_reason;
    }
    SCOPED_TRACE(case_.file + ":" + std::to_string(case_.line) + "\n" + case_.query);
    CaseRunner(case_).Run();
  }

 private:
  Case case_;
};

class FileErrorTest : public ::testing::Test {
 public:
  explicit FileErrorTest(std::string message) : message_(std::move(message)) {}
  void TestBody() override { FAIL() << message_; }

 private:
  std::string message_;
};

std::string TestName(const std::string& file, int line) {
  std::string out;
  for (char ch : file) {
    out += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  }
  return out + "_L" + std::to_string(line);
}

int RegisterCorpus() {
  const fs::path root = fs::path(ORRERY_SOURCE_DIR) / "tests" / "query";
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && entry.path().extension() == ".test") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::string relative = fs::relative(path, root).generic_string();
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
      lines.push_back(line);
    }
    std::vector<Case> cases;
    std::optional<std::string> error = FileParser(relative, std::move(lines)).Parse(cases);
    if (error) {
      ::testing::RegisterTest(
          "QueryCorpusFile", TestName(relative, 0).c_str(), nullptr, nullptr, path.c_str(), 1,
          [message = *error]() -> ::testing::Test* { return new FileErrorTest(message); });
      continue;
    }
    for (auto& c : cases) {
      std::string name = TestName(relative, c.line);
      int line = c.line;
      ::testing::RegisterTest("QueryCorpus", name.c_str(), nullptr, nullptr, path.c_str(), line,
                              [c = std::move(c)]() -> ::testing::Test* { return new CaseTest(c); });
    }
  }
  return 0;
}

[[maybe_unused]] const int kRegistered = RegisterCorpus();

}  // namespace
}  // namespace orrery
