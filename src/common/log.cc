#include "common/log.h"

#include <atomic>
#include <cstdio>
#include <mutex>

namespace orrery {
namespace {
std::atomic<LogLevel> g_level{LogLevel::kInfo};
std::mutex g_mutex;
}  // namespace

void SetLogLevel(LogLevel level) { g_level = level; }
LogLevel GetLogLevel() { return g_level; }

bool ParseLogLevel(std::string_view text, LogLevel& level) {
  if (text == "debug")
    level = LogLevel::kDebug;
  else if (text == "info")
    level = LogLevel::kInfo;
  else if (text == "warn")
    level = LogLevel::kWarn;
  else if (text == "error")
    level = LogLevel::kError;
  else if (text == "off")
    level = LogLevel::kOff;
  else
    return false;
  return true;
}

void Log(LogLevel level, std::string_view message) {
  if (level < g_level.load(std::memory_order_relaxed)) {
    return;
  }
  static constexpr const char* kNames[] = {"debug", "info", "warn", "error", "off"};
  std::lock_guard lock(g_mutex);
  std::fprintf(stderr, "orrery %s: %.*s\n", kNames[static_cast<int>(level)],
               static_cast<int>(message.size()), message.data());
}

}  // namespace orrery
