// Date and time built-ins (query-language.md §5.7).

#include <gtest/gtest.h>

#include <chrono>

#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::Eval;
using testing::QueryRun;
using testing::RunQuery;

constexpr const char* kSample = "'2016-05-29T08:30:00.1301617Z'";

std::string Part(const std::string& part) {
  return Eval("DateTimePart('" + part + "', " + kSample + ")");
}

TEST(DateTimeFunctionsTest, TicksAndTimestamps) {
  EXPECT_EQ(Eval("DateTimeToTicks('2015-05-19T12:00:00Z')"), "[14320368000000000]");
  EXPECT_EQ(Eval("DateTimeToTimestamp('2015-05-19T12:00:00Z')"), "[1432036800000]");
  EXPECT_EQ(Eval("DateTimeToTicks('1970-01-01')"), "[0]");
  EXPECT_EQ(Eval("DateTimeToTicks('1969-12-31T23:59:59.9999999Z')"), "[-1]");
  EXPECT_EQ(Eval("DateTimeToTimestamp('1969-12-31T23:59:59.9999999Z')"), "[-1]");
  EXPECT_EQ(Eval("TicksToDateTime(15943368134575530)"), R"(["2020-07-09T23:20:13.4575530Z"])");
  EXPECT_EQ(Eval("TimestampToDateTime(1594227912345)"), R"(["2020-07-08T17:05:12.3450000Z"])");
  EXPECT_EQ(Eval("TicksToDateTime(-1)"), R"(["1969-12-31T23:59:59.9999999Z"])");
  EXPECT_EQ(Eval("TimestampToDateTime(0.5)"), R"(["1970-01-01T00:00:00.0005000Z"])");
}

TEST(DateTimeFunctionsTest, InvalidInputsAreUndefined) {
  EXPECT_EQ(Eval("DateTimeToTicks('2015-13-01')"), "[]");
  EXPECT_EQ(Eval("DateTimeToTicks('2015-05-19T24:00:00Z')"), "[]");
  EXPECT_EQ(Eval("DateTimeToTicks('2015-05-19T12:00:00+02:00')"), "[]");
  EXPECT_EQ(Eval("DateTimeToTicks('0000-01-01')"), "[]");
  EXPECT_EQ(Eval("DateTimeToTicks(1)"), "[]");
  EXPECT_EQ(Eval("DateTimeToTimestamp(null)"), "[]");
  EXPECT_EQ(Eval("TicksToDateTime('1')"), "[]");
  EXPECT_EQ(Eval("TicksToDateTime(9223372036854775807)"), "[]");  // past year 9999
  EXPECT_EQ(Eval("TimestampToDateTime(1e300)"), "[]");
}

TEST(DateTimeFunctionsTest, AcceptsSpaceAndShortFractions) {
  EXPECT_EQ(Eval("TicksToDateTime(DateTimeToTicks('2020-01-02 03:04:05.5'))"),
            R"(["2020-01-02T03:04:05.5000000Z"])");
  EXPECT_EQ(Eval("TicksToDateTime(DateTimeToTicks('2020-01-02'))"),
            R"(["2020-01-02T00:00:00.0000000Z"])");
  EXPECT_EQ(Eval("DateTimeToTicks('2020-01-02T03:04:05.')"), "[]");
}

TEST(DateTimeFunctionsTest, PartNamesAndValues) {
  EXPECT_EQ(Part("yyyy"), "[2016]");
  EXPECT_EQ(Part("YEAR"), "[2016]");
  EXPECT_EQ(Part("yy"), "[2016]");
  EXPECT_EQ(Part("month"), "[5]");
  EXPECT_EQ(Part("mm"), "[5]");
  EXPECT_EQ(Part("m"), "[5]");
  EXPECT_EQ(Part("dd"), "[29]");
  EXPECT_EQ(Part("d"), "[29]");
  EXPECT_EQ(Part("hh"), "[8]");
  EXPECT_EQ(Part("mi"), "[30]");
  EXPECT_EQ(Part("n"), "[30]");
  EXPECT_EQ(Part("ss"), "[0]");
  EXPECT_EQ(Part("s"), "[0]");
  EXPECT_EQ(Part("ms"), "[130]");
  EXPECT_EQ(Part("mcs"), "[130161]");
  EXPECT_EQ(Part("ns"), "[130161700]");
  EXPECT_EQ(Part("week"), "[]");
  EXPECT_EQ(Eval("DateTimePart(1, '2016-05-29')"), "[]");
  EXPECT_EQ(Eval("DateTimePart('dd', 'yesterday')"), "[]");
}

