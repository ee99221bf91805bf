// Date and time built-ins (query-language.md §5.7). Date-times are ISO 8601 UTC
// strings, YYYY-MM-DDThh:mm:ss.fffffffZ on output; ticks are 100 ns units since the
// Unix epoch and timestamps milliseconds since it. Years run from 0001 to 9999, as in
// .NET's DateTime; anything invalid or out of that range gives undefined.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "common/civil_date.h"
#include "query/datetime_format.h"
#include "query/functions_internal.h"

namespace orrery::query::functions_internal {
namespace {

using json::Value;

// 128-bit intermediates keep tick arithmetic on int64 inputs free of overflow.
__extension__ using Int128 = __int128;

constexpr int64_t kTicksPerMicrosecond = 10;
constexpr int64_t kTicksPerMillisecond = 10'000;
constexpr int64_t kTicksPerSecond = 10'000'000;
constexpr int64_t kTicksPerMinute = 60 * kTicksPerSecond;
constexpr int64_t kTicksPerHour = 60 * kTicksPerMinute;
constexpr int64_t kTicksPerDay = 24 * kTicksPerHour;

// Floor division and the matching non-negative remainder, for times before 1970.
constexpr int64_t FloorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}
constexpr int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

struct Civil {
  int64_t year;
  int64_t month;  // 1-12
  int64_t day;    // 1-31
  int64_t time;   // ticks into the day
};

Civil CivilFromTicks(int64_t ticks) {
  const CivilDate date = CivilFromDays(FloorDiv(ticks, kTicksPerDay));
  return Civil{.year = date.year,
               .month = date.month,
               .day = date.day,
               .time = FloorMod(ticks, kTicksPerDay)};
}

bool IsLeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int64_t DaysInMonth(int64_t y, int64_t m) {
  constexpr std::array<int64_t, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeapYear(y) ? 29 : kDays[static_cast<size_t>(m - 1)];
}

constexpr int64_t kMinTicks = DaysFromCivil(1, 1, 1) * kTicksPerDay;
constexpr int64_t kMaxTicks = DaysFromCivil(10000, 1, 1) * kTicksPerDay - 1;

bool InRange(int64_t ticks) { return ticks >= kMinTicks && ticks <= kMaxTicks; }

// Ticks of a valid date and time, or nullopt when a part is out of range.
std::optional<int64_t> TicksFromParts(int64_t year, int64_t month, int64_t day, int64_t hour,
                                      int64_t minute, int64_t second, int64_t fraction) {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 ||
      day > DaysInMonth(year, month) || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      second < 0 || second > 59 || fraction < 0 || fraction >= kTicksPerSecond) {
    return std::nullopt;
  }
  return DaysFromCivil(year, month, day) * kTicksPerDay + hour * kTicksPerHour +
         minute * kTicksPerMinute + second * kTicksPerSecond + fraction;
}

std::string FormatDateTime(int64_t ticks) {
  const Civil c = CivilFromTicks(ticks);
  const int64_t hour = c.time / kTicksPerHour;
  const int64_t minute = c.time / kTicksPerMinute % 60;
  const int64_t second = c.time / kTicksPerSecond % 60;
  const int64_t fraction = c.time % kTicksPerSecond;
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%07lldZ",
                static_cast<long long>(c.year), static_cast<long long>(c.month),
                static_cast<long long>(c.day), static_cast<long long>(hour),
                static_cast<long long>(minute), static_cast<long long>(second),
                static_cast<long long>(fraction));
  return buffer;
}

Value DateTimeValue(int64_t ticks) {
  return InRange(ticks) ? Value::String(FormatDateTime(ticks)) : Value();
}

// The date-time string argument's ticks.
std::optional<int64_t> DateTimeArg(const Value& v) {
  return v.is_string() ? ParseDateTime(v.as_string()) : std::nullopt;
}

// ---- Date-part names ----

enum class Part : uint8_t {
  kYear,
  kMonth,
  kDay,
  kHour,
  kMinute,
  kSecond,
  kMillisecond,
  kMicrosecond,
  kNanosecond
};

struct PartName {
  std::string_view name;
  Part part;
};

