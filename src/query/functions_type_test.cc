// Type checks (query-language.md §5.3), IIF (§5.6) and DocumentId (§5.8).

#include <gtest/gtest.h>

#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::Eval;
using testing::Execute;

TEST(TypeFunctionsTest, AlwaysBooleansEvenForUndefined) {
  EXPECT_EQ(Eval("[IS_ARRAY([]), IS_ARRAY({}), IS_ARRAY(undefined)]"), "[[true,false,false]]");
  EXPECT_EQ(Eval("[IS_BOOL(false), IS_BOOL(0), IS_BOOL(null)]"), "[[true,false,false]]");
  EXPECT_EQ(Eval("[IS_BOOLEAN(true), IS_BOOLEAN(1), IS_BOOLEAN('true')]"), "[[true,false,false]]");
  EXPECT_EQ(Eval("[IS_DEFINED(null), IS_DEFINED(undefined), IS_DEFINED({}.a)]"),
            "[[true,false,false]]");
  EXPECT_EQ(Eval("[IS_NULL(null), IS_NULL(undefined), IS_NULL(0)]"), "[[true,false,false]]");
  EXPECT_EQ(Eval("[IS_NUMBER(1.5), IS_NUMBER('1'), IS_NUMBER(undefined)]"), "[[true,false,false]]");
  EXPECT_EQ(Eval("[IS_OBJECT({}), IS_OBJECT([]), IS_OBJECT(null)]"), "[[true,false,false]]");
  EXPECT_EQ(Eval("[IS_STRING(''), IS_STRING(1), IS_STRING(undefined)]"), "[[true,false,false]]");
}

TEST(TypeFunctionsTest, PrimitiveIsStringNumberBoolOrNull) {
  EXPECT_EQ(Eval("[IS_PRIMITIVE('a'), IS_PRIMITIVE(1), IS_PRIMITIVE(true), IS_PRIMITIVE(null)]"),
            "[[true,true,true,true]]");
  EXPECT_EQ(Eval("[IS_PRIMITIVE([]), IS_PRIMITIVE({}), IS_PRIMITIVE(undefined)]"),
            "[[false,false,false]]");
}

TEST(TypeFunctionsTest, FiniteNumber) {
  EXPECT_EQ(Eval("[IS_FINITE_NUMBER(1.5), IS_FINITE_NUMBER(8.9 / 0.0), IS_FINITE_NUMBER('1')]"),
            "[[true,false,false]]");
}

TEST(TypeFunctionsTest, IntegerMeansAnInt64Value) {
  EXPECT_EQ(Eval("IS_INTEGER(9223372036854775807)"), "[true]");
  EXPECT_EQ(Eval("IS_INTEGER(18446744073709551615)"), "[false]");
  EXPECT_EQ(Eval("[IS_INTEGER(1), IS_INTEGER(1.5), IS_INTEGER('1'), IS_INTEGER(undefined)]"),
            "[[true,false,false,false]]");
}

TEST(TypeFunctionsTest, DateTimeAcceptsTheIsoForms) {
  EXPECT_EQ(Eval("IS_DATETIME('2021-06-15')"), "[true]");
  EXPECT_EQ(Eval("IS_DATETIME('2021-06-15T10:20:30Z')"), "[true]");
  EXPECT_EQ(Eval("IS_DATETIME('2021-06-15 10:20:30.1234567')"), "[true]");
  EXPECT_EQ(Eval("IS_DATETIME('2021-06-15T10:20:30.12345678Z')"), "[false]");
  EXPECT_EQ(Eval("IS_DATETIME('2021-02-30')"), "[false]");
  EXPECT_EQ(Eval("IS_DATETIME('2021-06-15T10:20')"), "[false]");
  EXPECT_EQ(Eval("IS_DATETIME('2021-06-15T10:20:30+01:00')"), "[false]");
  EXPECT_EQ(Eval("IS_DATETIME(20210615)"), "[false]");
  EXPECT_EQ(Eval("IS_DATETIME(undefined)"), "[false]");
}

TEST(ConditionalFunctionsTest, IifTakesTheFirstBranchOnlyOnTrue) {
  EXPECT_EQ(Eval("IIF(true, 1, 2)"), "[1]");
  EXPECT_EQ(Eval("IIF(false, 1, 2)"), "[2]");
  EXPECT_EQ(Eval("IIF('true', 1, 2)"), "[2]");
  EXPECT_EQ(Eval("IIF(undefined, 1, 2)"), "[2]");
  EXPECT_EQ(Eval("IIF(true, undefined, 2)"), "[]");
}

TEST(ItemFunctionsTest, DocumentIdReadsTheItemNumberFromTheRid) {
  // Item rid = container rid (8 bytes) + item number 1 (7 bytes LE) + type byte.
  EXPECT_EQ(Execute("SELECT VALUE DocumentId(c) FROM c",
                    R"([{"id":"a","_rid":"AQAAAAEAAIABAAAAAAAAAA=="},
                        {"id":"b","_rid":"AQAAAAEAAIACAQAAAAAAAA=="}])"),
            "[1,258]");
  EXPECT_EQ(Execute("SELECT VALUE DocumentId(c) FROM c", R"([{"id":"a","_rid":"AQAAAA=="}])"),
            "[]");
  EXPECT_EQ(Execute("SELECT VALUE DocumentId(c) FROM c", R"([{"id":"a"}])"), "[]");
  EXPECT_EQ(Eval("DocumentId('x')"), "[]");
}

}  // namespace
}  // namespace orrery::query
