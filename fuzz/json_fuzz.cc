// libFuzzer target for JSON bodies: the input bytes are parsed as a request body is
// (json::Parse), and what parses is written, parsed and written again, which must give
// the same text; the top-level member scan that queries and TTL use on stored items
// runs over the same bytes. Errors are expected; crashes, sanitizer reports, leaks,
// hangs and a write that does not read back as itself are bugs.
//
// Built with -DORRERY_FUZZ=ON (clang); run with `make fuzz`.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.h"
#include "json/member_scan.h"

extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return -1;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const std::vector<std::string> kMembers{"_ts", "id", "pk", "ttl"};
  (void)orrery::json::ParseTopLevelMembers(text, kMembers);
  orrery::Result<orrery::json::Value> value = orrery::json::Parse(text);
  if (!value.ok()) return 0;
  const std::string written = orrery::json::Write(*value);
  orrery::Result<orrery::json::Value> again = orrery::json::Parse(written);
  if (!again.ok() || orrery::json::Write(*again) != written) {
    std::fprintf(stderr, "json_fuzz: the round trip changed the value: %s\n", written.c_str());
    std::abort();
  }
  return 0;
}
