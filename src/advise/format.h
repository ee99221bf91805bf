#pragma once

// Numbers as `orrery advise` prints them, in its reasons and reports.

#include <cstdint>
#include <string>

namespace orrery::advise {

// 1536 -> "1.5 KB", 22.7e9 -> "21.1 GB" (powers of 1024, as the service's limits are).
std::string FormatBytes(double bytes);
// 0.384 -> "38%", 0.0042 -> "0.4%".
std::string FormatPercent(double fraction);
// 2.31 -> "2.31", 1234.5 -> "1,235": three significant digits, thousands separated.
std::string FormatNumber(double value);
// 19825 -> "19,825"
std::string FormatCount(int64_t count);

}  // namespace orrery::advise
