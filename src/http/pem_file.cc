#include "http/pem_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace orrery::http {

namespace {

// PEM certificates and keys are a few kilobytes; anything far larger is not one.
constexpr size_t kMaxPemBytes = 1 << 20;

std::string ErrnoText(int error) { return std::strerror(error); }

Status WriteAll(int fd, std::string_view contents) {
  while (!contents.empty()) {
    const ssize_t written = ::write(fd, contents.data(), contents.size());
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      return Status::IoError(ErrnoText(errno));
    }
    contents.remove_prefix(static_cast<size_t>(written));
  }
  return Status::Ok();
}

}  // namespace

Result<std::string> ReadPemFile(const std::string& path, std::string_view what) {
  const std::string prefix = "cannot read " + std::string(what) + " " + path + ": ";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status::IoError(prefix + ErrnoText(errno));
  }
  std::string contents;
  char chunk[16384];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      return Status::IoError(prefix + ErrnoText(error));
    }
    if (n == 0) {
      break;
    }
    contents.append(chunk, static_cast<size_t>(n));
    if (contents.size() > kMaxPemBytes) {
      ::close(fd);
      return Status::IoError(prefix + "file too large for a PEM file");
    }
  }
  ::close(fd);
  if (contents.empty()) {
    return Status::IoError(prefix + "file is empty");
  }
  return contents;
}

Status WritePemFile(const std::string& path, std::string_view contents, mode_t mode) {
  const std::string temporary = path + ".tmp";
  // O_EXCL is not used: a temporary left by a crash is simply overwritten.
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) {
    return Status::IoError("cannot write " + path + ": " + ErrnoText(errno));
  }
  // open() applies the umask and keeps the mode of an existing file; fchmod makes the
  // key's 0600 hold regardless.
  Status status =
      ::fchmod(fd, mode) == 0 ? WriteAll(fd, contents) : Status::IoError(ErrnoText(errno));
  if (status.ok() && ::fsync(fd) != 0) {
    status = Status::IoError(ErrnoText(errno));
  }
  if (::close(fd) != 0 && status.ok()) {
    status = Status::IoError(ErrnoText(errno));
  }
  if (status.ok() && std::rename(temporary.c_str(), path.c_str()) != 0) {
    status = Status::IoError(ErrnoText(errno));
  }
  if (!status.ok()) {
    ::unlink(temporary.c_str());
    return Status::IoError("cannot write " + path + ": " + status.message());
  }
  return Status::Ok();
}

}  // namespace orrery::http
