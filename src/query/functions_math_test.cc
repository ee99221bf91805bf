// Mathematical and integer built-ins (query-language.md §5.1, §5.2).

#include <gtest/gtest.h>

#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::Eval;

TEST(MathFunctionsTest, NonNumbersGiveUndefined) {
  for (const char* f : {"ABS",     "ACOS", "ASIN",  "ATAN", "CEILING", "COS",       "COT",
                        "DEGREES", "EXP",  "FLOOR", "LOG",  "LOG10",   "NumberBin", "RADIANS",
                        "ROUND",   "SIGN", "SIN",   "SQRT", "SQUARE",  "TAN",       "TRUNC"}) {
    for (const char* arg : {"null", "'1'", "true", "[1]", "{}", "undefined"}) {
      const std::string call = std::string(f) + "(" + arg + ")";
      EXPECT_EQ(Eval(call), "[]") << call;
    }
  }
  EXPECT_EQ(Eval("ATN2(1, '1')"), "[]");
  EXPECT_EQ(Eval("POWER(null, 2)"), "[]");
  EXPECT_EQ(Eval("LOG(10, 'x')"), "[]");
}

TEST(MathFunctionsTest, AbsKeepsIntegers) {
  EXPECT_EQ(Eval("[ABS(-5), ABS(5), ABS(-2.5), ABS(0)]"), "[[5,5,2.5,0]]");
  EXPECT_EQ(Eval("IS_INTEGER(ABS(-5))"), "[true]");
}

TEST(MathFunctionsTest, RoundRoundsMidpointsAwayFromZero) {
  EXPECT_EQ(Eval("[ROUND(2.5), ROUND(-2.4), ROUND(-2.6), ROUND(-2.5), ROUND(0.5), ROUND(7)]"),
            "[[3,-2,-3,-3,1,7]]");
}

TEST(MathFunctionsTest, CeilingFloorTrunc) {
  EXPECT_EQ(Eval("[CEILING(1.2), CEILING(-1.2), FLOOR(1.8), FLOOR(-1.2)]"), "[[2,-1,1,-2]]");
  EXPECT_EQ(Eval("[TRUNC(2.7), TRUNC(-2.7), TRUNC(3)]"), "[[2,-2,3]]");
  EXPECT_EQ(Eval("IS_INTEGER(FLOOR(2.5))"), "[true]");
}

TEST(MathFunctionsTest, Trigonometry) {
  EXPECT_EQ(Eval("[SIN(0), COS(0), TAN(0), ATAN(0), ASIN(0), ACOS(1)]"), "[[0,1,0,0,0,0]]");
  EXPECT_EQ(Eval("TAN(PI() / 2)"), "[16331239353195370]");
  EXPECT_EQ(Eval("COT(PI() / 4)"), "[1.0000000000000002]");
  EXPECT_EQ(Eval("ACOS(-1)"), "[3.141592653589793]");
  EXPECT_EQ(Eval("IS_FINITE_NUMBER(ACOS(2))"), "[false]");  // NaN outside the domain
}

TEST(MathFunctionsTest, Atn2UsesCArgumentOrder) {
  EXPECT_EQ(Eval("ROUND(ATN2(35.175643, 129.44) * 10000)"), "[2653]");
  EXPECT_EQ(Eval("ATN2(1, 0)"), "[1.5707963267948966]");
}

TEST(MathFunctionsTest, DegreesAndRadians) {
  EXPECT_EQ(Eval("DEGREES(PI())"), "[180]");
  EXPECT_EQ(Eval("RADIANS(180)"), "[3.141592653589793]");
  EXPECT_EQ(Eval("DEGREES(PI() / 2)"), "[90]");
}

TEST(MathFunctionsTest, ExpAndLogarithms) {
  EXPECT_EQ(Eval("EXP(0)"), "[1]");
  EXPECT_EQ(Eval("LOG(EXP(1))"), "[1]");
  EXPECT_EQ(Eval("ROUND(LOG(2, 10) * 100000)"), "[30103]");
  EXPECT_EQ(Eval("LOG(8, 2)"), "[3]");
  EXPECT_EQ(Eval("LOG10(1000)"), "[3]");
  EXPECT_EQ(Eval("ToString(LOG(0))"), R"(["-Infinity"])");
}

TEST(MathFunctionsTest, PowerSqrtSquare) {
  EXPECT_EQ(Eval("[POWER(2, 3), POWER(2, -1), POWER(4, 0.5)]"), "[[8,0.5,2]]");
  EXPECT_EQ(Eval("IS_INTEGER(POWER(2, 3))"), "[true]");
  EXPECT_EQ(Eval("[SQRT(16), SQRT(2)]"), "[[4,1.4142135623730951]]");
  EXPECT_EQ(Eval("[SQUARE(3), SQUARE(-1.5)]"), "[[9,2.25]]");
  EXPECT_EQ(Eval("SQUARE(null)"), "[]");
  EXPECT_EQ(Eval("IS_FINITE_NUMBER(SQRT(-1))"), "[false]");
}

