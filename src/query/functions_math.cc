// Mathematical (query-language.md §5.1) and integer (§5.2) built-ins.

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>

#include "query/functions_internal.h"
#include "query/operators.h"

namespace orrery::query::functions_internal {
namespace {

using json::Value;

// ---- Floating-point functions: any non-number argument gives undefined ----

// f(x) as a double: the trigonometric, exponential and logarithmic functions. Domain
// errors give NaN (ACOS(2)) or an infinity (LOG(0)), as IEEE-754 does.
template <double (*F)(double)>
Value UnaryDouble(Args a) {
  if (!a[0]->is_number()) {
    return Value();
  }
  return Value::Double(F(a[0]->as_double()));
}

double Acos(double d) { return std::acos(d); }
double Asin(double d) { return std::asin(d); }
double Atan(double d) { return std::atan(d); }
double Cos(double d) { return std::cos(d); }
double Sin(double d) { return std::sin(d); }
double Tan(double d) { return std::tan(d); }
double Cot(double d) { return 1.0 / std::tan(d); }
double Degrees(double d) { return d * (180.0 / std::numbers::pi); }
double Radians(double d) { return d * (std::numbers::pi / 180.0); }
double Exp(double d) { return std::exp(d); }
double Log10(double d) { return std::log10(d); }
double Sqrt(double d) { return std::sqrt(d); }

// ATN2(a, b) is atan2(a, b) in C/JavaScript argument order: ATN2(35.175643, 129.44)
// = 0.2653 [V atn2]; older docs and cosmosdb-query have the arguments reversed.
Value Atn2(Args a) {
  if (!a[0]->is_number() || !a[1]->is_number()) {
    return Value();
  }
  return Value::Double(std::atan2(a[0]->as_double(), a[1]->as_double()));
}

// LOG(n) is the natural log; LOG(n, base) = ln n / ln base, computed in extended
// precision and rounded once, which gives the service's last digit: LOG(2, 10) is
// 0.3010299956639812 (its docs), where the quotient of two doubles is ...8114.
Value Log(Args a) {
  if (!a[0]->is_number() || (a.size() > 1 && !a[1]->is_number())) {
    return Value();
  }
  if (a.size() == 1) {
    return Value::Double(std::log(a[0]->as_double()));
  }
  const long double n = std::log(static_cast<long double>(a[0]->as_double()));
  return Value::Double(
      static_cast<double>(n / std::log(static_cast<long double>(a[1]->as_double()))));
}

Value Pi(Args) { return Value::Double(std::numbers::pi); }

// POWER of two integers stays an integer when the result is one (POWER(2, 3) = 8).
Value Power(Args a) {
  if (!a[0]->is_number() || !a[1]->is_number()) {
    return Value();
  }
  return MakeNumber(std::pow(a[0]->as_double(), a[1]->as_double()),
                    a[0]->is_integer() && a[1]->is_integer() && a[1]->as_int() >= 0);
}

Value Square(Args a) {
  if (!a[0]->is_number()) {
    return Value();
  }
  const double d = a[0]->as_double();
  return MakeNumber(d * d, a[0]->is_integer());
}

// RAND(): uniform in [0, 1), from a per-thread generator seeded once from the OS.
Value Rand(Args) {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  return Value::Double(std::uniform_real_distribution<double>(0.0, 1.0)(generator));
}

// SIGN: -1, 0 or 1 as integers; NaN stays NaN.
Value Sign(Args a) {
  if (!a[0]->is_number()) {
    return Value();
  }
  const double d = a[0]->as_double();
  if (std::isnan(d)) {
    return Value::Double(d);
  }
  return Value::Int(d > 0 ? 1 : (d < 0 ? -1 : 0));
}

Value Abs(Args a) {
  const Value& v = *a[0];
  if (!v.is_number()) {
    return Value();
  }
  if (v.is_integer() && v.as_int() != std::numeric_limits<int64_t>::min()) {
    return Value::Int(v.as_int() < 0 ? -v.as_int() : v.as_int());
  }
  return Value::Double(std::fabs(v.as_double()));
}

// ROUND, CEILING, FLOOR and TRUNC give integral values, which print and test as
// integers when they fit int64.
template <double (*F)(double)>
Value RoundingFunction(Args a) {
  const Value& v = *a[0];
  if (!v.is_number()) {
    return Value();
  }
  if (v.is_integer()) {
    return v;
  }
  return MakeNumber(F(v.as_double()), true);
}

// ROUND rounds midpoints away from zero (ROUND(-2.5) = -3, query-language.md §5.1),
// which std::round does; JavaScript's Math.round would give -2.
double RoundAwayFromZero(double d) { return std::round(d); }
double Floor(double d) { return std::floor(d); }
double Ceiling(double d) { return std::ceil(d); }
double Trunc(double d) { return std::trunc(d); }

// NumberBin(n [, size]) = floor(n / size) * size; size 0 (or not a number) gives
// undefined: NumberBin(37.752, 0.1) = 37.7.
Value NumberBin(Args a) {
  if (!a[0]->is_number() || (a.size() > 1 && !a[1]->is_number())) {
    return Value();
  }
  const double size = a.size() > 1 ? a[1]->as_double() : 1.0;
  if (size == 0 || !std::isfinite(size)) {
    return Value();
  }
  const double n = a[0]->as_double();
  const bool integral = a[0]->is_integer() && (a.size() == 1 || a[1]->is_integer());
  return MakeNumber(std::floor(n / size) * size, integral);
}

// ---- Integer math: signed 64-bit, any argument without an int64 value → undefined ----

// Overflow is not documented (query-language.md §5.2 [!]); the arithmetic wraps in
// two's complement, computed on uint64 to stay defined in C++.
template <typename Op>
Value IntBinary(Args a, Op op) {
  const std::optional<int64_t> x = AsInt64(*a[0]);
  const std::optional<int64_t> y = AsInt64(*a[1]);
  if (!x || !y) {
    return Value();
  }
  return op(*x, *y);
}

int64_t Wrap(uint64_t u) { return static_cast<int64_t>(u); }

Value IntAdd(Args a) {
  return IntBinary(a, [](int64_t x, int64_t y) {
    return Value::Int(Wrap(static_cast<uint64_t>(x) + static_cast<uint64_t>(y)));
  });
}
Value IntSub(Args a) {
  return IntBinary(a, [](int64_t x, int64_t y) {
    return Value::Int(Wrap(static_cast<uint64_t>(x) - static_cast<uint64_t>(y)));
  });
}
Value IntMul(Args a) {
  return IntBinary(a, [](int64_t x, int64_t y) {
    return Value::Int(Wrap(static_cast<uint64_t>(x) * static_cast<uint64_t>(y)));
  });
}
// Truncated toward zero; IntDiv(x, 0) is undefined; INT64_MIN / -1 wraps to INT64_MIN.
Value IntDiv(Args a) {
  return IntBinary(a, [](int64_t x, int64_t y) {
    if (y == 0) {
      return Value();
    }
    if (y == -1) {
      return Value::Int(Wrap(0 - static_cast<uint64_t>(x)));
    }
    return Value::Int(x / y);
  });
}
// The remainder takes the dividend's sign: IntMod(12, -5) = 2, IntMod(-12, -5) = -2.
Value IntMod(Args a) {
  return IntBinary(a, [](int64_t x, int64_t y) {
    if (y == 0) {
      return Value();
    }
    if (y == -1) {
      return Value::Int(0);
    }
    return Value::Int(x % y);
  });
}
Value IntBitAnd(Args a) {
  return IntBinary(a, [](int64_t x, int64_t y) { return Value::Int(x & y); });
}
Value IntBitOr(Args a) {
  return IntBinary(a, [](int64_t x, int64_t y) { return Value::Int(x | y); });
}
Value IntBitXor(Args a) {
  return IntBinary(a, [](int64_t x, int64_t y) { return Value::Int(x ^ y); });
}
Value IntBitNot(Args a) {
  const std::optional<int64_t> x = AsInt64(*a[0]);
  return x ? Value::Int(~*x) : Value();
}
// Shift counts are taken modulo 64, as .NET and x86 do for 64-bit shifts (the service
// does not document counts outside 0..63). The right shift is arithmetic.
Value IntBitLeftShift(Args a) {
  return IntBinary(a, [](int64_t x, int64_t n) {
    return Value::Int(Wrap(static_cast<uint64_t>(x) << (n & 63)));
  });
}
Value IntBitRightShift(Args a) {
  return IntBinary(a, [](int64_t x, int64_t n) { return Value::Int(x >> (n & 63)); });
}

constexpr AggregateKind kScalar = AggregateKind::kNone;

constexpr std::array kFunctions = {
    FunctionInfo{"ABS", 1, 1, Abs, kScalar},
    FunctionInfo{"ACOS", 1, 1, UnaryDouble<Acos>, kScalar},
    FunctionInfo{"ASIN", 1, 1, UnaryDouble<Asin>, kScalar},
    FunctionInfo{"ATAN", 1, 1, UnaryDouble<Atan>, kScalar},
    FunctionInfo{"ATN2", 2, 2, Atn2, kScalar},
    FunctionInfo{"CEILING", 1, 1, RoundingFunction<Ceiling>, kScalar},
    FunctionInfo{"COS", 1, 1, UnaryDouble<Cos>, kScalar},
    FunctionInfo{"COT", 1, 1, UnaryDouble<Cot>, kScalar},
    FunctionInfo{"DEGREES", 1, 1, UnaryDouble<Degrees>, kScalar},
    FunctionInfo{"EXP", 1, 1, UnaryDouble<Exp>, kScalar},
    FunctionInfo{"FLOOR", 1, 1, RoundingFunction<Floor>, kScalar},
    FunctionInfo{"LOG", 1, 2, Log, kScalar},
    FunctionInfo{"LOG10", 1, 1, UnaryDouble<Log10>, kScalar},
    FunctionInfo{"NumberBin", 1, 2, NumberBin, kScalar},
    FunctionInfo{"PI", 0, 0, Pi, kScalar},
    FunctionInfo{"POWER", 2, 2, Power, kScalar},
    FunctionInfo{"RADIANS", 1, 1, UnaryDouble<Radians>, kScalar},
    FunctionInfo{"RAND", 0, 0, Rand, kScalar},
    FunctionInfo{"ROUND", 1, 1, RoundingFunction<RoundAwayFromZero>, kScalar},
    FunctionInfo{"SIGN", 1, 1, Sign, kScalar},
    FunctionInfo{"SIN", 1, 1, UnaryDouble<Sin>, kScalar},
    FunctionInfo{"SQRT", 1, 1, UnaryDouble<Sqrt>, kScalar},
    FunctionInfo{"SQUARE", 1, 1, Square, kScalar},
    FunctionInfo{"TAN", 1, 1, UnaryDouble<Tan>, kScalar},
    FunctionInfo{"TRUNC", 1, 1, RoundingFunction<Trunc>, kScalar},
    FunctionInfo{"IntAdd", 2, 2, IntAdd, kScalar},
    FunctionInfo{"IntSub", 2, 2, IntSub, kScalar},
    FunctionInfo{"IntMul", 2, 2, IntMul, kScalar},
    FunctionInfo{"IntDiv", 2, 2, IntDiv, kScalar},
    FunctionInfo{"IntMod", 2, 2, IntMod, kScalar},
    FunctionInfo{"IntBitAnd", 2, 2, IntBitAnd, kScalar},
    FunctionInfo{"IntBitOr", 2, 2, IntBitOr, kScalar},
    FunctionInfo{"IntBitXor", 2, 2, IntBitXor, kScalar},
    FunctionInfo{"IntBitNot", 1, 1, IntBitNot, kScalar},
    FunctionInfo{"IntBitLeftShift", 2, 2, IntBitLeftShift, kScalar},
    FunctionInfo{"IntBitRightShift", 2, 2, IntBitRightShift, kScalar},
};

}  // namespace

std::span<const FunctionInfo> MathFunctions() { return kFunctions; }

}  // namespace orrery::query::functions_internal
