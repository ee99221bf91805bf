#pragma once

// A directory under the system temp dir, removed with everything in it when the
// object goes away. Test-only.

#include <cstdlib>
#include <filesystem>
#include <string>

namespace orrery::http::testing {

class TestTempDir {
 public:
  TestTempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("orrery-http-" + std::string(6, 'X')))
            .string();  // mkdtemp pattern
    if (::mkdtemp(pattern.data()) != nullptr) {
      path_ = pattern;
    }
  }
  ~TestTempDir() {
    if (!path_.empty()) {
      std::error_code ignored;
      std::filesystem::remove_all(path_, ignored);
    }
  }
  TestTempDir(const TestTempDir&) = delete;
  TestTempDir& operator=(const TestTempDir&) = delete;

  // Empty if the directory could not be created.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace orrery::http::testing