constexpr std::array kPartNames = {
    PartName{"year", Part::kYear},       PartName{"yyyy", Part::kYear},
    PartName{"yy", Part::kYear},         PartName{"month", Part::kMonth},
    PartName{"mm", Part::kMonth},        PartName{"m", Part::kMonth},
    PartName{"day", Part::kDay},         PartName{"dd", Part::kDay},
    PartName{"d", Part::kDay},           PartName{"hour", Part::kHour},
    PartName{"hh", Part::kHour},         PartName{"minute", Part::kMinute},
    PartName{"mi", Part::kMinute},       PartName{"n", Part::kMinute},
    PartName{"second", Part::kSecond},   PartName{"ss", Part::kSecond},
    PartName{"s", Part::kSecond},        PartName{"millisecond", Part::kMillisecond},
    PartName{"ms", Part::kMillisecond},  PartName{"microsecond", Part::kMicrosecond},
    PartName{"mcs", Part::kMicrosecond}, PartName{"nanosecond", Part::kNanosecond},
    PartName{"ns", Part::kNanosecond},
};

// Date-part names are case-insensitive (query-language.md §5.7).
std::optional<Part> PartArg(const Value& v) {
  if (!v.is_string()) {
    return std::nullopt;
  }
  const std::string& s = v.as_string();
  for (const PartName& p : kPartNames) {
    if (s.size() == p.name.size() &&
        std::equal(s.begin(), s.end(), p.name.begin(), [](char a, char b) {
          return (a >= 'A' && a <= 'Z' ? static_cast<char>(a + 32) : a) == b;
        })) {
      return p.part;
    }
  }
  return std::nullopt;
}

// Ticks per unit of a fixed-length part; 0 for year and month (calendar lengths).
// A nanosecond is 1/100 tick, which callers handle.
int64_t TicksPer(Part part) {
  switch (part) {
    case Part::kDay:
      return kTicksPerDay;
    case Part::kHour:
      return kTicksPerHour;
    case Part::kMinute:
      return kTicksPerMinute;
    case Part::kSecond:
      return kTicksPerSecond;
    case Part::kMillisecond:
      return kTicksPerMillisecond;
    case Part::kMicrosecond:
      return kTicksPerMicrosecond;
    default:
      return 0;
  }
}

// `ticks` plus `months` calendar months, the day clamped to the new month's length
// (January 31 + 1 month = February 28 or 29), as .NET's AddMonths does.
std::optional<int64_t> AddMonths(int64_t ticks, int64_t months) {
  if (months > 12 * 10000 || months < -12 * 10000) {
    return std::nullopt;
  }
  const Civil c = CivilFromTicks(ticks);
  const int64_t index = c.year * 12 + (c.month - 1) + months;
  const int64_t year = FloorDiv(index, 12);
  const int64_t month = FloorMod(index, 12) + 1;
  if (year < 1 || year > 9999) {
    return std::nullopt;
  }
  const int64_t day = std::min(c.day, DaysInMonth(year, month));
  return DaysFromCivil(year, month, day) * kTicksPerDay + c.time;
}

// `ticks` plus n units of a fixed-length part, or nullopt past the supported range.
std::optional<int64_t> AddFixed(int64_t ticks, Part part, int64_t n) {
  const Int128 delta = part == Part::kNanosecond ? static_cast<Int128>(n) / 100
                                                 : static_cast<Int128>(n) * TicksPer(part);
  const Int128 result = static_cast<Int128>(ticks) + delta;
  if (result < kMinTicks || result > kMaxTicks) {
    return std::nullopt;
  }
  return static_cast<int64_t>(result);
}

// ---- Functions ----

Value GetCurrentDateTime(Args, const CallContext& context) {
  return Value::String(FormatDateTime(context.now_ticks));
}
Value GetCurrentTicks(Args, const CallContext& context) { return Value::Int(context.now_ticks); }
Value GetCurrentTimestamp(Args, const CallContext& context) {
  return Value::Int(FloorDiv(context.now_ticks, kTicksPerMillisecond));
}

