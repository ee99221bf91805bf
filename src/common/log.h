#pragma once

// Minimal leveled logging to stderr. Thread-safe.

#include <string_view>

namespace orrery {

enum class LogLevel { kDebug, kInfo, kWarn, kError, kOff };

void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();
// Parses "debug|info|warn|error|off"; returns false when unknown.
bool ParseLogLevel(std::string_view text, LogLevel& level);
void Log(LogLevel level, std::string_view message);

}  // namespace orrery
