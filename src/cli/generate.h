#pragma once

// `orrery generate --spec spec.json [--out items.jsonl]`: writes the items a generator spec
// describes (advise/generator.h) as JSON lines, to a file or stdout; `orrery import`
// loads them. The same spec writes the same file.

#include <string>

namespace orrery::cli {

struct GenerateOptions {
  std::string spec;
  std::string out = "-";  // stdout
};

int RunGenerate(const GenerateOptions& options);

}  // namespace orrery::cli