// `ticks` plus n units of `part`, or nullopt past the supported range.
std::optional<int64_t> AddPart(int64_t ticks, Part part, int64_t n) {
  switch (part) {
    case Part::kYear:
      return n > 1'000'000 || n < -1'000'000 ? std::nullopt : AddMonths(ticks, n * 12);
    case Part::kMonth:
      return AddMonths(ticks, n);
    default:
      return AddFixed(ticks, part, n);
  }
}

// DateTimeAdd(part, n, dt): n is truncated to an integer (not documented).
Value DateTimeAdd(Args a) {
  const std::optional<Part> part = PartArg(*a[0]);
  const std::optional<int64_t> ticks = DateTimeArg(*a[2]);
  if (!part || !a[1]->is_number() || !ticks || !std::isfinite(a[1]->as_double())) {
    return Value();
  }
  const std::optional<int64_t> result = AddPart(*ticks, *part, ToCount(*a[1]));
  return result ? DateTimeValue(*result) : Value();
}

// NOW(part, n) and AGO(part, n): the query's clock reading plus (NOW) or minus (AGO) n
// units of part, stepped as DateTimeAdd steps. The AGO page makes an invalid part or
// an n that is not an integer undefined; the NOW page is silent, and NOW takes the
// same rule so that NOW(p, n) and AGO(p, -n) always agree (DateTimeAdd, by contrast,
// truncates a fractional n).
Value OffsetFromNow(const Value& part_arg, const Value& count_arg, bool subtract,
                    int64_t now_ticks) {
  const std::optional<Part> part = PartArg(part_arg);
  const std::optional<int64_t> count = AsInt64(count_arg);
  if (!part || !count) {
    return Value();
  }
  int64_t n = *count;
  if (subtract) {
    // -INT64_MIN does not fit; INT64_MAX stands in exactly: either is out of range for
    // every part but the nanosecond, and both truncate to the same number of ticks.
    n = n == INT64_MIN ? INT64_MAX : -n;
  }
  const std::optional<int64_t> result = AddPart(now_ticks, *part, n);
  return result ? DateTimeValue(*result) : Value();
}

// NOW() is GetCurrentDateTime(). The page gives only NOW() and NOW(part, n); a single
// argument, which the min/max argument count cannot reject, is undefined.
Value Now(Args a, const CallContext& context) {
  if (a.empty()) {
    return GetCurrentDateTime(a, context);
  }
  return a.size() == 2 ? OffsetFromNow(*a[0], *a[1], false, context.now_ticks) : Value();
}

Value Ago(Args a, const CallContext& context) {
  return OffsetFromNow(*a[0], *a[1], true, context.now_ticks);
}

// DateTimeDiff(part, start, end): the number of part boundaries crossed, end - start:
// DateTimeDiff("yyyy", "2020-12-31T23:59:59Z", "2021-01-01T00:00:00Z") = 1.
Value DateTimeDiff(Args a) {
  const std::optional<Part> part = PartArg(*a[0]);
  const std::optional<int64_t> start = DateTimeArg(*a[1]);
  const std::optional<int64_t> end = DateTimeArg(*a[2]);
  if (!part || !start || !end) {
    return Value();
  }
  const Civil s = CivilFromTicks(*start);
  const Civil e = CivilFromTicks(*end);
  switch (*part) {
    case Part::kYear:
      return Value::Int(e.year - s.year);
    case Part::kMonth:
      return Value::Int((e.year * 12 + e.month) - (s.year * 12 + s.month));
    case Part::kNanosecond: {
      // Up to about 3.2e20 over the supported range: past int64 it is a double.
      const Int128 ns = (static_cast<Int128>(*end) - *start) * 100;
      if (ns > INT64_MAX || ns < INT64_MIN) {
        return Value::Double(static_cast<double>(ns));
      }
      return Value::Int(static_cast<int64_t>(ns));
    }
    default: {
      const int64_t unit = TicksPer(*part);
      return Value::Int(FloorDiv(*end, unit) - FloorDiv(*start, unit));
    }
  }
}

