#pragma once

// A fixture for storage tests that open RocksDB directories themselves: a fresh
// directory under the system's temporary directory, named after the test suite and the
// process, removed after each test. Test-only.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace orrery::storage {

class DataDirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = (std::filesystem::temp_directory_path() /
            ("orrery-" + std::string(test->test_suite_name()) + "-" + std::to_string(::getpid())))
               .string();
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string dir_;
};

}  // namespace orrery::storage
