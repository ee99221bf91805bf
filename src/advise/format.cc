#include "advise/format.h"

#include <cmath>
#include <cstdio>

namespace orrery::advise {

std::string FormatBytes(double bytes) {
  static const char* const kUnits[] = {"B", "KB", "MB", "GB", "TB", "PB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 5) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, kUnits[unit]);
  return text;
}

std::string FormatPercent(double fraction) {
  const double percent = fraction * 100;
  char text[32];
  if (percent != 0 && std::fabs(percent) < 1) {
    std::snprintf(text, sizeof text, "%.1f%%", percent);
  } else {
    std::snprintf(text, sizeof text, "%.0f%%", percent);
  }
  return text;
}

std::string FormatCount(int64_t count) {
  std::string digits = std::to_string(count);
  const size_t start = digits[0] == '-' ? 1 : 0;
  for (size_t i = digits.size(); i > start + 3; i -= 3) digits.insert(i - 3, ",");
  return digits;
}

std::string FormatNumber(double value) {
  char text[48];
  if (std::fabs(value) >= 1000) {
    return FormatCount(std::llround(value));
  }
  if (std::fabs(value) >= 100) {
    std::snprintf(text, sizeof text, "%.0f", value);
  } else if (std::fabs(value) >= 10) {
    std::snprintf(text, sizeof text, "%.1f", value);
  } else {
    std::snprintf(text, sizeof text, "%.2f", value);
  }
  return text;
}

}  // namespace orrery::advise