// The value of `part` in `ticks`, as DateTimePart(part, dt) gives it: millisecond,
// microsecond and nanosecond are the fraction of the second in those units
// ("…20.1301617Z" has 130 ms, 130161 mcs and 130161700 ns).
Value PartOf(int64_t ticks, Part part) {
  const Civil c = CivilFromTicks(ticks);
  const int64_t fraction = c.time % kTicksPerSecond;
  switch (part) {
    case Part::kYear:
      return Value::Int(c.year);
    case Part::kMonth:
      return Value::Int(c.month);
    case Part::kDay:
      return Value::Int(c.day);
    case Part::kHour:
      return Value::Int(c.time / kTicksPerHour);
    case Part::kMinute:
      return Value::Int(c.time / kTicksPerMinute % 60);
    case Part::kSecond:
      return Value::Int(c.time / kTicksPerSecond % 60);
    case Part::kMillisecond:
      return Value::Int(fraction / kTicksPerMillisecond);
    case Part::kMicrosecond:
      return Value::Int(fraction / kTicksPerMicrosecond);
    case Part::kNanosecond:
      return Value::Int(fraction * 100);
  }
  return Value();
}

Value DateTimePart(Args a) {
  const std::optional<Part> part = PartArg(*a[0]);
  const std::optional<int64_t> ticks = DateTimeArg(*a[1]);
  return part && ticks ? PartOf(*ticks, *part) : Value();
}

// YEAR(dt), MONTH(dt), DAY(dt): "the same as the DateTimePart function" with that part,
// so an argument DateTimePart rejects is undefined here too.
Value Year(Args a) {
  const std::optional<int64_t> ticks = DateTimeArg(*a[0]);
  return ticks ? PartOf(*ticks, Part::kYear) : Value();
}
Value Month(Args a) {
  const std::optional<int64_t> ticks = DateTimeArg(*a[0]);
  return ticks ? PartOf(*ticks, Part::kMonth) : Value();
}
Value Day(Args a) {
  const std::optional<int64_t> ticks = DateTimeArg(*a[0]);
  return ticks ? PartOf(*ticks, Part::kDay) : Value();
}

// DATETIMEFORMAT(dt, format): dt written with a custom format string (datetime_format.h).
// An invalid dt, a format that is not a string, or a malformed format is undefined,
// as invalid input is for the other date functions.
Value DateTimeFormat(Args a) {
  const std::optional<int64_t> ticks = DateTimeArg(*a[0]);
  if (!ticks || !a[1]->is_string()) {
    return Value();
  }
  const Civil c = CivilFromTicks(*ticks);
  const DateTimeFields fields{
      .year = c.year,
      .month = c.month,
      .day = c.day,
      .hour = c.time / kTicksPerHour,
      .minute = c.time / kTicksPerMinute % 60,
      .second = c.time / kTicksPerSecond % 60,
      .fraction = c.time % kTicksPerSecond,
      // 1970-01-01 was a Thursday.
      .day_of_week = FloorMod(FloorDiv(*ticks, kTicksPerDay) + 4, 7),
  };
  std::optional<std::string> text = FormatDateTimeFields(fields, a[1]->as_string());
  return text ? Value::String(std::move(*text)) : Value();
}

