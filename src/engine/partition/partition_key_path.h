#pragma once

// Partition key paths ("/a/b", "/\"odd name\"") split into member names. Used in
// engine/partition to validate definitions and extract keys, and by query routing.

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace orrery::partition {

// The member names along `path`, split as the JS SDK's parsePath splits them (so that
// the key we extract equals the one the SDK puts in the header): unquoted names are
// trimmed of surrounding whitespace; '...' or "..." quote a name verbatim (a backslash
// before the quote keeps it inside the name and stays in it, as in the SDK).
// Errors: BadRequest with the service's message when the path does not start with '/',
// has an empty segment or trailing slash, or contains a wildcard or another character
// the service rejects outside quotes.
Result<std::vector<std::string>> ParsePartitionKeyPath(std::string_view path);

}  // namespace orrery::partition
