#pragma once

// A small disk for tests of what a full disk does: a size-limited tmpfs mounted on a
// fresh temporary directory, unmounted and removed when the object goes away, and a
// ballast file to fill it with. Mounting needs root; where it is not permitted,
// mounted() is false and the test skips. Test-only.

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace orrery::storage::testing {

class SmallDisk {
 public:
  explicit SmallDisk(int megabytes) {
    // mkdtemp(3) replaces the name's last six characters, which must be 'X', with a
    // unique suffix.
    std::string pattern = (std::filesystem::temp_directory_path() / "orrery-small-disk-").string() +
                          std::string(6, 'X');
    if (::mkdtemp(pattern.data()) == nullptr) {
      why_not_ = std::strerror(errno);
      return;
    }
    const std::string options = "size=" + std::to_string(megabytes) + "m";
    if (::mount("tmpfs", pattern.c_str(), "tmpfs", 0, options.c_str()) != 0) {
      why_not_ = std::strerror(errno);
      std::filesystem::remove(pattern);
      return;
    }
    path_ = pattern;
  }
  ~SmallDisk() {
    if (path_.empty()) return;
    // Lazy: a store closed a moment ago may still hold a file open.
    ::umount2(path_.c_str(), MNT_DETACH);
    std::filesystem::remove(path_);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  bool mounted() const { return !path_.empty(); }
  // Why mounting failed (for the skip message).
  const std::string& why_not() const { return why_not_; }
  const std::string& path() const { return path_; }
  std::string ballast() const { return path_ + "/ballast"; }

  uint64_t FreeBytes() const {
    struct statvfs info {};
    if (::statvfs(path_.c_str(), &info) != 0) return 0;
    return static_cast<uint64_t>(info.f_bavail) * info.f_frsize;
  }

  // Appends zeros to the ballast until `leave` bytes are free (or the disk is full).
  void PlaceBallast(uint64_t leave) const {
    const int fd = ::open(ballast().c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) return;
    const std::string chunk(1 << 16, '\0');
    for (uint64_t free = FreeBytes(); free > leave; free = FreeBytes()) {
      const size_t want = static_cast<size_t>(std::min<uint64_t>(chunk.size(), free - leave));
      if (::write(fd, chunk.data(), want) <= 0) break;  // ENOSPC: full
    }
    ::close(fd);
  }

  bool RemoveBallast() const { return std::filesystem::remove(ballast()); }

 private:
  std::string path_;
  std::string why_not_;
};

}  // namespace orrery::storage::testing
