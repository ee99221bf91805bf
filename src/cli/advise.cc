#include "cli/advise.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "advise/demos.h"
#include "advise/item_sources.h"
#include "advise/reports.h"
#include "advise/study.h"
#include "cli/advise_endpoint.h"
#include "json/json.h"

namespace orrery::cli {
namespace {

struct Failure {
  std::string message;
};

int Fail(const std::string& message) {
  std::fprintf(stderr, "orrery advise: %s\n", message.c_str());
  return 1;
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::BadRequest("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Result<json::Value> ReadJson(const std::string& path, const std::string& what) {
  ORRERY_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  Result<json::Value> parsed = json::Parse(text);
  if (!parsed.ok()) {
    return Status::BadRequest("the " + what + " " + path +
                              " is not JSON: " + parsed.status().message());
  }
  return parsed;
}

// A progress bar on stderr, redrawn in place, when stderr is a terminal.
class ProgressBar {
 public:
  ProgressBar() : enabled_(isatty(STDERR_FILENO) != 0) {}
  ~ProgressBar() { Finish(); }
  void Show(std::string_view phase, uint64_t done, uint64_t total) {
    if (!enabled_) return;
    if (phase != phase_) {
      Finish();
      phase_ = std::string(phase);
    }
    const double fraction = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0;
    const int filled = static_cast<int>(fraction * 30);
    std::fprintf(stderr, "\r%-40s [%s%s] %3d%%  %llu/%llu", phase_.c_str(),
                 std::string(static_cast<size_t>(filled), '#').c_str(),
                 std::string(static_cast<size_t>(30 - filled), '.').c_str(),
                 static_cast<int>(fraction * 100), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total));
    std::fflush(stderr);
    shown_ = true;
  }
  void Finish() {
    if (shown_) std::fprintf(stderr, "\n");
    shown_ = false;
  }

 private:
  bool enabled_;
  bool shown_ = false;
  std::string phase_;
};

struct StudyInput {
  std::string name;
  std::unique_ptr<advise::ItemSource> items;
  advise::StudyOptions options;
};

Result<std::unique_ptr<advise::ItemSource>> Generated(json::Value spec,
                                                      const AdviseOptions& options,
                                                      bool keeps_count = false) {
  if (options.items && !keeps_count) {
    spec.Set("count", json::Value::Int(static_cast<int64_t>(*options.items)));
  }
  ORRERY_ASSIGN_OR_RETURN(advise::Generator generator, advise::Generator::Parse(spec));
  return std::unique_ptr<advise::ItemSource>(new advise::GeneratedItems(std::move(generator)));
}

Status ApplyCommonOptions(const AdviseOptions& options, advise::StudyOptions& study) {
  study.samples = options.samples;
  study.seed = options.seed;
  study.threads = options.threads;
  study.autoscale = options.autoscale;
  study.yearly_growth = options.growth;
  if (options.throughput) study.throughput = *options.throughput;
  if (!options.indexing_policy.empty()) {
    std::string text = options.indexing_policy;
    if (text[0] == '@') {
      ORRERY_ASSIGN_OR_RETURN(text, ReadFile(text.substr(1)));
    }
    Result<json::Value> policy = json::Parse(text);
    if (!policy.ok())
      return Status::BadRequest("--indexing-policy is not JSON: " + policy.status().message());
    study.indexing_policy = std::move(*policy);
  }
  return Status::Ok();
}

Result<std::vector<advise::Candidate>> ParseCandidates(const std::vector<std::string>& texts) {
  std::vector<advise::Candidate> candidates;
  for (const std::string& text : texts) {
    ORRERY_ASSIGN_OR_RETURN(advise::Candidate candidate, advise::Candidate::Parse(text));
    candidates.push_back(std::move(candidate));
  }
  return candidates;
}

Result<std::vector<StudyInput>> DemoInputs(const AdviseOptions& options) {
  ORRERY_ASSIGN_OR_RETURN(std::vector<advise::DemoStudy> demos, advise::DemoNamed(options.demo));
  std::vector<StudyInput> inputs;
  for (advise::DemoStudy& demo : demos) {
    StudyInput input;
    input.name = demo.name;
    ORRERY_ASSIGN_OR_RETURN(input.items, Generated(demo.generator_spec, options, demo.keeps_count));
    input.options.throughput = demo.throughput;
    ORRERY_RETURN_IF_ERROR(ApplyCommonOptions(options, input.options));
    ORRERY_ASSIGN_OR_RETURN(
        input.options.candidates,
        ParseCandidates(options.candidates.empty() ? demo.candidates : options.candidates));
    ORRERY_ASSIGN_OR_RETURN(input.options.workload, advise::Workload::Parse(demo.workload));
    input.options.scale = options.scale.value_or(
        demo.production_items / static_cast<double>(std::max<uint64_t>(input.items->count(), 1)));
    inputs.push_back(std::move(input));
  }
  return inputs;
}

Result<std::vector<StudyInput>> GivenInputs(const AdviseOptions& options) {
  StudyInput input;
  input.name = "study";
  if (options.data.empty() == options.generate.empty()) {
    return Status::BadRequest(
        "give the items: --data items.jsonl or --generate spec.json (or --demo)");
  }
  if (!options.data.empty()) {
    ORRERY_ASSIGN_OR_RETURN(std::string text, ReadFile(options.data));
    ORRERY_ASSIGN_OR_RETURN(advise::LineItems lines,
                            advise::LineItems::FromText(text, options.data));
    input.items = std::make_unique<advise::LineItems>(std::move(lines));
  } else {
    ORRERY_ASSIGN_OR_RETURN(json::Value spec, ReadJson(options.generate, "generator spec"));
    ORRERY_ASSIGN_OR_RETURN(input.items, Generated(std::move(spec), options));
  }
  if (options.candidates.empty()) {
    return Status::BadRequest("give the partition keys to compare: --candidates /a /b,/c /a+/b");
  }
  if (options.workload.empty())
    return Status::BadRequest("give the traffic: --workload workload.json");
  ORRERY_ASSIGN_OR_RETURN(input.options.candidates, ParseCandidates(options.candidates));
  ORRERY_ASSIGN_OR_RETURN(json::Value workload, ReadJson(options.workload, "workload"));
  ORRERY_ASSIGN_OR_RETURN(input.options.workload, advise::Workload::Parse(workload));
  ORRERY_RETURN_IF_ERROR(ApplyCommonOptions(options, input.options));
  input.options.scale = options.scale.value_or(1);
  std::vector<StudyInput> inputs;
  inputs.push_back(std::move(input));
  return inputs;
}

bool UseColor(const AdviseOptions& options) {
  return !options.no_color && std::getenv("NO_COLOR") == nullptr && isatty(STDOUT_FILENO) != 0;
}

json::Value StudiesJson(const std::vector<advise::StudyResult>& studies) {
  // The first study's fields at the top (its `ranking`), every study under "studies".
  json::Value out = advise::StudyJson(studies.front());
  if (studies.size() > 1) {
    json::Array all;
    for (const auto& study : studies) all.push_back(advise::StudyJson(study));
    out.Set("studies", json::Value::MakeArray(std::move(all)));
  }
  return out;
}

}  // namespace

int RunAdvise(const AdviseOptions& options) {
  if (options.samples < 1 || options.samples > 10000) return Fail("--samples must be 1..10000");
  if (options.threads < 1 || options.threads > 64) return Fail("--threads must be 1..64");
  if (options.scale && !(*options.scale > 0)) return Fail("--scale must be above 0");
  if (options.growth && !(*options.growth > 0)) return Fail("--growth must be above 0");
  if (!options.demo.empty() && (!options.data.empty() || !options.generate.empty())) {
    return Fail("--demo brings its own items: leave out --data and --generate");
  }
  Result<std::vector<StudyInput>> inputs =
      options.demo.empty() ? GivenInputs(options) : DemoInputs(options);
  if (!inputs.ok()) return Fail(inputs.status().message());
  ProgressBar bar;
  std::vector<advise::StudyResult> studies;
  for (StudyInput& input : *inputs) {
    input.options.progress = [&](std::string_view phase, uint64_t done, uint64_t total) {
      bar.Show(input.name + ": " + std::string(phase), done, total);
    };
    Result<advise::StudyResult> study =
        options.endpoint.empty() ? advise::RunStudy(*input.items, input.options)
                                 : RunEndpointStudy(Connection{options.endpoint, options.key},
                                                    *input.items, input.options);
    bar.Finish();
    if (!study.ok()) return Fail(study.status().message());
    study->name = input.name;
    studies.push_back(std::move(*study));
  }
  if (!options.html.empty()) {
    std::ofstream out(options.html, std::ios::binary | std::ios::trunc);
    out << advise::StudyHtml(studies);
    out.flush();
    if (!out) return Fail("cannot write " + options.html);
  }
  if (options.json) {
    std::printf("%s\n", json::Write(StudiesJson(studies)).c_str());
    return 0;
  }
  const bool color = UseColor(options);
  for (size_t i = 0; i < studies.size(); ++i) {
    std::printf("%s%s", i == 0 ? "" : "\n", advise::StudyText(studies[i], color).c_str());
  }
  if (!options.html.empty()) std::printf("\nReport: %s\n", options.html.c_str());
  return 0;
}

}  // namespace orrery::cli