TEST(DateTimeFunctionsTest, FromParts) {
  EXPECT_EQ(Eval("DateTimeFromParts(2017, 4, 20, 13, 15, 20, 3456789)"),
            R"(["2017-04-20T13:15:20.3456789Z"])");
  EXPECT_EQ(Eval("DateTimeFromParts(2017, 4, 20)"), R"(["2017-04-20T00:00:00.0000000Z"])");
  EXPECT_EQ(Eval("DateTimeFromParts(2017, 4, 20, 13, 15)"), R"(["2017-04-20T13:15:00.0000000Z"])");
  EXPECT_EQ(Eval("DateTimeFromParts(2020, 2, 29)"), R"(["2020-02-29T00:00:00.0000000Z"])");
  EXPECT_EQ(Eval("DateTimeFromParts(2017, 2, 29)"), "[]");
  EXPECT_EQ(Eval("DateTimeFromParts(2017, 13, 1)"), "[]");
  EXPECT_EQ(Eval("DateTimeFromParts(2017, 1, 1, 24)"), "[]");
  EXPECT_EQ(Eval("DateTimeFromParts(2017, 1, 1, 0, 0, 0, 10000000)"), "[]");
  EXPECT_EQ(Eval("DateTimeFromParts(2017, 1, 1.5)"), "[]");
  EXPECT_EQ(Eval("DateTimeFromParts('2017', 1, 1)"), "[]");
}

TEST(DateTimeFunctionsTest, AddClampsTheDayOfMonth) {
  EXPECT_EQ(Eval("DateTimeAdd('mm', 1, '2020-07-09T23:20:13.4575530Z')"),
            R"(["2020-08-09T23:20:13.4575530Z"])");
  EXPECT_EQ(Eval("DateTimeAdd('mm', 1, '2021-01-31T10:00:00Z')"),
            R"(["2021-02-28T10:00:00.0000000Z"])");
  EXPECT_EQ(Eval("DateTimeAdd('yyyy', 1, '2020-02-29')"), R"(["2021-02-28T00:00:00.0000000Z"])");
  EXPECT_EQ(Eval("DateTimeAdd('mm', -13, '2021-01-15')"), R"(["2019-12-15T00:00:00.0000000Z"])");
  EXPECT_EQ(Eval("DateTimeAdd('dd', -1, '2021-03-01')"), R"(["2021-02-28T00:00:00.0000000Z"])");
  EXPECT_EQ(Eval("DateTimeAdd('hh', 25, '2021-01-01')"), R"(["2021-01-02T01:00:00.0000000Z"])");
  EXPECT_EQ(Eval("DateTimeAdd('ss', 1.9, '2021-01-01')"), R"(["2021-01-01T00:00:01.0000000Z"])");
  EXPECT_EQ(Eval("DateTimeAdd('ms', 1, '2021-01-01')"), R"(["2021-01-01T00:00:00.0010000Z"])");
  EXPECT_EQ(Eval("DateTimeAdd('mcs', 1, '2021-01-01')"), R"(["2021-01-01T00:00:00.0000010Z"])");
  EXPECT_EQ(Eval("DateTimeAdd('ns', 100, '2021-01-01')"), R"(["2021-01-01T00:00:00.0000001Z"])");
  EXPECT_EQ(Eval("DateTimeAdd('yyyy', 1, '9999-06-01')"), "[]");
  EXPECT_EQ(Eval("DateTimeAdd('ss', 9223372036854775807, '2021-01-01')"), "[]");
  EXPECT_EQ(Eval("DateTimeAdd('week', 1, '2021-01-01')"), "[]");
  EXPECT_EQ(Eval("DateTimeAdd('dd', '1', '2021-01-01')"), "[]");
  EXPECT_EQ(Eval("DateTimeAdd('dd', 1, 'x')"), "[]");
}

