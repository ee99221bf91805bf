#include "storage/rocks_status.h"

#include <gtest/gtest.h>

namespace orrery::storage {
namespace {

constexpr uint64_t kResumeBytes = 16 << 20;

TEST(RocksStatusTest, NoSpaceIsInsufficientStorageWithAMessageForPeople) {
  const rocksdb::Status no_space = rocksdb::Status::NoSpace(
      "While appending to file: /data/000008.log", "No space left on device");
  EXPECT_TRUE(IsOutOfSpace(no_space));
  const Status status = FromRocks(no_space, kResumeBytes);
  EXPECT_EQ(status.code(), StatusCode::kInsufficientStorage);
  EXPECT_NE(status.message().find("The disk holding the data directory is full"), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("16 MB"), std::string::npos) << status.message();
  // The client is not told the server's paths.
  EXPECT_EQ(status.message().find("/data/"), std::string::npos) << status.message();
}

TEST(RocksStatusTest, TheBackgroundErrorEveryLaterWriteGetsIsStillAFullDisk) {
  // After a NoSpace, RocksDB answers writes with its background error: the same
  // status with a severity attached.
  const rocksdb::Status background(rocksdb::Status::NoSpace("While appending to file: x.sst"),
                                   rocksdb::Status::Severity::kHardError);
  EXPECT_TRUE(IsOutOfSpace(background));
  EXPECT_EQ(FromRocks(background, kResumeBytes).code(), StatusCode::kInsufficientStorage);
}

TEST(RocksStatusTest, SpaceLimitAndTextOnlyReportsAreAFullDiskToo) {
  EXPECT_TRUE(IsOutOfSpace(rocksdb::Status::SpaceLimit()));
  // A write stalled behind the error gets Incomplete carrying only its text.
  EXPECT_TRUE(IsOutOfSpace(rocksdb::Status::Incomplete(
      "IO error: No space left on device: While appending to file: x.log")));
  EXPECT_TRUE(IsOutOfSpace(rocksdb::Status::IOError("While open a file for appending: x.log",
                                                    "No space left on device")));
}

TEST(RocksStatusTest, OtherErrorsKeepTheirKind) {
  EXPECT_TRUE(FromRocks(rocksdb::Status::OK(), kResumeBytes).ok());
  const Status io = FromRocks(rocksdb::Status::IOError("While reading x.sst", "Input/output error"),
                              kResumeBytes);
  EXPECT_EQ(io.code(), StatusCode::kIoError);
  EXPECT_NE(io.message().find("Input/output error"), std::string::npos);
  EXPECT_EQ(FromRocks(rocksdb::Status::Corruption("bad block"), kResumeBytes).code(),
            StatusCode::kCorruption);
  EXPECT_FALSE(IsOutOfSpace(rocksdb::Status::Incomplete("stalled writes")));
  EXPECT_FALSE(IsOutOfSpace(rocksdb::Status::NotFound()));
}

TEST(RocksStatusTest, ReadOnlyAfterAFullDiskSaysToRestart) {
  const Status status = ReadOnlyAfterDiskFullError();
  EXPECT_EQ(status.code(), StatusCode::kInsufficientStorage);
  EXPECT_NE(status.message().find("restart the server"), std::string::npos) << status.message();
}

}  // namespace
}  // namespace orrery::storage