TEST(MathFunctionsTest, PiAndRand) {
  EXPECT_EQ(Eval("PI()"), "[3.141592653589793]");
  EXPECT_EQ(Eval("RAND() >= 0 AND RAND() < 1"), "[true]");
  EXPECT_EQ(Eval("IS_NUMBER(RAND())"), "[true]");
}

TEST(MathFunctionsTest, SignIsAnInteger) {
  EXPECT_EQ(Eval("[SIGN(-2.5), SIGN(0), SIGN(7)]"), "[[-1,0,1]]");
}

TEST(MathFunctionsTest, NumberBinFloorsToAMultiple) {
  EXPECT_EQ(Eval("NumberBin(37.752, 0.1)"), "[37.7]");
  EXPECT_EQ(Eval("NumberBin(37.752)"), "[37]");
  EXPECT_EQ(Eval("NumberBin(-37.2, 10)"), "[-40]");
  EXPECT_EQ(Eval("NumberBin(25, 10)"), "[20]");
  EXPECT_EQ(Eval("NumberBin(37.752, 0)"), "[]");
  EXPECT_EQ(Eval("NumberBin(37.752, 'a')"), "[]");
}

TEST(MathFunctionsTest, ArgumentCountsAreCompileErrors) {
  EXPECT_EQ(testing::ErrorSummary("SELECT VALUE PI(1)").substr(0, 6), "SC2050");
  EXPECT_EQ(testing::ErrorSummary("SELECT VALUE LOG(1, 2, 3)").substr(0, 6), "SC2050");
}

// ---- Integer math ----

TEST(IntFunctionsTest, ArithmeticOnIntegers) {
  EXPECT_EQ(Eval("[IntAdd(20, 10), IntSub(20, 10), IntMul(20, 10)]"), "[[30,10,200]]");
  EXPECT_EQ(Eval("IntAdd(20, 0.10)"), "[]");
  EXPECT_EQ(Eval("IntAdd('1', 1)"), "[]");
  EXPECT_EQ(Eval("IntMul(null, 1)"), "[]");
}

TEST(IntFunctionsTest, OverflowWraps) {
  EXPECT_EQ(Eval("IntAdd(9223372036854775807, 1)"), "[-9223372036854775808]");
  EXPECT_EQ(Eval("IntSub(-9223372036854775808, 1)"), "[9223372036854775807]");
  EXPECT_EQ(Eval("IntMul(9223372036854775807, 2)"), "[-2]");
}

TEST(IntFunctionsTest, DivTruncatesAndModTakesDividendSign) {
  EXPECT_EQ(Eval("[IntDiv(10, -2), IntDiv(7, 2), IntDiv(-7, 2)]"), "[[-5,3,-3]]");
  EXPECT_EQ(Eval("IntDiv(10, 0)"), "[]");
  EXPECT_EQ(Eval("[IntMod(12, -5), IntMod(-12, -5), IntMod(12, 5)]"), "[[2,-2,2]]");
  EXPECT_EQ(Eval("IntMod(12, 0)"), "[]");
  EXPECT_EQ(Eval("IntDiv(-9223372036854775808, -1)"), "[-9223372036854775808]");
  EXPECT_EQ(Eval("IntMod(-9223372036854775808, -1)"), "[0]");
}

TEST(IntFunctionsTest, Bitwise) {
  EXPECT_EQ(Eval("[IntBitAnd(12, 10), IntBitOr(12, 10), IntBitXor(12, 10), IntBitNot(0)]"),
            "[[8,14,6,-1]]");
  EXPECT_EQ(Eval("[IntBitLeftShift(1, 62), IntBitRightShift(-16, 2)]"),
            "[[4611686018427387904,-4]]");
  EXPECT_EQ(Eval("IntBitLeftShift(1, 64)"), "[1]");  // counts are taken modulo 64
  EXPECT_EQ(Eval("IntBitNot(1.5)"), "[]");
  EXPECT_EQ(Eval("IntBitAnd(1, true)"), "[]");
}

TEST(IntFunctionsTest, IntegralDoublesCountAsIntegers) {
  // What IS_INTEGER accepts: 6 / 3 computes to an integral value.
  EXPECT_EQ(Eval("IntAdd(6 / 3, 1)"), "[3]");
}

}  // namespace
}  // namespace orrery::query