TEST(DateTimeFunctionsTest, DiffCountsBoundariesCrossed) {
  EXPECT_EQ(Eval("DateTimeDiff('yyyy', '2020-12-31T23:59:59Z', '2021-01-01T00:00:00Z')"), "[1]");
  EXPECT_EQ(Eval("DateTimeDiff('yyyy', '2020-01-01', '2020-12-31')"), "[0]");
  EXPECT_EQ(Eval("DateTimeDiff('mm', '2020-01-31', '2020-02-01')"), "[1]");
  EXPECT_EQ(Eval("DateTimeDiff('dd', '2020-01-01T23:59:59Z', '2020-01-02T00:00:00Z')"), "[1]");
  EXPECT_EQ(Eval("DateTimeDiff('dd', '2020-01-02', '2020-01-01')"), "[-1]");
  EXPECT_EQ(Eval("DateTimeDiff('dd', '1969-12-31T23:00:00Z', '1970-01-01T01:00:00Z')"), "[1]");
  EXPECT_EQ(Eval("DateTimeDiff('hh', '2020-01-01T00:59:00Z', '2020-01-01T01:00:00Z')"), "[1]");
  EXPECT_EQ(Eval("DateTimeDiff('mi', '2020-01-01T00:00:59Z', '2020-01-01T00:01:00Z')"), "[1]");
  EXPECT_EQ(Eval("DateTimeDiff('ss', '2020-01-01', '2020-01-01T00:01:00Z')"), "[60]");
  EXPECT_EQ(Eval("DateTimeDiff('ms', '2020-01-01', '2020-01-01T00:00:01Z')"), "[1000]");
  EXPECT_EQ(Eval("DateTimeDiff('mcs', '2020-01-01', '2020-01-01T00:00:00.001Z')"), "[1000]");
  EXPECT_EQ(Eval("DateTimeDiff('ns', '2020-01-01', '2020-01-01T00:00:00.0000001Z')"), "[100]");
  EXPECT_EQ(Eval("DateTimeDiff('ns', '0001-01-01', '9999-12-31') > 0"), "[true]");
  EXPECT_EQ(Eval("DateTimeDiff('x', '2020-01-01', '2020-01-02')"), "[]");
  EXPECT_EQ(Eval("DateTimeDiff('dd', '2020-01-01', null)"), "[]");
}

TEST(DateTimeFunctionsTest, BinFloorsToMultiplesFromTheOrigin) {
  constexpr const char* kDt = "'2021-06-28T17:24:29.2991234Z'";
  auto bin = [&](const std::string& rest) {
    return Eval("DateTimeBin(" + std::string(kDt) + ", " + rest + ")");
  };
  EXPECT_EQ(bin("'hh'"), R"(["2021-06-28T17:00:00.0000000Z"])");
  EXPECT_EQ(bin("'hh', 3"), R"(["2021-06-28T15:00:00.0000000Z"])");
  EXPECT_EQ(bin("'mi', 5"), R"(["2021-06-28T17:20:00.0000000Z"])");
  EXPECT_EQ(bin("'ss'"), R"(["2021-06-28T17:24:29.0000000Z"])");
  EXPECT_EQ(bin("'ms', 10"), R"(["2021-06-28T17:24:29.2900000Z"])");
  EXPECT_EQ(bin("'dd'"), R"(["2021-06-28T00:00:00.0000000Z"])");
  EXPECT_EQ(bin("'dd', 1, '2021-01-01T12:00:00Z'"), R"(["2021-06-28T12:00:00.0000000Z"])");
  EXPECT_EQ(bin("'mm'"), R"(["2021-06-01T00:00:00.0000000Z"])");
  EXPECT_EQ(bin("'mm', 4"), R"(["2021-05-01T00:00:00.0000000Z"])");
  EXPECT_EQ(bin("'yyyy'"), R"(["2021-01-01T00:00:00.0000000Z"])");
  EXPECT_EQ(bin("'ns', 50"), R"(["2021-06-28T17:24:29.2991234Z"])");
  EXPECT_EQ(Eval("DateTimeBin('1969-12-31T23:00:00Z', 'dd')"),
            R"(["1969-12-31T00:00:00.0000000Z"])");
  EXPECT_EQ(bin("'hh', 0"), "[]");
  EXPECT_EQ(bin("'hh', -1"), "[]");
  EXPECT_EQ(bin("'week'"), "[]");
  EXPECT_EQ(bin("'hh', 1, 'x'"), "[]");
  EXPECT_EQ(Eval("DateTimeBin(1, 'hh')"), "[]");
}

