#pragma once

// A data directory for an engine test that closes and reopens its account: under the
// system's temporary directory, named after the test and the process, and emptied of
// what an earlier run left there (storage/test_data_directory.h).

#include "storage/test_data_directory.h"

namespace orrery::engine {

using storage::FreshTestDirectory;

}  // namespace orrery::engine
