#pragma once

#include <string>

namespace orrery::engine {

// A new entity tag, quoted as the service writes them
// ("\"00000000-0000-0000-1a2b-3c4d5e6f7081\""). Unique across writes and restarts:
// 16 random bits chosen at start-up and a 48-bit counter seeded from the clock.
// Thread-safe.
std::string NewEtag();

}  // namespace orrery::engine