TEST(DateTimeFunctionsTest, CurrentTimeIsOneValuePerQuery) {
  QueryRun run = RunQuery(
      "SELECT VALUE [GetCurrentTicks(), GetCurrentDateTime(), GetCurrentTimestamp(), "
      "GetCurrentTicksStatic()] FROM c",
      R"([{"id":"1"},{"id":"2"},{"id":"3"}])");
  ASSERT_TRUE(run.status.ok());
  ASSERT_EQ(run.values.size(), 3u);
  EXPECT_EQ(json::Write(run.values[0]), json::Write(run.values[1]));
  EXPECT_EQ(json::Write(run.values[0]), json::Write(run.values[2]));
  EXPECT_EQ(Eval("DateTimeToTicks(GetCurrentDateTime()) = GetCurrentTicks()"), "[true]");
  EXPECT_EQ(Eval("GetCurrentTimestamp() = FLOOR(GetCurrentTicks() / 10000)"), "[true]");
  EXPECT_EQ(Eval("GetCurrentDateTimeStatic() = GetCurrentDateTime()"), "[true]");
  EXPECT_EQ(Eval("GetCurrentTimestampStatic() = GetCurrentTimestamp()"), "[true]");
}

int64_t WallClockMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The one value `text` returns lies between two wall-clock readings around the run.
void ExpectWallClockMillis(std::string_view text) {
  const int64_t before = WallClockMillis();
  QueryRun run = RunQuery(text);
  const int64_t after = WallClockMillis();
  ASSERT_TRUE(run.status.ok()) << text;
  ASSERT_EQ(run.values.size(), 1u) << text;
  EXPECT_GE(run.values[0].as_int(), before) << text;
  EXPECT_LE(run.values[0].as_int(), after) << text;
}

TEST(DateTimeFunctionsTest, CurrentTimeIsNow) {
  ExpectWallClockMillis("SELECT VALUE GetCurrentTimestamp()");
  EXPECT_EQ(Eval("IS_DATETIME(GetCurrentDateTime())"), "[true]");
}

// YEAR, MONTH and DAY behave as DateTimePart with that part (the service's pages).
TEST(DateTimeFunctionsTest, YearMonthDayMatchDateTimePart) {
  EXPECT_EQ(Eval("YEAR('2000-10-10')"), "[2000]");
  EXPECT_EQ(Eval("YEAR('2024-01-10T14:15:20')"), "[2024]");
  EXPECT_EQ(Eval("YEAR('1989-03-03T12:12:12.1234567Z')"), "[1989]");
  EXPECT_EQ(Eval("MONTH('2024-01-10')"), "[1]");
  EXPECT_EQ(Eval("MONTH('2000-12-12T10:00:00')"), "[12]");
  EXPECT_EQ(Eval("MONTH('1989-03-03T12:12:12.1234567Z')"), "[3]");
  EXPECT_EQ(Eval("DAY('2024-01-10')"), "[10]");
  EXPECT_EQ(Eval("DAY('2000-12-12T10:00:00')"), "[12]");
  EXPECT_EQ(Eval("DAY('1989-03-03T12:12:12.1234567Z')"), "[3]");
  EXPECT_EQ(Eval("year('0001-01-01') = DateTimePart('yyyy', '0001-01-01')"), "[true]");
  EXPECT_EQ(
      Eval(std::string("[YEAR(") + kSample + "), MONTH(" + kSample + "), DAY(" + kSample + ")]"),
      "[[2016,5,29]]");
}

