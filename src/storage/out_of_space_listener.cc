#include "storage/out_of_space_listener.h"

#include "common/log.h"
#include "storage/rocks_status.h"

namespace orrery::storage {

OutOfSpaceListener::OutOfSpaceListener(std::string path, uint64_t resume_bytes)
    : path_(std::move(path)), resume_bytes_(resume_bytes) {}

void OutOfSpaceListener::OnBackgroundError(rocksdb::BackgroundErrorReason, rocksdb::Status* error) {
  // A soft error (a compaction that found no room) leaves writes running.
  if (error == nullptr || !IsOutOfSpace(*error) ||
      error->severity() < rocksdb::Status::Severity::kHardError) {
    return;
  }
  was_out_of_space_.store(true, std::memory_order_release);
  if (out_of_space_.exchange(true, std::memory_order_acq_rel)) return;
  Log(LogLevel::kError, "the disk holding the data directory " + path_ +
                            " is full: writes are refused and reads go on; writes resume "
                            "by themselves once at least " +
                            std::to_string(resume_bytes_ >> 20) + " MB are free (" +
                            error->ToString() + ")");
}

void OutOfSpaceListener::OnErrorRecoveryEnd(const rocksdb::BackgroundErrorRecoveryInfo& info) {
  if (!info.new_bg_error.ok()) return;
  if (!out_of_space_.exchange(false, std::memory_order_acq_rel)) return;
  Log(LogLevel::kWarn, "space is free again on the disk holding " + path_ + ": writes resumed");
}

}  // namespace orrery::storage
