#include "storage/rocks_status.h"

#include <string>

namespace orrery::storage {

bool IsOutOfSpace(const rocksdb::Status& status) {
  if (status.IsNoSpace()) return true;
  if (status.IsIOError() && status.subcode() == rocksdb::Status::kSpaceLimit) return true;
  // Some paths rebuild a status from another's text (a stalled write reports the
  // background error as Incomplete); ENOSPC's text survives that.
  return (status.IsIOError() || status.IsIncomplete()) &&
         status.ToString().find("No space left on device") != std::string::npos;
}

Status DiskFullError(uint64_t resume_bytes) {
  return Status::InsufficientStorage(
      "The disk holding the data directory is full, so this write was not applied. Reads, "
      "queries and the change feed keep working; writes succeed again within about 5 "
      "seconds once at least " +
      std::to_string(resume_bytes >> 20) + " MB are free on that disk.");
}

Status ReadOnlyAfterDiskFullError() {
  return Status::InsufficientStorage(
      "The disk holding the data directory was full when the server started, so it serves "
      "reads only and this write was not applied. Free space on that disk and restart the "
      "server to accept writes again.");
}

Status FromRocks(const rocksdb::Status& status, uint64_t resume_bytes) {
  if (status.ok()) return Status::Ok();
  if (status.IsCorruption()) return Status::Corruption("storage corruption: " + status.ToString());
  if (IsOutOfSpace(status)) return DiskFullError(resume_bytes);
  return Status::IoError("storage error: " + status.ToString());
}

}  // namespace orrery::storage
