#include "http/pem_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "http/test_temp_dir.h"

namespace orrery::http {
namespace {

using testing::TestTempDir;

TEST(PemFileTest, ReadsWhatWasWritten) {
  TestTempDir dir;
  const std::string path = dir.path() + "/a.pem";
  ASSERT_TRUE(WritePemFile(path, "-----BEGIN X-----\n", 0644).ok());
  const Result<std::string> read = ReadPemFile(path, "TLS certificate");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read, "-----BEGIN X-----\n");
}

TEST(PemFileTest, WritesWithTheGivenModeEvenOverAnExistingFile) {
  TestTempDir dir;
  const std::string path = dir.path() + "/key.pem";
  ASSERT_TRUE(WritePemFile(path, "old", 0644).ok());
  ASSERT_TRUE(WritePemFile(path, "new", 0600).ok());
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  EXPECT_EQ(*ReadPemFile(path, "TLS key"), "new");
}

TEST(PemFileTest, NamesTheFileAndReasonWhenItCannotRead) {
  const Result<std::string> read = ReadPemFile("/nonexistent/cert.pem", "TLS certificate");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kIoError);
  EXPECT_EQ(read.status().message(),
            "cannot read TLS certificate /nonexistent/cert.pem: No such file or directory");
}

TEST(PemFileTest, RejectsAnEmptyFile) {
  TestTempDir dir;
  const std::string path = dir.path() + "/empty.pem";
  ASSERT_TRUE(WritePemFile(path, "", 0644).ok());
  const Result<std::string> read = ReadPemFile(path, "TLS key");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(), "cannot read TLS key " + path + ": file is empty");
}

TEST(PemFileTest, NamesTheFileWhenItCannotWrite) {
  const Status status = WritePemFile("/nonexistent/key.pem", "x", 0600);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cannot write /nonexistent/key.pem: No such file or directory");
}

}  // namespace
}  // namespace orrery::http