// DateTimeBin(dt, part [, size [, origin]]): the latest origin + k * size parts that is
// not after dt. Size is truncated and must be positive; the origin defaults to the
// Unix epoch. Years and months step by calendar months from the origin.
Value DateTimeBin(Args a) {
  const std::optional<int64_t> ticks = DateTimeArg(*a[0]);
  const std::optional<Part> part = PartArg(*a[1]);
  if (!ticks || !part || (a.size() > 2 && !a[2]->is_number())) {
    return Value();
  }
  const int64_t size = a.size() > 2 ? ToCount(*a[2]) : 1;
  std::optional<int64_t> origin = int64_t{0};
  if (a.size() > 3) {
    origin = DateTimeArg(*a[3]);
  }
  if (size <= 0 || !origin) {
    return Value();
  }
  if (*part == Part::kYear || *part == Part::kMonth) {
    if (size > 12 * 10000) {
      return Value();
    }
    const int64_t step = *part == Part::kYear ? size * 12 : size;
    const Civil t = CivilFromTicks(*ticks);
    const Civil o = CivilFromTicks(*origin);
    const int64_t months = (t.year * 12 + t.month) - (o.year * 12 + o.month);
    int64_t k = FloorDiv(months, step) * step;
    std::optional<int64_t> binned = AddMonths(*origin, k);
    if (binned && *binned > *ticks) {
      binned = AddMonths(*origin, k - step);
    }
    return binned ? DateTimeValue(*binned) : Value();
  }
  const Int128 unit = *part == Part::kNanosecond ? static_cast<Int128>(size) / 100
                                                 : static_cast<Int128>(size) * TicksPer(*part);
  if (unit == 0) {
    return DateTimeValue(*ticks);
  }
  const Int128 offset = static_cast<Int128>(*ticks) - *origin;
  Int128 steps = offset / unit;
  if (offset % unit != 0 && offset < 0) {
    --steps;
  }
  const Int128 binned = *origin + steps * unit;
  if (binned < kMinTicks || binned > kMaxTicks) {
    return Value();
  }
  return DateTimeValue(static_cast<int64_t>(binned));
}

// DateTimeFromParts(y, mo, d [, h [, mi [, s [, fraction7]]]]): every part an integer
// in range; the fraction is in 100 ns units (0-9999999).
Value DateTimeFromParts(Args a) {
  std::array<int64_t, 7> parts = {0, 0, 0, 0, 0, 0, 0};
  for (size_t i = 0; i < a.size(); ++i) {
    const std::optional<int64_t> part = AsInt64(*a[i]);
    if (!part) {
      return Value();
    }
    parts[i] = *part;
  }
  const std::optional<int64_t> ticks =
      TicksFromParts(parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6]);
  return ticks ? DateTimeValue(*ticks) : Value();
}

Value DateTimeToTicks(Args a) {
  const std::optional<int64_t> ticks = DateTimeArg(*a[0]);
  return ticks ? Value::Int(*ticks) : Value();
}

Value DateTimeToTimestamp(Args a) {
  const std::optional<int64_t> ticks = DateTimeArg(*a[0]);
  return ticks ? Value::Int(FloorDiv(*ticks, kTicksPerMillisecond)) : Value();
}

// A number of `unit`-tick units as ticks, truncated toward zero; nullopt when it is
// not finite or out of range.
std::optional<int64_t> ScaledTicks(const Value& v, int64_t unit) {
  if (!v.is_number()) {
    return std::nullopt;
  }
  if (v.is_integer()) {
    const Int128 ticks = static_cast<Int128>(v.as_int()) * unit;
    if (ticks < kMinTicks || ticks > kMaxTicks) {
      return std::nullopt;
    }
    return static_cast<int64_t>(ticks);
  }
  const double ticks = std::trunc(v.as_double() * static_cast<double>(unit));
  if (!(ticks >= static_cast<double>(kMinTicks) && ticks <= static_cast<double>(kMaxTicks))) {
    return std::nullopt;
  }
  return static_cast<int64_t>(ticks);
}

Value TicksToDateTime(Args a) {
  const std::optional<int64_t> ticks = ScaledTicks(*a[0], 1);
  return ticks ? DateTimeValue(*ticks) : Value();
}

Value TimestampToDateTime(Args a) {
  const std::optional<int64_t> ticks = ScaledTicks(*a[0], kTicksPerMillisecond);
  return ticks ? DateTimeValue(*ticks) : Value();
}

// Reads exactly `count` decimal digits at `pos`.
std::optional<int64_t> Digits(std::string_view s, size_t& pos, size_t count) {
  if (pos + count > s.size()) {
    return std::nullopt;
  }
  int64_t n = 0;
  for (size_t i = 0; i < count; ++i) {
    const char c = s[pos + i];
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    n = n * 10 + (c - '0');
  }
  pos += count;
  return n;
}

bool Expect(std::string_view s, size_t& pos, char c) {
  if (pos < s.size() && s[pos] == c) {
    ++pos;
    return true;
  }
  return false;
}

constexpr AggregateKind kScalar = AggregateKind::kNone;