TEST(DateTimeFunctionsTest, YearMonthDayOfInvalidInputAreUndefined) {
  EXPECT_EQ(Eval("YEAR('not a date')"), "[]");
  EXPECT_EQ(Eval("YEAR(2020)"), "[]");
  EXPECT_EQ(Eval("MONTH(null)"), "[]");
  EXPECT_EQ(Eval("MONTH(undefined)"), "[]");
  EXPECT_EQ(Eval("DAY('2021-02-30')"), "[]");
  EXPECT_EQ(Eval("DAY('2021-02-03T10:00:00+01:00')"), "[]");
  EXPECT_FALSE(RunQuery("SELECT VALUE YEAR()").status.ok());
  EXPECT_FALSE(RunQuery("SELECT VALUE DAY('2021-01-01', 'dd')").status.ok());
}

// Every NOW and AGO of a query offsets the same clock reading that GetCurrentDateTime
// returns, so these hold exactly, whatever the wall clock says.
TEST(DateTimeFunctionsTest, NowAndAgoOffsetTheQueryClock) {
  EXPECT_EQ(Eval("NOW() = GetCurrentDateTime()"), "[true]");
  EXPECT_EQ(Eval("IS_DATETIME(NOW())"), "[true]");
  for (const char* offset : {"'yyyy', 1", "'yyyy', -1", "'mm', 13", "'dd', -1", "'hh', 25",
                             "'ss', 30", "'ms', 4", "'mcs', 7", "'ns', 300"}) {
    SCOPED_TRACE(offset);
    EXPECT_EQ(Eval(std::string("NOW(") + offset + ") = DateTimeAdd(" + offset +
                   ", GetCurrentDateTime())"),
              "[true]");
  }
  EXPECT_EQ(Eval("AGO('yyyy', 1) = DateTimeAdd('yyyy', -1, GetCurrentDateTime())"), "[true]");
  EXPECT_EQ(Eval("AGO('yyyy', -1) = NOW('yyyy', 1)"), "[true]");
  EXPECT_EQ(Eval("AGO('ss', 30) = DateTimeAdd('ss', -30, GetCurrentDateTime())"), "[true]");
  EXPECT_EQ(Eval("AGO('ms', 4) = DateTimeAdd('ms', -4, GetCurrentDateTime())"), "[true]");
  EXPECT_EQ(Eval("DateTimeDiff('ss', AGO('ss', 30), NOW('ss', 30))"), "[60]");
  EXPECT_EQ(Eval("AGO('day', 0) = NOW()"), "[true]");
  EXPECT_EQ(Eval("NOW('d', 2.0) = NOW('dd', 2)"), "[true]");  // an integral number
  EXPECT_EQ(Eval("NOW() > AGO('dd', 1)"), "[true]");
  // -INT64_MIN nanoseconds is about 292 years: in range, and computed without overflow
  // (DateTimeDiff counts the 100 ns ticks back in nanoseconds).
  EXPECT_EQ(Eval("DateTimeDiff('ns', NOW(), AGO('ns', -9223372036854775808))"),
            "[9223372036854775800]");
  EXPECT_EQ(Eval("DateTimeDiff('ns', NOW(), AGO('ns', 9223372036854775807))"),
            "[-9223372036854775800]");

  QueryRun run = RunQuery("SELECT VALUE [NOW(), AGO('hh', 1), NOW('mi', 5)] FROM c",
                          R"([{"id":"1"},{"id":"2"},{"id":"3"}])");
  ASSERT_TRUE(run.status.ok());
  ASSERT_EQ(run.values.size(), 3u);
  EXPECT_EQ(json::Write(run.values[0]), json::Write(run.values[1]));
  EXPECT_EQ(json::Write(run.values[0]), json::Write(run.values[2]));
}

