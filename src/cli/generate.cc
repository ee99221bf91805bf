#include "cli/generate.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "advise/generator.h"
#include "json/json.h"

namespace orrery::cli {
namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "orrery generate: %s\n", message.c_str());
  return 1;
}

}  // namespace

int RunGenerate(const GenerateOptions& options) {
  std::ifstream in(options.spec, std::ios::binary);
  if (!in) return Fail("cannot read " + options.spec);
  std::ostringstream text;
  text << in.rdbuf();
  Result<json::Value> spec = json::Parse(text.str());
  if (!spec.ok()) return Fail(options.spec + " is not JSON: " + spec.status().message());
  Result<advise::Generator> generator = advise::Generator::Parse(*spec);
  if (!generator.ok()) return Fail(generator.status().message());
  std::ofstream file;
  if (options.out != "-") {
    file.open(options.out, std::ios::binary | std::ios::trunc);
    if (!file) return Fail("cannot write " + options.out);
  }
  std::ostream& out = options.out == "-" ? std::cout : file;
  std::string line;
  for (uint64_t i = 0; i < generator->count(); ++i) {
    line = json::Write(generator->Item(i));
    line += '\n';
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
  }
  out.flush();
  if (!out) return Fail("cannot write " + options.out);
  std::fprintf(stderr, "orrery generate: %llu items (seed %llu)\n",
               static_cast<unsigned long long>(generator->count()),
               static_cast<unsigned long long>(generator->seed()));
  return 0;
}

}  // namespace orrery::cli