constexpr std::array kFunctions = {
    FunctionInfo{"GetCurrentDateTime", 0, 0, nullptr, kScalar, GetCurrentDateTime},
    FunctionInfo{"GetCurrentDateTimeStatic", 0, 0, nullptr, kScalar, GetCurrentDateTime},
    FunctionInfo{"GetCurrentTicks", 0, 0, nullptr, kScalar, GetCurrentTicks},
    FunctionInfo{"GetCurrentTicksStatic", 0, 0, nullptr, kScalar, GetCurrentTicks},
    FunctionInfo{"GetCurrentTimestamp", 0, 0, nullptr, kScalar, GetCurrentTimestamp},
    FunctionInfo{"GetCurrentTimestampStatic", 0, 0, nullptr, kScalar, GetCurrentTimestamp},
    FunctionInfo{"DateTimeAdd", 3, 3, DateTimeAdd, kScalar},
    FunctionInfo{"DateTimeBin", 2, 4, DateTimeBin, kScalar},
    FunctionInfo{"DateTimeDiff", 3, 3, DateTimeDiff, kScalar},
    FunctionInfo{"DateTimeFromParts", 3, 7, DateTimeFromParts, kScalar},
    FunctionInfo{"DateTimePart", 2, 2, DateTimePart, kScalar},
    FunctionInfo{"DateTimeToTicks", 1, 1, DateTimeToTicks, kScalar},
    FunctionInfo{"DateTimeToTimestamp", 1, 1, DateTimeToTimestamp, kScalar},
    FunctionInfo{"TicksToDateTime", 1, 1, TicksToDateTime, kScalar},
    FunctionInfo{"TimestampToDateTime", 1, 1, TimestampToDateTime, kScalar},
    FunctionInfo{"YEAR", 1, 1, Year, kScalar},
    FunctionInfo{"MONTH", 1, 1, Month, kScalar},
    FunctionInfo{"DAY", 1, 1, Day, kScalar},
    FunctionInfo{"NOW", 0, 2, nullptr, kScalar, Now},
    FunctionInfo{"AGO", 2, 2, nullptr, kScalar, Ago},
    FunctionInfo{"DateTimeFormat", 2, 2, DateTimeFormat, kScalar},
};

}  // namespace

// YYYY-MM-DD, optionally followed by 'T' or a space and hh:mm:ss, then optionally 1-7
// fractional digits and 'Z' (query-language.md §5.3, §5.7).
std::optional<int64_t> ParseDateTime(std::string_view s) {
  size_t pos = 0;
  const auto year = Digits(s, pos, 4);
  if (!year || !Expect(s, pos, '-')) return std::nullopt;
  const auto month = Digits(s, pos, 2);
  if (!month || !Expect(s, pos, '-')) return std::nullopt;
  const auto day = Digits(s, pos, 2);
  if (!day) return std::nullopt;
  int64_t hour = 0;
  int64_t minute = 0;
  int64_t second = 0;
  int64_t fraction = 0;
  if (pos < s.size()) {
    if (!Expect(s, pos, 'T') && !Expect(s, pos, ' ')) return std::nullopt;
    const auto h = Digits(s, pos, 2);
    if (!h || !Expect(s, pos, ':')) return std::nullopt;
    const auto mi = Digits(s, pos, 2);
    if (!mi || !Expect(s, pos, ':')) return std::nullopt;
    const auto sec = Digits(s, pos, 2);
    if (!sec) return std::nullopt;
    hour = *h;
    minute = *mi;
    second = *sec;
    if (Expect(s, pos, '.')) {
      size_t digits = 0;
      while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9' && digits < 7) {
        fraction = fraction * 10 + (s[pos] - '0');
        ++pos;
        ++digits;
      }
      if (digits == 0) return std::nullopt;
      for (; digits < 7; ++digits) {
        fraction *= 10;
      }
    }
    Expect(s, pos, 'Z');
  }
  if (pos != s.size()) {
    return std::nullopt;
  }
  return TicksFromParts(*year, *month, *day, hour, minute, second, fraction);
}

std::span<const FunctionInfo> DateTimeFunctions() { return kFunctions; }

}  // namespace orrery::query::functions_internal
