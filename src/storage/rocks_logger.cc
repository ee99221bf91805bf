#include "storage/rocks_logger.h"

#include <cstdarg>
#include <cstdio>
#include <string>

#include "common/log.h"

namespace orrery::storage {
namespace {

class ForwardingLogger : public rocksdb::Logger {
 public:
  // RocksDB formats only the lines at or above this level.
  ForwardingLogger() : rocksdb::Logger(rocksdb::InfoLogLevel::WARN_LEVEL) {}

  void Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) override {
    if (level < GetInfoLogLevel() || level == rocksdb::InfoLogLevel::HEADER_LEVEL) return;
    Forward(format, ap);
  }
  void Logv(const char* format, va_list ap) override { Forward(format, ap); }
  // The options dump at open: not worth a line.
  void LogHeader(const char*, va_list) override {}

 private:
  static void Forward(const char* format, va_list ap) {
    if (GetLogLevel() > LogLevel::kDebug) return;
    char line[1024];
    const int n = std::vsnprintf(line, sizeof(line), format, ap);
    if (n < 0) return;
    Log(LogLevel::kDebug, "rocksdb: " + std::string(line));
  }
};

}  // namespace

std::shared_ptr<rocksdb::Logger> NewForwardingLogger() {
  return std::make_shared<ForwardingLogger>();
}

}  // namespace orrery::storage
