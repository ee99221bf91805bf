// libFuzzer target for partition key headers (x-ms-documentdb-partitionkey): the input
// bytes are parsed as the header under a V1, a V2 and a three-level MultiHash
// definition, full and as a query prefix, and every key that parses is hashed into its
// effective partition key and written back as a header, which must parse to the same
// key. Errors are expected; crashes, sanitizer reports, leaks and hangs are bugs.
//
// Built with -DORRERY_FUZZ=ON (clang); run with `make fuzz`.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "engine/partition/partition_key.h"
#include "json/json.h"

namespace {

using orrery::partition::PartitionKeyDefinition;

const std::vector<PartitionKeyDefinition>& Definitions() {
  static const auto* definitions = [] {
    auto* out = new std::vector<PartitionKeyDefinition>;
    for (const char* text :
         {R"({"paths":["/pk"],"kind":"Hash"})", R"({"paths":["/pk"],"kind":"Hash","version":2})",
          R"({"paths":["/a","/b/c","/d"],"kind":"MultiHash","version":2})"}) {
      auto definition = orrery::partition::ParseDefinition(*orrery::json::Parse(text));
      if (!definition.ok()) std::abort();
      out->push_back(*definition);
    }
    return out;
  }();
  return *definitions;
}

}  // namespace

extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return -1;
  const std::string_view header(reinterpret_cast<const char*>(data), size);
  for (const PartitionKeyDefinition& definition : Definitions()) {
    for (bool prefix : {false, true}) {
      auto key = orrery::partition::ParseHeader(header, definition, prefix);
      if (!key.ok()) continue;
      (void)orrery::partition::EffectivePartitionKey(definition, *key);
      const std::string again = orrery::partition::ToHeaderJson(*key);
      auto reparsed = orrery::partition::ParseHeader(again, definition, prefix);
      if (!reparsed.ok() || !(*reparsed == *key)) {
        std::fprintf(stderr, "partition_key_fuzz: %s does not parse back\n", again.c_str());
        std::abort();
      }
    }
  }
  return 0;
}
