#pragma once

// Data directories for tests that close and reopen stores: under the system's temporary
// directory, named after the test and the process, emptied of what an earlier run left
// there. Test-only.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace orrery::storage {

inline std::string FreshTestDirectory(const std::string& name) {
  const std::string dir =
      std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir;
}

// A fixture with one such directory per test, named after its suite, removed after it.
class DataDirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = FreshTestDirectory("orrery-" + std::string(test->test_suite_name()));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string dir_;
};

}  // namespace orrery::storage