TEST(DateTimeFunctionsTest, NowIsTheWallClock) {
  ExpectWallClockMillis("SELECT VALUE DateTimeToTimestamp(NOW())");
}

TEST(DateTimeFunctionsTest, NowAndAgoOfInvalidInputAreUndefined) {
  EXPECT_EQ(Eval("NOW('week', 1)"), "[]");
  EXPECT_EQ(Eval("NOW('dd', 1.5)"), "[]");
  EXPECT_EQ(Eval("NOW('dd', '1')"), "[]");
  EXPECT_EQ(Eval("NOW('dd', null)"), "[]");
  EXPECT_EQ(Eval("NOW(1, 1)"), "[]");
  EXPECT_EQ(Eval("NOW('dd')"), "[]");  // neither NOW() nor NOW(part, n)
  EXPECT_EQ(Eval("AGO('x', 1)"), "[]");
  EXPECT_EQ(Eval("AGO('dd', 1.5)"), "[]");
  EXPECT_EQ(Eval("AGO('dd', '1')"), "[]");
  EXPECT_EQ(Eval("AGO('dd', 1e30)"), "[]");
  EXPECT_EQ(Eval("AGO('yyyy', 100000)"), "[]");  // before year 1
  EXPECT_EQ(Eval("NOW('yyyy', 100000)"), "[]");  // after year 9999
  EXPECT_EQ(Eval("AGO('ss', -9223372036854775808)"), "[]");
  EXPECT_FALSE(RunQuery("SELECT VALUE AGO('dd')").status.ok());
  EXPECT_FALSE(RunQuery("SELECT VALUE AGO()").status.ok());
  EXPECT_FALSE(RunQuery("SELECT VALUE NOW('dd', 1, 2)").status.ok());
}

std::string Format(const std::string& format, const std::string& dt = kSample) {
  return Eval("DATETIMEFORMAT(" + dt + ", '" + format + "')");
}

TEST(DateTimeFunctionsTest, FormatMatchesTheServiceExamples) {
  EXPECT_EQ(Eval(R"(DATETIMEFORMAT("2024-10-10 14:40:20", "yyyyMMdd"))"), R"(["20241010"])");
  EXPECT_EQ(Eval(R"(DATETIMEFORMAT("2024-10-10 14:40:20", "yyyy-MM-dd [HH:mm:ss]"))"),
            R"(["2024-10-10 [14:40:20]"])");
  EXPECT_EQ(Eval(R"(DATETIMEFORMAT("2024-10-10 14:40:20",
                                   "To\\da\\y i\\s: yyyy-MM-ddTHH:mm:ss.fff"))"),
            R"(["Today is: 2024-10-10T14:40:20.000"])");
  // FFF of a zero fraction writes nothing but keeps the '.' before it.
  EXPECT_EQ(Eval(R"(DATETIMEFORMAT("2024-10-10 14:40:20",
                                   "To\\da\\y i\\s: yyyy-MM-ddTHH:mm:ss.FFF"))"),
            R"(["Today is: 2024-10-10T14:40:20."])");
}

