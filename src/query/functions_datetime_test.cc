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

TEST(DateTimeFunctionsTest, CurrentTimeIsNow) {
  const int64_t before = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  QueryRun run = RunQuery("SELECT VALUE GetCurrentTimestamp()");
  const int64_t after = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  ASSERT_TRUE(run.status.ok());
  ASSERT_EQ(run.values.size(), 1u);
  EXPECT_GE(run.values[0].as_int(), before);
  EXPECT_LE(run.values[0].as_int(), after);
  EXPECT_EQ(Eval("IS_DATETIME(GetCurrentDateTime())"), "[true]");
}

}  // namespace
}  // namespace orrery::query
