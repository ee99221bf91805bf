#pragma once

// A data directory for an engine test that closes and reopens its account: under the
// system's temporary directory, named after the test and the process, and emptied of
// what an earlier run left there.

#include <unistd.h>

#include <filesystem>
#include <string>

namespace orrery::engine {

inline std::string FreshTestDirectory(const std::string& name) {
  const std::string dir =
      std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir;
}

}  // namespace orrery::engine