TEST(DateTimeFunctionsTest, FormatSpecifiers) {
  EXPECT_EQ(Format("yyyy-MM-ddTHH:mm:ss.fffffffZ"), R"(["2016-05-29T08:30:00.1301617Z"])");
  EXPECT_EQ(Format("y yy yyy yyyy yyyyy"), R"(["16 16 2016 2016 02016"])");
  EXPECT_EQ(Format("y|yy", "'2009-01-01'"), R"(["9|09"])");
  EXPECT_EQ(Format("M MM MMM MMMM MMMMM"), R"(["5 05 May May May"])");
  EXPECT_EQ(Format("MMM MMMM", "'2024-10-10'"), R"(["Oct October"])");
  EXPECT_EQ(Format("d dd ddd dddd ddddd"), R"(["29 29 Sun Sunday Sunday"])");
  EXPECT_EQ(Format("d/M/yy", "'2024-01-05'"), R"(["5/1/24"])");
  EXPECT_EQ(Format("h hh hhh H HH t tt"), R"(["8 08 08 8 08 A AM"])");
  EXPECT_EQ(Format("h:mm tt", "'2024-10-10T14:40:20Z'"), R"(["2:40 PM"])");
  EXPECT_EQ(Format("hh HH", "'2024-10-10T00:05:00Z'"), R"(["12 00"])");
  EXPECT_EQ(Format("m mm s ss", "'2024-10-10T14:04:05Z'"), R"(["4 04 5 05"])");
  EXPECT_EQ(Format("f ff fff ffff fffff ffffff fffffff"),
            R"(["1 13 130 1301 13016 130161 1301617"])");
  EXPECT_EQ(Format("F FF FFF FFFF FFFFF FFFFFF FFFFFFF"),
            R"(["1 13 13 1301 13016 130161 1301617"])");
  EXPECT_EQ(Format("ss.FFFFFFF|", "'2024-10-10T14:40:20.5Z'"), R"(["20.5|"])");
  EXPECT_EQ(Format("K z zz zzz g"), R"(["Z +0 +00 +00:00 A.D."])");
  EXPECT_EQ(Format("dddd, MMMM d, yyyy", "'2024-10-10'"), R"(["Thursday, October 10, 2024"])");
  EXPECT_EQ(Format("yyyy dddd", "'0001-01-01'"), R"(["0001 Monday"])");
  EXPECT_EQ(Format("dddd", "'1969-12-31T23:59:59Z'"), R"(["Wednesday"])");
}

TEST(DateTimeFunctionsTest, FormatLiterals) {
  EXPECT_EQ(Format("\"day\" d, \"year\" yyyy"), R"(["day 29, year 2016"])");
  EXPECT_EQ(Format("\\\\d\\\\\\\\"), R"(["d\\"])");  // \d\\ : a d and a backslash
  EXPECT_EQ(Format("%d"), R"(["29"])");
  EXPECT_EQ(Format("%M|%y"), R"(["5|16"])");
  EXPECT_EQ(Format("Today"), R"(["To29a16"])");  // unescaped d and y are specifiers
  EXPECT_EQ(Format("[#0-9 _.,;:/]"), R"(["[#0-9 _.,;:/]"])");
  EXPECT_EQ(Format(""), R"([""])");
}

TEST(DateTimeFunctionsTest, FormatOfInvalidInputIsUndefined) {
  EXPECT_EQ(Format("yyyy", "'not a date'"), "[]");
  EXPECT_EQ(Format("yyyy", "1"), "[]");
  EXPECT_EQ(Format("yyyy", "'2021-02-30'"), "[]");
  EXPECT_EQ(Eval("DATETIMEFORMAT('2024-10-10', 1)"), "[]");
  EXPECT_EQ(Eval("DATETIMEFORMAT('2024-10-10', null)"), "[]");
  EXPECT_EQ(Format("ffffffff"), "[]");  // more than seven fraction digits
  EXPECT_EQ(Format("FFFFFFFF"), "[]");
  EXPECT_EQ(Format("\"open"), "[]");    // unterminated quote
  EXPECT_EQ(Format("yyyy\\\\"), "[]");  // trailing backslash
  EXPECT_EQ(Format("%"), "[]");
  EXPECT_EQ(Format("%%"), "[]");
  EXPECT_FALSE(RunQuery("SELECT VALUE DATETIMEFORMAT('2024-10-10')").status.ok());
}

}  // namespace
}  // namespace orrery::query
